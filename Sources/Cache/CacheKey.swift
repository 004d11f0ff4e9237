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
        var text = rawValue
        self = text.withUTF8 { CacheKey(rawValue: rawValue, bytes: $0) }
    }

    /// A key text and its UTF-8 bytes, hashed as they are (no copy into an array).
    private init(rawValue: String, bytes: UnsafeBufferPointer<UInt8>) {
        self.rawValue = rawValue
        var hasher = SHA256()
        hasher.update(UnsafeRawBufferPointer(bytes))
        self.fileName = CacheKey.lowerCaseHex(hasher.finalize())
    }

    /// `SHA256.hexString(_:)`'s text, written here: that one is generic over a sequence and,
    /// called from this module unspecialised, cost more than the hash.
    private static func lowerCaseHex(_ digest: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: digest.count * 2) { buffer in
            for (offset, byte) in digest.enumerated() {
                buffer[2 * offset] = hexDigit(byte >> 4)
                buffer[2 * offset + 1] = hexDigit(byte & 0x0F)
            }
            return digest.count * 2
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
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
        // The text is assembled as bytes (one string made at the end) in this order: the
        // version tag, method, canonical URL, body digest, credentials digest, socket.
        var text: [UInt8] = []
        text.reserveCapacity(256)
        text.append(contentsOf: CacheKey.version.utf8)
        text.append(UInt8(ascii: "\n"))
        text.append(contentsOf: request.method.rawValue.utf8)
        text.append(UInt8(ascii: "\n"))
        let userInfo: String?
        if CacheKey.appendOnePassCanonicalURL(request.url.absoluteString, ignoredParameters: ignoredParameters, to: &text) {
            // The one-pass form takes no URL with a user in it.
            userInfo = nil
        } else {
            // One parse of the URL serves both the canonical form and the credentials digest.
            guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: true),
                  let canonical = CacheKey.canonicalURL(components, ignoredParameters: ignoredParameters)
            else { return nil }
            text.append(contentsOf: canonical.utf8)
            userInfo = CacheKey.userInfo(components)
        }
        guard let body = CacheKey.bodyDigest(request.body, contentType: request.headers["Content-Type"],
                                             ignoredParameters: ignoredParameters)
        else { return nil }
        text.append(contentsOf: "\nbody:".utf8)
        text.append(contentsOf: body.utf8)
        text.append(contentsOf: "\ncredentials:".utf8)
        text.append(contentsOf: CacheKey.credentialsDigest(request, userInfo: userInfo, keyHeaders: keyHeaders).utf8)
        // `http://localhost/info` over two sockets is two servers' answers.
        if let socket = request.unixSocketPath {
            text.append(contentsOf: "\nsocket:".utf8)
            text.append(contentsOf: socket.utf8)
        }
        self = text.withUnsafeBufferPointer { CacheKey(rawValue: String(decoding: $0, as: UTF8.self), bytes: $0) }
    }

    /// The key text (``rawValue``); it holds a digest of the credentials, never the credentials.
    package var description: String { rawValue }
}
