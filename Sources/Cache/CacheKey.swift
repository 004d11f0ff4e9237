import Digest
import Foundation
import HTTPCore

/// What identifies a stored response: a version tag, the method, the canonical URL, a digest
/// of the body and a digest of the credentials and key headers.
///
/// Two requests that differ only in the order of their query parameters, the case of the
/// scheme or host, a default port or a fragment get the same key. Different credentials give
/// different keys, so two users never share an entry: `Cookie`, a user in the URL, and every
/// header whose name contains `auth`, `token`, `key` or `session` (``HTTPHeaders/isCredential(_:)``:
/// `Authorization`, `X-Auth-Token`, `token`, `X-API-Key`, …), a proxy's
/// ``ProxyCredentials`` and the origin's ``HTTPRequest/authentication`` (scheme, user and
/// password). A request over a Unix socket (``HTTPRequest/unixSocketPath``) has
/// the socket's path in its key. Only a SHA-256 of them is kept,
/// never the credentials themselves. Other request headers select among stored variants
/// through the response's `Vary` (every policy honours it), or join the key when named in
/// `keyHeaders`.
///
/// The entry's file name is the SHA-256 of ``rawValue``; the full key is stored with the
/// entry and compared on every read, so a (theoretical) hash collision is a miss, never a
/// wrong response.
package struct CacheKey: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    /// The tag the key text starts with. A change of the key format changes the tag, so
    /// entries written by another version become unreachable misses (and age out) instead
    /// of being misread.
    package static let version = "chain-cache-key/1"

    /// The full key text: the version tag, method, canonical URL, body digest and
    /// credentials digest, one per line, then the Unix socket's path when there is one.
    package let rawValue: String

    /// The lower-case SHA-256 hex of ``rawValue`` (64 characters): the entry's file name.
    package let fileName: String

    /// Wraps a key text as produced by ``rawValue`` (no checking).
    package init(rawValue: String) {
        self.rawValue = rawValue
        // Hashed straight from the string's storage: no copy of the text into an array.
        var text = rawValue
        var hasher = SHA256()
        text.withUTF8 { hasher.update(UnsafeRawBufferPointer($0)) }
        self.fileName = SHA256.hexString(hasher.finalize())
    }

    /// The key of a request.
    ///
    /// - Parameters:
    ///   - request: the request as it will be sent.
    ///   - ignoredParameters: parameter names left out of the key, default none — values that
    ///     change on every call such as a timestamp or a signature. They are removed from the
    ///     URL query and, for `application/x-www-form-urlencoded` and JSON bodies, from the
    ///     body (top-level keys only). A name matches a parameter of that name and its nested
    ///     forms (`ids` matches `ids[]` and `ids[0]`).
    ///   - keyHeaders: more request header names (any case) whose values are hashed into the
    ///     key like credentials, default none — for APIs whose answer depends on a header the
    ///     server does not name in `Vary` (`Accept-Language`, a tenant header).
    /// - Returns: `nil` when the request cannot be cached: a multipart body, a file body that
    ///   cannot be read, a download to a file, or a URL without scheme or host.
    package init?(request: HTTPRequest, ignoredParameters: Set<String> = [], keyHeaders: Set<String> = []) {
        guard request.download == nil else { return nil }
        let url: String
        let userInfo: String?
        if let onePass = CacheKey.onePassCanonicalURL(request.url.absoluteString, ignoredParameters: ignoredParameters) {
            // The one-pass form takes no URL with a user in it.
            url = onePass
            userInfo = nil
        } else {
            // One parse of the URL serves both the canonical form and the credentials digest.
            guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: true),
                  let canonical = CacheKey.canonicalURL(components, ignoredParameters: ignoredParameters)
            else { return nil }
            url = canonical
            userInfo = CacheKey.userInfo(components)
        }
        guard let body = CacheKey.bodyDigest(request.body, contentType: request.headers["Content-Type"],
                                             ignoredParameters: ignoredParameters)
        else { return nil }
        let credentials = CacheKey.credentialsDigest(request, userInfo: userInfo, keyHeaders: keyHeaders)
        var text = CacheKey.version
        text.reserveCapacity(CacheKey.version.utf8.count + url.utf8.count + body.utf8.count + credentials.utf8.count + 40)
        text += "\n"
        text += request.method.rawValue
        text += "\n"
        text += url
        text += "\nbody:"
        text += body
        text += "\ncredentials:"
        text += credentials
        // `http://localhost/info` over two sockets is two servers' answers.
        if let socket = request.unixSocketPath {
            text += "\nsocket:"
            text += socket
        }
        self.init(rawValue: text)
    }

    /// The key text (``rawValue``); it holds a digest of the credentials, never the credentials.
    package var description: String { rawValue }
}
