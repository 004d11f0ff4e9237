import Foundation

/// A route's URL pattern: a path such as `/user/:id` or `/files/*rest` (any host), or a whole
/// URL such as `https://api.example.com/v1/user/:id` (that scheme, host and port only).
/// `:name` matches one path segment, `*name` (or a bare `*`) the rest of the path, possibly
/// empty (so it ends the pattern: segments after it are not compared); other segments compare
/// exactly, after percent-decoding. Empty segments (a trailing `/`) are ignored on both sides.
/// A query in the pattern (`/search?q=1`) is a set of items the request must have, as the
/// route's `query:` items are.
struct StubPattern: Sendable, Hashable {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
        case rest(String)
    }

    let text: String
    let scheme: String?
    let host: String?
    let port: Int?
    let segments: [Segment]
    /// The items the pattern's own query asks for.
    let queryItems: [URLQueryItem]

    init(_ text: String) {
        self.text = text
        var path = text
        var query = ""
        if let mark = text.firstIndex(of: "?") {
            path = String(text[..<mark])
            query = String(text[text.index(after: mark)...])
        }
        queryItems = FormItems.decode(query)
        if path.contains("://"), let components = URLComponents(string: path), let host = components.host {
            scheme = components.scheme?.lowercased()
            self.host = host.lowercased()
            port = components.port ?? StubPattern.defaultPort(components.scheme)
            path = components.percentEncodedPath
        } else {
            scheme = nil
            host = nil
            port = nil
        }
        segments = path.split(separator: "/").map { piece in
            if piece.hasPrefix(":") { return .parameter(String(piece.dropFirst())) }
            if piece.hasPrefix("*") { return .rest(String(piece.dropFirst())) }
            return .literal(piece.removingPercentEncoding ?? String(piece))
        }
    }

    /// The path parameters when `url` matches.
    func match(_ url: URL) -> [String: String]? {
        if let host {
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            guard components?.host?.lowercased() == host, components?.scheme?.lowercased() == scheme,
                  (components?.port ?? StubPattern.defaultPort(components?.scheme)) == port else { return nil }
        }
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
        let pieces = path.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        var parameters: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .literal(let text):
                guard index < pieces.count, pieces[index] == text else { return nil }
            case .parameter(let name):
                guard index < pieces.count else { return nil }
                parameters[name] = pieces[index]
            case .rest(let name):
                if !name.isEmpty { parameters[name] = pieces.dropFirst(index).joined(separator: "/") }
                return parameters
            }
        }
        return pieces.count == segments.count ? parameters : nil
    }

    private static func defaultPort(_ scheme: String?) -> Int? {
        switch scheme?.lowercased() {
        case "http": 80
        case "https": 443
        default: nil
        }
    }
}
