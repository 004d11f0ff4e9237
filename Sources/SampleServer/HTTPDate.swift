import Glibc

/// IMF-fixdate formatting (RFC 9110 §5.6.7), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDate {
    /// The current time.
    static func now() -> String {
        format(secondsSince1970: time(nil))
    }

    /// A fixed instant, formatted.
    static func format(secondsSince1970 seconds: Int) -> String {
        var value = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&value, &parts) != nil else { return "Thu, 01 Jan 1970 00:00:00 GMT" }
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let day = days[Int(parts.tm_wday) % 7]
        let month = months[Int(parts.tm_mon) % 12]
        return "\(day), \(two(parts.tm_mday)) \(month) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
