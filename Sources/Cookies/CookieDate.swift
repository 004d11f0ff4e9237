import Foundation

/// The cookie-date algorithm of RFC 6265 §5.1.1, which is what real servers need: it finds a
/// time, a day of month, a month name and a year among the tokens in any order, so RFC 1123
/// (`Wed, 21 Oct 2015 07:28:00 GMT`), RFC 850 (`Wednesday, 21-Oct-15 07:28:00 GMT`) and asctime
/// (`Wed Oct 21 07:28:00 2015`) dates all parse. Everything is read as UTC, as the RFC says.
enum CookieDate {
    private static let months: [[UInt8]] = ["jan", "feb", "mar", "apr", "may", "jun",
                                            "jul", "aug", "sep", "oct", "nov", "dec"].map { Array($0.utf8) }

    /// The date `string` names, or `nil` when the algorithm fails (the attribute is then ignored).
    static func parse(_ string: String) -> Date? {
        var time: (hour: Int, minute: Int, second: Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in tokens(of: Array(string.utf8)) {
            if time == nil, let found = parseTime(token) {
                time = found
            } else if day == nil, let found = leadingDigits(token, minimum: 1, maximum: 2) {
                day = found
            } else if month == nil, let found = parseMonth(token) {
                month = found
            } else if year == nil, let found = leadingDigits(token, minimum: 2, maximum: 4) {
                year = found
            }
        }
        guard let time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(day), year >= 1601, time.hour <= 23, time.minute <= 59, time.second <= 59,
              day <= daysIn(month: month, year: year) else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The tokens between delimiters: %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E.
    private static func tokens(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(omittingEmptySubsequences: true) { byte in
            byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte)
                || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// `minimum*maximum DIGIT ( non-digit *OCTET )`: the number, or `nil`.
    private static func leadingDigits(_ token: ArraySlice<UInt8>, minimum: Int, maximum: Int) -> Int? {
        var value = 0
        var count = 0
        for byte in token {
            guard isDigit(byte) else { break }
            count += 1
            guard count <= maximum else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return count >= minimum ? value : nil
    }

    /// `1*2DIGIT ":" 1*2DIGIT ":" 1*2DIGIT ( non-digit *OCTET )`.
    private static func parseTime(_ token: ArraySlice<UInt8>) -> (hour: Int, minute: Int, second: Int)? {
        var fields: [Int] = []
        var index = token.startIndex
        while fields.count < 3 {
            var value = 0
            var count = 0
            while index < token.endIndex, isDigit(token[index]) {
                count += 1
                guard count <= 2 else { return nil }
                value = value * 10 + Int(token[index] - 0x30)
                index += 1
            }
            guard count >= 1 else { return nil }
            fields.append(value)
            if fields.count < 3 {
                guard index < token.endIndex, token[index] == UInt8(ascii: ":") else { return nil }
                index += 1
            }
        }
        return (fields[0], fields[1], fields[2])
    }

    /// A token whose first three bytes name a month, case-insensitively: 1...12.
    private static func parseMonth(_ token: ArraySlice<UInt8>) -> Int? {
        guard token.count >= 3 else { return nil }
        let prefix = token.prefix(3).map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
        return months.firstIndex(of: prefix).map { $0 + 1 }
    }

    private static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's algorithm),
    /// without a `Calendar`, so parsing does not depend on the process's locale or time zone.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
