import Foundation

/// Dates as ISO 8601 strings (`2024-05-01T08:30:00Z`, `…+08:00`), ObjectMapper's
/// `ISO8601DateTransform` (format `yyyy-MM-dd'T'HH:mm:ssZZZZZ`, POSIX locale, written in UTC).
open class ISO8601DateTransform: DateFormatterTransform {
    /// Makes the transform.
    public init() {
        let formatter = DateFormatter()
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssZZZZZ"
        super.init(dateFormatter: formatter)
    }
}
