import Foundation

/// One `Set-Cookie` field parsed as RFC 6265 §5.2 says, before the jar decides whether to
/// store it (§5.3). Attributes are matched case-insensitively and the last valid one of each
/// name wins; an attribute the RFC says to ignore leaves an earlier one of its name in place.
///
/// Choices where the RFCs differ: a name-value pair without `=`, or with an empty name, makes
/// the whole field ignored (RFC 6265; RFC 6265bis would take it as a nameless cookie). From
/// RFC 6265bis: a field with a control character other than HTAB is ignored, a name and
/// value over 4096 bytes together are ignored, and an attribute value over 1024 bytes is
/// ignored.
struct SetCookie: Equatable {
    /// The longest name and value together, in bytes (RFC 6265bis §5.7).
    static let maximumNameValueBytes = 4096
    /// The longest attribute value, in bytes (RFC 6265bis §5.7).
    static let maximumAttributeValueBytes = 1024

    var name: String
    var value: String
    /// The last valid `Expires`.
    var expires: Date?
    /// The last valid `Max-Age`, in seconds; zero or negative means "expire now".
    var maxAge: Int64?
    /// The last non-empty `Domain`, leading dot dropped, lowercased.
    var domain: String?
    /// The last `Path`: `nil` inside when its value was empty or did not start with `/`,
    /// which means the default path.
    var path: String??
    var isSecure = false
    var isHTTPOnly = false
    var sameSite: Cookie.SameSite?

    init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// The parsed field, or `nil` when RFC 6265 says to ignore it entirely.
    init?(parsing field: String) {
        let bytes = field.utf8
        // RFC 6265bis §5.7 step 1: CTLs other than HTAB make the whole field ignored.
        guard !bytes.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else { return nil }
        let semicolon = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        let pair = field[field.startIndex..<semicolon]
        guard let equals = pair.utf8.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        let name = SetCookie.trimmed(pair[pair.startIndex..<equals])
        let value = SetCookie.trimmed(pair[pair.utf8.index(after: equals)...])
        guard !name.isEmpty, name.utf8.count + value.utf8.count <= SetCookie.maximumNameValueBytes else { return nil }
        self.init(name: String(name), value: String(value))
        var rest = field[semicolon...]
        while !rest.isEmpty {
            rest = rest[rest.utf8.index(after: rest.startIndex)...] // the ";"
            let end = rest.utf8.firstIndex(of: UInt8(ascii: ";")) ?? rest.endIndex
            apply(attribute: rest[rest.startIndex..<end])
            rest = rest[end...]
        }
    }

    /// §5.2 steps for one cookie-av.
    private mutating func apply(attribute: Substring) {
        let attributeName: Substring
        let attributeValue: Substring
        if let equals = attribute.utf8.firstIndex(of: UInt8(ascii: "=")) {
            attributeName = SetCookie.trimmed(attribute[attribute.startIndex..<equals])
            attributeValue = SetCookie.trimmed(attribute[attribute.utf8.index(after: equals)...])
        } else {
            attributeName = SetCookie.trimmed(attribute)
            attributeValue = ""
        }
        guard attributeValue.utf8.count <= SetCookie.maximumAttributeValueBytes else { return }
        switch SetCookie.asciiLowercased(attributeName) {
        case "expires":
            if let date = CookieDate.parse(String(attributeValue)) { expires = date }
        case "max-age":
            if let seconds = SetCookie.deltaSeconds(attributeValue) { maxAge = seconds }
        case "domain":
            let domain = Cookie.normalizedDomain(String(attributeValue))
            if !domain.isEmpty { self.domain = domain }
        case "path":
            path = .some(attributeValue.utf8.first == UInt8(ascii: "/") ? String(attributeValue) : nil)
        case "secure":
            isSecure = true
        case "httponly":
            isHTTPOnly = true
        case "samesite":
            sameSite = Cookie.SameSite(rawValue: SetCookie.asciiLowercased(attributeValue))
        default:
            break
        }
    }

    /// §5.2.2: an optional `-` then digits only; anything else is ignored. Values beyond
    /// `Int64` saturate, which the jar's expiry cap makes harmless.
    private static func deltaSeconds(_ text: Substring) -> Int64? {
        var digits = text.utf8[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        var value: Int64 = 0
        for byte in digits {
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = shifted.addingReportingOverflow(Int64(byte - 0x30))
            if overflowA || overflowB { return negative ? Int64.min : Int64.max }
            value = sum
        }
        return negative ? -value : value
    }

    /// ASCII letters lowercased and nothing else, so no Unicode case mapping turns a foreign
    /// character into an attribute name.
    static func asciiLowercased(_ text: Substring) -> String {
        String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// Without leading and trailing SP and HTAB (RFC 6265bis §5.6: WSP).
    static func trimmed(_ text: Substring) -> Substring {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        var utf8 = text.utf8[...]
        while let first = utf8.first, isSpace(first) { utf8 = utf8.dropFirst() }
        while let last = utf8.last, isSpace(last) { utf8 = utf8.dropLast() }
        return Substring(utf8)
    }
}
