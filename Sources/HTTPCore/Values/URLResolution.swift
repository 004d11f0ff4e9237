import Foundation

/// The one rule by which a URL string given to a front end becomes the URL a request goes
/// to: `Request.url(_:)` under a configuration's base URL, a `TargetType`'s `baseURL` +
/// `path`, and `HTTPSessionManager`'s `baseURL` + `URLString` all resolve through it.
///
/// 1. Whitespace and newlines around the string are dropped; characters a URL cannot hold
///    inside it (spaces, non-ASCII) are percent-encoded.
/// 2. A string with a scheme is absolute and used as it is.
/// 3. Otherwise it is a relative reference, resolved as RFC 3986 (and AFNetworking's
///    `URLWithString:relativeToURL:`) resolve it against the base URL taken as a directory
///    (``directory(_:)``): `users` extends the base's path, `/users` starts at the base's
///    host root, `//host/p` keeps the base's scheme, `../x` goes up a level, and the empty
///    string is the base directory itself.
///
/// RFC 3986 is what every URL parser, browser and AFNetworking apply, so a path means the
/// same here as in a link; the directory step keeps a base without a trailing slash from
/// losing its last segment.
package enum URLResolution {
    /// `base` as a directory: a trailing `/` added to a non-empty path that lacks one, so
    /// that relative references extend the path instead of replacing its last segment.
    package static func directory(_ base: URL) -> URL {
        // The suffix test first: most base URLs already end in `/`, and it is cheaper than
        // Foundation's `path` accessor.
        if base.absoluteString.hasSuffix("/") || base.path.isEmpty { return base }
        return base.appendingPathComponent("")
    }

    /// The absolute URL `string` names under `base` (already a ``directory(_:)``), by the
    /// rule of this type; not checked for a host.
    ///
    /// - Throws: ``NetworkError/Kind/invalidURL`` when the string is not a URL reference, or
    ///   it is relative and there is no base.
    package static func resolve(_ string: String, againstDirectory base: URL?) throws(NetworkError) -> URL {
        let trimmed = URLResolution.trimmed(string)
        if trimmed.isEmpty {
            guard let base else { throw NetworkError(.invalidURL, "an empty URL string needs a base URL") }
            return base
        }
        guard let url = URL(string: String(trimmed), relativeTo: base) else {
            throw NetworkError(.invalidURL, base.map { "cannot resolve \"\(string)\" against \($0.absoluteString)" }
                               ?? "not a valid URL: \"\(string)\"")
        }
        if url.scheme == nil {
            throw NetworkError(.invalidURL, "\"\(string)\" is relative, and there is no base URL to resolve it against")
        }
        return url.absoluteURL
    }

    /// `string` without the whitespace and newlines around it. Foundation's
    /// `trimmingCharacters(in:)` bridges through `NSString` (about 28k instructions a call on
    /// Linux, measured in the AFStyle benchmark); the usual string has nothing to trim and
    /// is returned as it is.
    static func trimmed(_ string: String) -> Substring {
        let scalars = string.unicodeScalars
        guard let first = scalars.first, let last = scalars.last,
              first.properties.isWhitespace || last.properties.isWhitespace else { return string[...] }
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let end = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return string[string.endIndex...] }
        return string[start...end]
    }
}
