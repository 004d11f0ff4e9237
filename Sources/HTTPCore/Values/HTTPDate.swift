import Foundation

/// HTTP dates (RFC 9110 §5.6.7), used by the retry policy (`Retry-After`) and the cache
/// (`Date`, `Expires`, `Last-Modified`). Parsing accepts the three forms HTTP allows, without
/// `DateFormatter`, which is costly to create and locale-sensitive:
///
/// - IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT` (the only one servers should send),
/// - RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT`,
/// - asctime `Sun Nov  6 08:49:37 1994`.
///
/// Anything else — `0`, `-1`, an empty string — is `nil`, which for `Expires` means "already expired".
public enum HTTPDate {
    /// Formats a date as an IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Parses an HTTP date in any of the three forms; `nil` when it is not one.
    public static func parse(_ text: String) -> Date? {
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        switch tokens.count {
        case 6:
            // IMF-fixdate: wkday, DD Mon YYYY HH:MM:SS GMT
            guard tokens[0].hasSuffix(","), tokens[5] == "GMT", let day = Int(tokens[1]),
                  let month = month(tokens[2]), tokens[3].count == 4, let year = Int(tokens[3]) else { return nil }
            return date(year: year, month: month, day: day, time: tokens[4])
        case 4:
            // RFC 850: weekday, DD-Mon-YY HH:MM:SS GMT
            guard tokens[0].hasSuffix(","), tokens[3] == "GMT" else { return nil }
            let parts = tokens[1].split(separator: "-").map(String.init)
            guard parts.count == 3, let day = Int(parts[0]), let month = month(parts[1]),
                  let shortYear = Int(parts[2]) else { return nil }
            let year = parts[2].count == 2 ? (shortYear < 70 ? 2000 + shortYear : 1900 + shortYear) : shortYear
            return date(year: year, month: month, day: day, time: tokens[2])
        case 5:
            // asctime: wkday Mon D HH:MM:SS YYYY
            guard let month = month(tokens[1]), let day = Int(tokens[2]), let year = Int(tokens[4]) else { return nil }
            return date(year: year, month: month, day: day, time: tokens[3])
        default:
            return nil
        }
    }

    private static func month(_ name: String) -> Int? {
        months.firstIndex(of: name.lowercased()).map { $0 + 1 }
    }

    private static func date(year: Int, month: Int, day: Int, time: String) -> Date? {
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ $0.count == 2 }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), let second = Int(parts[2]),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              (1...31).contains(day), (1600...9999).contains(year) else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm), so
    /// no time-zone database or `timegm` is involved.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
