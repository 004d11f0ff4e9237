/// A parsed request line and header section.
package struct RequestHead {
    /// Why a head could not be parsed, and which status answers it.
    struct ParseError: Error {
        let status: Int
        let reason: String
    }

    /// The method as sent (methods are case-sensitive).
    package var method: String
    /// The request target as sent, e.g. `/get?a=1`.
    package var target: String
    /// The path part of the target, still percent-encoded.
    package var path: String
    /// The query part without `?`, still percent-encoded; empty when absent.
    package var query: String
    /// The minor version of HTTP/1.x.
    package var minorVersion: Int
    package var headers: HeaderFields

    /// `true` for HEAD, whose responses carry headers but no body.
    package var isHead: Bool { method == "HEAD" }

    /// Parses a head as returned by `SocketReader.readHead`.
    static func parse(_ bytes: [UInt8]) throws(ParseError) -> RequestHead {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = 0
        for index in bytes.indices where bytes[index] == 0x0a {
            var end = index
            if end > lineStart && bytes[end - 1] == 0x0d { end -= 1 }
            lines.append(bytes[lineStart..<end])
            lineStart = index + 1
        }
        // The last element is the blank line that ended the head.
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        guard let requestLine = lines.first else { throw ParseError(status: 400, reason: "empty request") }

        let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw ParseError(status: 400, reason: "malformed request line") }
        guard let method = token(parts[0]) else { throw ParseError(status: 400, reason: "malformed method") }
        let target = parts[1]
        guard !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
            throw ParseError(status: 400, reason: "malformed request target")
        }
        let minor = try version(parts[2])

        var head = RequestHead(method: method, target: String(decoding: target, as: UTF8.self),
                               path: "", query: "", minorVersion: minor, headers: HeaderFields())
        try head.splitTarget()

        for line in lines.dropFirst() {
            guard let first = line.first else { continue }
            if first == 0x20 || first == 0x09 {
                throw ParseError(status: 400, reason: "obsolete line folding is not accepted")
            }
            guard let colon = line.firstIndex(of: 0x3a) else {
                throw ParseError(status: 400, reason: "header line without a colon")
            }
            guard let name = token(line[line.startIndex..<colon]) else {
                throw ParseError(status: 400, reason: "malformed header name")
            }
            let rawValue = line[(colon + 1)...]
            // Field values may hold visible characters, spaces, tabs and obs-text, nothing else.
            guard rawValue.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7f) }) else {
                throw ParseError(status: 400, reason: "control character in header value")
            }
            head.headers.append(name: name, value: decodeFieldText(rawValue).trimmingOWS())
        }
        return head
    }

    /// Splits the target into path and query, accepting origin-form, absolute-form (as sent
    /// to proxies) and the asterisk form of OPTIONS.
    private mutating func splitTarget() throws(ParseError) {
        var rest = Substring(target)
        if rest == "*" {
            guard method == "OPTIONS" else { throw ParseError(status: 400, reason: "'*' is only valid for OPTIONS") }
            path = "*"
            return
        }
        let lower = rest.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            let afterScheme = rest[rest.index(rest.startIndex, offsetBy: lower.hasPrefix("http://") ? 7 : 8)...]
            if let slash = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) {
                rest = afterScheme[slash...]
                if rest.first == "?" { rest = "/" + rest }
            } else {
                rest = "/"
            }
        }
        guard rest.first == "/" else { throw ParseError(status: 400, reason: "malformed request target") }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        if let question = rest.firstIndex(of: "?") {
            path = String(rest[..<question])
            query = String(rest[rest.index(after: question)...])
        } else {
            path = String(rest)
            query = ""
        }
    }

    /// "HTTP/1.x" → x. Other well-formed versions are 505, anything else 400.
    private static func version(_ bytes: ArraySlice<UInt8>) throws(ParseError) -> Int {
        let v = Array(bytes)
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        guard v.count == 8, v[0..<5].elementsEqual("HTTP/".utf8), isDigit(v[5]), v[6] == UInt8(ascii: "."),
              isDigit(v[7]) else {
            throw ParseError(status: 400, reason: "malformed HTTP version")
        }
        guard v[5] == UInt8(ascii: "1") else { throw ParseError(status: 505, reason: "HTTP version not supported") }
        return Int(v[7] - UInt8(ascii: "0"))
    }

    /// The bytes as a string if they form an RFC 9110 token (method, header name), else nil.
    private static func token(_ bytes: ArraySlice<UInt8>) -> String? {
        guard !bytes.isEmpty, bytes.allSatisfy(isTokenCharacter) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// Field values are UTF-8 in practice; anything else is read as ISO-8859-1 so no byte is lost.
    private static func decodeFieldText(_ bytes: ArraySlice<UInt8>) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
