import Foundation

/// What a ``CassetteMatching`` compares of one request, worked out once: for each recorded
/// interaction when the cassette is opened or records, for each request as it comes.
struct CassetteMatchKey: Sendable, Hashable {
    var method: String
    /// The canonical URL (see ``CassetteMatching``), ignored query parameters left out.
    var url: String
    /// The compared headers by lower-cased name, each with its values in order.
    var headers: [String: [String]]
    /// The canonical body; `nil` when bodies are not compared, or the request's cannot be
    /// known (a stream), which then matches any.
    var body: Data?

    /// Whether a request with this key is the recorded one with `recorded`.
    func matches(_ recorded: CassetteMatchKey) -> Bool {
        guard method == recorded.method, url == recorded.url, headers == recorded.headers else { return false }
        guard let body, let other = recorded.body else { return true }
        return body == other
    }
}

extension CassetteMatching {
    /// The key of a request record (redacted already). `bodyIsKnown: false` for a request whose
    /// body was not read (a stream): its body then matches any.
    func key(for request: CassetteInteraction.RecordedRequest, bodyIsKnown: Bool = true) -> CassetteMatchKey {
        var headers: [String: [String]] = [:]
        for name in comparedHeaders {
            let lowered = name.lowercased()
            headers[lowered] = request.headers.filter { $0.name.lowercased() == lowered }.map(\.value)
        }
        return CassetteMatchKey(method: request.method, url: canonicalURL(request.url), headers: headers,
                                body: comparesBody && bodyIsKnown ? Self.canonicalBody(request.body) : nil)
    }

    /// The URL with the differences that do not change what is asked for taken out; a text
    /// that does not parse as a URL is compared as it is. Only ever compared, never sent, so
    /// it is built as text (URLComponents' setters may trap on odd input).
    func canonicalURL(_ text: String) -> String {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            return text
        }
        var result = scheme + ":"
        if let host = components.percentEncodedHost {
            result += "//"
            if let user = components.percentEncodedUser {
                result += user
                if let password = components.percentEncodedPassword { result += ":" + password }
                result += "@"
            }
            result += host.lowercased()
            if let port = components.port, !(scheme == "http" && port == 80), !(scheme == "https" && port == 443) {
                result += ":\(port)"
            }
        }
        let path = components.percentEncodedPath
        result += path.isEmpty ? "/" : path
        if let query = components.percentEncodedQuery {
            let pairs = query.split(separator: "&").map(String.init).filter { pair in
                let rawName = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
                let spaced = rawName.replacingOccurrences(of: "+", with: " ")
                return !ignoredQueryParameters.contains(spaced.removingPercentEncoding ?? spaced)
            }.sorted()
            if !pairs.isEmpty { result += "?" + pairs.joined(separator: "&") }
        }
        return result
    }

    /// A JSON object or array re-serialised with sorted keys and no white space, so key order
    /// and formatting do not count; any other body as it is.
    static func canonicalBody(_ body: Data) -> Data {
        let first = body.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
              let root = try? JSONSerialization.jsonObject(with: body),
              let canonical = try? JSONSerialization.data(withJSONObject: root, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return body }
        return canonical
    }
}
