/// A `Range` request header for a single byte range (RFC 9110 §14.2).
enum ByteRange: Equatable {
    /// The half-open range of bytes to send.
    case satisfiable(Range<Int>)
    /// A valid range that starts past the end: 416.
    case unsatisfiable
    /// Not a single byte range we understand; RFC 9110 lets a server ignore it and send 200.
    case ignored

    /// Parses `bytes=a-b`, `bytes=a-` or `bytes=-n` against a body of `length` bytes.
    static func parse(_ header: String, length: Int) -> ByteRange {
        let text = header.trimmingOWS()
        guard text.lowercased().hasPrefix("bytes=") else { return .ignored }
        let spec = text.dropFirst(6).trimmingOWS()
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .ignored }
        let first = spec[..<dash].trimmingOWS()
        let last = spec[spec.index(after: dash)...].trimmingOWS()
        let isNumber = { (text: String) in !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }

        if first.isEmpty {
            // Suffix range: the last n bytes.
            guard isNumber(last) else { return .ignored }
            // Digits too many for an Int still mean "everything".
            let suffix = Int(last) ?? Int.max
            guard suffix > 0, length > 0 else { return .unsatisfiable }
            return .satisfiable(max(0, length - suffix)..<length)
        }
        guard isNumber(first) else { return .ignored }
        let start = Int(first) ?? Int.max
        var end = length - 1
        if !last.isEmpty {
            guard isNumber(last) else { return .ignored }
            let requestedEnd = Int(last) ?? Int.max
            guard requestedEnd >= start else { return .ignored }
            end = min(requestedEnd, length - 1)
        }
        guard start < length else { return .unsatisfiable }
        return .satisfiable(start..<(end + 1))
    }
}
