import Foundation

/// Where and how request parameters are written.
public enum ParameterEncoding: Sendable, Hashable {
    /// In the URL query, AFNetworking style (`user[name]=x&ids[]=1`), keys sorted.
    case query
    /// In an `application/x-www-form-urlencoded` body, the same format as ``query``.
    case form
    /// In an `application/json` body; keys sorted, so equal parameters give equal bytes.
    case json

    /// The encoding AFNetworking's `AFHTTPRequestSerializer` uses for a method: ``query`` for
    /// `GET`, `HEAD` and `DELETE`, ``form`` for every other method.
    public static func `default`(for method: HTTPMethod) -> ParameterEncoding {
        method.encodesParametersInURL ? .query : .form
    }

    /// Applies parameters to a request: appends them to the URL query (after any query the
    /// URL already has) or replaces the body and sets `Content-Type` unless the request has one.
    /// - Throws: ``NetworkError`` of kind ``NetworkError/Kind/invalidParameters`` for NaN or
    ///   infinite numbers in JSON, or ``NetworkError/Kind/invalidURL`` when the query cannot be applied.
    public func encode(_ parameters: [String: Parameter], into request: inout HTTPRequest) throws(NetworkError) {
        switch self {
        case .query:
            guard !parameters.isEmpty else { return }
            let query = ParameterEncoding.urlEncodedString(parameters)
            guard var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) else {
                throw NetworkError(.invalidURL, "cannot add a query to \(request.url.absoluteString)")
            }
            let existing = components.percentEncodedQuery.map { $0.isEmpty ? "" : $0 + "&" } ?? ""
            components.percentEncodedQuery = existing + query
            guard let url = components.url else {
                throw NetworkError(.invalidURL, "the query makes an invalid URL from \(request.url.absoluteString)")
            }
            request.url = url
        case .form:
            request.body = .data(Data(ParameterEncoding.urlEncodedString(parameters).utf8))
            if !request.headers.contains("Content-Type") {
                request.headers["Content-Type"] = "application/x-www-form-urlencoded; charset=utf-8"
            }
        case .json:
            request.body = .data(try ParameterEncoding.jsonData(.dictionary(parameters)))
            if !request.headers.contains("Content-Type") {
                request.headers["Content-Type"] = "application/json"
            }
        }
    }

    /// The AFNetworking-style `key=value&…` form of parameters: nested dictionaries as
    /// `key[sub]`, arrays as `key[]`, keys sorted, RFC 3986 percent-encoding (brackets too).
    public static func urlEncodedString(_ parameters: [String: Parameter]) -> String {
        var pairs: [String] = []
        for key in parameters.keys.sorted() {
            // Sorted keys always have a value; `?? .null` only satisfies the type checker.
            appendPairs(for: parameters[key] ?? .null, name: key, into: &pairs)
        }
        return pairs.joined(separator: "&")
    }

    private static func appendPairs(for value: Parameter, name: String, into pairs: inout [String]) {
        switch value {
        case .dictionary(let dictionary):
            for key in dictionary.keys.sorted() {
                appendPairs(for: dictionary[key] ?? .null, name: "\(name)[\(key)]", into: &pairs)
            }
        case .array(let array):
            for item in array { appendPairs(for: item, name: "\(name)[]", into: &pairs) }
        case .null:
            pairs.append(percentEncode(name))
        case .string(let s):
            pairs.append(percentEncode(name) + "=" + percentEncode(s))
        case .int(let i):
            pairs.append(percentEncode(name) + "=" + String(i))
        case .double(let d):
            pairs.append(percentEncode(name) + "=" + percentEncode(formatDouble(d)))
        case .bool(let b):
            pairs.append(percentEncode(name) + "=" + (b ? "1" : "0"))
        }
    }

    /// Whether ``percentEncode(_:)`` keeps `byte` as it is: RFC 3986's unreserved characters,
    /// `?` and `/`.
    package static func leavesUnencoded(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "?"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters, as AFNetworking does
    /// for query values (it leaves `?` and `/` alone, which we keep too).
    public static func percentEncode(_ string: String) -> String {
        var result = ""
        result.reserveCapacity(string.utf8.count)
        let hex: [Character] = Array("0123456789ABCDEF")
        for byte in string.utf8 {
            if leavesUnencoded(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result.append("%")
                result.append(hex[Int(byte >> 4)])
                result.append(hex[Int(byte & 0x0F)])
            }
        }
        return result
    }

    /// Canonical JSON for a parameter tree: sorted keys, no white space, shortest round-trip
    /// numbers. Deterministic, so it doubles as the cache key's body form.
    /// - Throws: ``NetworkError/Kind/invalidParameters`` for NaN or infinity, which JSON cannot hold.
    public static func jsonData(_ value: Parameter) throws(NetworkError) -> Data {
        var out: [UInt8] = []
        try writeJSON(value, path: { "" }, into: &out)
        return Data(out)
    }

    /// `path` names the value for the error message; it is built only when one is thrown.
    private static func writeJSON(_ value: Parameter, path: () -> String, into out: inout [UInt8]) throws(NetworkError) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d):
            guard d.isFinite else {
                let name = path()
                throw NetworkError(.invalidParameters, "parameter \(name.isEmpty ? "value" : name) is \(d), which JSON cannot represent")
            }
            out.append(contentsOf: formatDouble(d).utf8)
        case .string(let s): writeJSONString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                try writeJSON(item, path: { "\(path())[\(index)]" }, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .dictionary(let dictionary):
            out.append(UInt8(ascii: "{"))
            for (index, (key, member)) in dictionary.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeJSONString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                try writeJSON(member, path: {
                    let parent = path()
                    return parent.isEmpty ? key : "\(parent).\(key)"
                }, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeJSONString(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings need no escape: one check, then one bulk copy.
        if string.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out.append(contentsOf: string.utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case 0x0A: out.append(contentsOf: "\\n".utf8)
            case 0x0D: out.append(contentsOf: "\\r".utf8)
            case 0x09: out.append(contentsOf: "\\t".utf8)
            case 0x00..<0x20:
                // Below 0x20: the high digit is 0 or 1, the low one 0-9 or a-f.
                let low = byte & 0x0F
                out.append(contentsOf: "\\u00".utf8)
                out.append(UInt8(ascii: "0") + (byte >> 4))
                out.append(low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") + low - 10)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Integral doubles print without a fraction (`3`, not `3.0`), others in Swift's
    /// shortest round-trip form, which is valid JSON.
    static func formatDouble(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }
}
