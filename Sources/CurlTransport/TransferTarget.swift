import Foundation
import HTTPCore

/// What the engine needs from a request's URL, worked out once when the request is checked.
///
/// Foundation's URL accessors parse on every call; the transfer used to ask for the scheme,
/// host and string form several times per request, which showed up in profiles.
package struct TransferTarget: Sendable {
    /// The URL as libcurl gets it.
    let urlString: String
    /// Scheme, host and port, lowercased: the unit of the per-host cap.
    let hostKey: HostKey
    /// Whether the scheme is `https` (a connection may then multiplex HTTP/2 streams).
    let isHTTPS: Bool

    /// The Unix domain socket to connect to instead of the URL's host, if any.
    let unixSocketPath: String?

    /// Works out the target of `url`, or says why libcurl must not get it.
    ///
    /// The host and port are read from the URL's string in one pass over its bytes (the
    /// authority between `://` and the first `/`, `?` or `#`, without any `user:password@`);
    /// Foundation's `host` and `port` accessors and the string interpolation they fed cost
    /// more than the rest of the check together.
    ///
    /// An `http+unix://` (or `https+unix://`) URL names a Unix socket as its percent-encoded
    /// host; libcurl gets it as `http://localhost` plus the rest of the URL, with the socket
    /// path beside it. `unixSocketPath` (the request's own) wins over the URL's.
    /// - Throws: ``NetworkError/Kind/unsupportedScheme`` for anything but `http`, `https` and
    ///   their `+unix` forms, ``NetworkError/Kind/invalidURL`` when there is no host,
    ///   ``NetworkError/Kind/invalidRequest`` for a socket path libcurl cannot use.
    init(url: URL, unixSocketPath: String? = nil) throws(NetworkError) {
        var scheme = url.scheme?.lowercased() ?? ""
        var urlString = url.absoluteString
        var socketPath = unixSocketPath
        if scheme == "http+unix" || scheme == "https+unix" {
            let schemeLength = scheme.utf8.count
            scheme.removeLast(5)
            let parts = urlString.withUTF8 { bytes -> (host: String, rest: String)? in
                guard let (host, port) = TransferTarget.authority(of: bytes, schemeLength: schemeLength), port == nil else {
                    return nil
                }
                var end = host.upperBound
                while end < bytes.count, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"),
                      bytes[end] != UInt8(ascii: "#") {
                    end += 1
                }
                return (String(decoding: UnsafeBufferPointer(rebasing: bytes[host]), as: UTF8.self),
                        String(decoding: UnsafeBufferPointer(rebasing: bytes[end...]), as: UTF8.self))
            }
            guard let parts, let path = parts.host.removingPercentEncoding, path.hasPrefix("/") else {
                throw NetworkError(.invalidURL,
                                   "\(scheme)+unix URLs name the socket as their percent-encoded host, as in \(scheme)+unix://%2Fvar%2Frun%2Fdocker.sock/path: \(urlString)")
            }
            if socketPath == nil { socketPath = path }
            urlString = scheme + "://localhost" + (parts.rest.isEmpty ? "/" : parts.rest)
        }
        guard scheme == "http" || scheme == "https" else {
            throw NetworkError(.unsupportedScheme, "only http and https are allowed, not \(scheme.isEmpty ? "a URL without a scheme" : "\(scheme)://")")
        }
        let hostKey = urlString.withUTF8 { TransferTarget.hostKeyText(of: $0, schemeLength: scheme.utf8.count) }
        guard let hostKey else {
            throw NetworkError(.invalidURL, "the URL has no host: \(urlString)")
        }
        if let socketPath {
            // sockaddr_un's sun_path holds 108 bytes with the terminating NUL.
            guard !socketPath.isEmpty, socketPath.utf8.count <= 107, !socketPath.utf8.contains(0) else {
                throw NetworkError(.invalidRequest,
                                   "the Unix socket path \(socketPath.debugDescription) must be 1 to 107 bytes without NUL")
            }
        }
        self.urlString = urlString
        // Requests to one host name over different sockets are different servers: the per-host
        // cap counts them apart.
        self.hostKey = HostKey(socketPath.map { "unix:\($0) \(hostKey)" } ?? hostKey)
        self.unixSocketPath = socketPath
        isHTTPS = scheme == "https"
    }

    /// Whether `url` names a host: an `//` authority whose host is not empty. Read on the
    /// string's bytes like ``init(url:)``, for the front ends' early checks (Foundation's
    /// `host` accessor costs about 1,000 instructions).
    package static func hasHost(_ url: URL) -> Bool {
        var text = url.absoluteString
        return text.withUTF8 { bytes in
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return false }
            return authority(of: bytes, schemeLength: colon) != nil
        }
    }

    /// `scheme://host:port`, lowercased, with port `-1` when the URL names none; `nil` when
    /// the URL has no `//` authority or its host is empty.
    static func hostKeyText(of bytes: UnsafeBufferPointer<UInt8>, schemeLength: Int) -> String? {
        guard let (host, port) = authority(of: bytes, schemeLength: schemeLength) else { return nil }
        let noPort: StaticString = "-1"
        let count = schemeLength + 3 + host.count + 1 + (port?.count ?? noPort.utf8CodeUnitCount)
        return String(unsafeUninitializedCapacity: count) { buffer in
            var written = 0
            func put(_ byte: UInt8) {
                // ASCII lower-casing; other bytes (percent-escapes, UTF-8) stay as they are.
                buffer[written] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                written += 1
            }
            for position in 0..<(schemeLength + 3) { put(bytes[position]) }
            for position in host { put(bytes[position]) }
            put(UInt8(ascii: ":"))
            if let port {
                for position in port { put(bytes[position]) }
            } else {
                noPort.withUTF8Buffer { for byte in $0 { put(byte) } }
            }
            return written
        }
    }

    /// The positions of the host and the port (`nil` when absent or empty) in the authority
    /// that follows `scheme://`; `nil` without such an authority or with an empty host.
    private static func authority(of bytes: UnsafeBufferPointer<UInt8>,
                                  schemeLength: Int) -> (host: Range<Int>, port: Range<Int>?)? {
        let slash = UInt8(ascii: "/"), colon = UInt8(ascii: ":")
        var index = schemeLength
        guard bytes.count >= index + 3, bytes[index] == colon, bytes[index + 1] == slash, bytes[index + 2] == slash else {
            return nil
        }
        index += 3
        var end = index
        while end < bytes.count, bytes[end] != slash, bytes[end] != UInt8(ascii: "?"), bytes[end] != UInt8(ascii: "#") {
            end += 1
        }
        // The host starts after the last "@" of the authority (user information may not contain an unescaped "@").
        var hostStart = index
        for position in index..<end where bytes[position] == UInt8(ascii: "@") { hostStart = position + 1 }
        var hostEnd = hostStart
        if hostStart < end, bytes[hostStart] == UInt8(ascii: "[") {
            // An IPv6 literal: up to and including "]".
            while hostEnd < end, bytes[hostEnd] != UInt8(ascii: "]") { hostEnd += 1 }
            guard hostEnd < end else { return nil }
            hostEnd += 1
        } else {
            while hostEnd < end, bytes[hostEnd] != colon { hostEnd += 1 }
        }
        guard hostEnd > hostStart else { return nil }
        let port = hostEnd < end && bytes[hostEnd] == colon && hostEnd + 1 < end ? (hostEnd + 1)..<end : nil
        return (hostStart..<hostEnd, port)
    }
}

extension TransferTarget {
    /// Scheme, host and port as one dictionary key whose hash is worked out once: the engine
    /// looks a transfer's host up three or four times per request, and hashing the string
    /// each time showed up in profiles.
    struct HostKey: Hashable, Sendable, CustomStringConvertible {
        /// `scheme://host:port`, lowercased (port -1 when the URL names none).
        let description: String
        private let hash: Int

        init(_ description: String) {
            self.description = description
            hash = description.hashValue
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
        }

        static func == (lhs: HostKey, rhs: HostKey) -> Bool {
            lhs.hash == rhs.hash && lhs.description == rhs.description
        }
    }
}
