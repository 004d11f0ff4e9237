import Foundation
import HTTPCore

extension HTTPSessionManager {
    /// The URL a call with `URLString` goes to, resolved by the rule every front end shares
    /// (``HTTPCore/URLResolution``), which is AFNetworking's `URLWithString:relativeToURL:`
    /// (RFC 3986): a relative path extends ``baseURL``, a path starting with `/` starts at
    /// the base's host root, `//host/path` keeps the base's scheme, an absolute URL is used
    /// as it is, the empty string is the base URL itself. Whitespace around the string is
    /// dropped; characters not allowed in URLs (spaces, non-ASCII) are percent-encoded.
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
        let url = try URLResolution.resolve(URLString, againstDirectory: baseURL)
        guard TransferTarget.hasHost(url) else {
            throw NetworkError(.invalidURL, "\"\(URLString)\" resolves to \(url.absoluteString), which has no host")
        }
        return url
    }
}
