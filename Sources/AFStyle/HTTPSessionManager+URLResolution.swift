import Foundation
import HTTPCore

extension HTTPSessionManager {
    /// The URL a call with `URLString` goes to, resolved as AFNetworking resolves it
    /// (`[NSURL URLWithString:relativeToURL:]`, RFC 3986): a relative path against
    /// ``baseURL``, a path starting with `/` at the base's host root, `//host/path` on the
    /// base's scheme, an absolute URL as it is; the empty string is the base URL itself.
    /// Characters not allowed in URLs (spaces, non-ASCII) are percent-encoded.
    ///
    /// - Throws: ``NetworkError/Kind/invalidURL`` when the string is not a URL, or the result
    ///   has no host (a relative string without a base URL, `mailto:`).
    public func url(for URLString: String) throws(NetworkError) -> URL {
        try resolvedURL(URLString, configuration: configuration)
    }

    /// ``url(for:)`` under the given settings. What a string resolved to is kept, per
    /// settings generation and up to ``resolvedURLLimit`` strings: apps call the same
    /// endpoints again and again, and Foundation's parse was ~4,000 instructions of every call
    /// (3% of a small GET). Failures are not kept; they are thrown again each time.
    func resolvedURL(_ URLString: String, configuration: Configuration) throws(NetworkError) -> URL {
        if let kept = keptURL(for: URLString, generation: configuration.generation) { return kept }
        let url = try HTTPSessionManager.resolve(URLString, against: configuration.baseURL)
        keep(url, for: URLString, generation: configuration.generation)
        return url
    }

    static func resolve(_ URLString: String, against baseURL: URL?) throws(NetworkError) -> URL {
        let resolved: URL?
        if URLString.isEmpty {
            // `URL(string: "")` is nil in Foundation, but AFNetworking's base + "" is the base.
            resolved = baseURL
        } else {
            resolved = URL(string: URLString, relativeTo: baseURL)?.absoluteURL
        }
        guard let url = resolved else {
            throw NetworkError(.invalidURL, baseURL == nil && URLString.isEmpty
                               ? "an empty URL string needs a base URL"
                               : "not a valid URL: \"\(URLString)\"")
        }
        guard TransferTarget.hasHost(url) else {
            throw NetworkError(.invalidURL, baseURL == nil
                               ? "\"\(URLString)\" is not an absolute URL and the manager has no base URL"
                               : "\"\(URLString)\" resolves to \(url.absoluteString), which has no host")
        }
        return url
    }

    /// Adds the trailing slash AFNetworking's `initWithBaseURL:` adds to a non-empty path, so
    /// that relative paths extend the base's path instead of replacing its last segment.
    static func normalizedBaseURL(_ url: URL?) -> URL? {
        guard let url else { return nil }
        let text = url.absoluteString
        guard !url.path.isEmpty, !text.hasSuffix("/") else { return url }
        return url.appendingPathComponent("")
    }
}
