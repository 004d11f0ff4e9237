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

    /// Works out the target of `url`, or says why libcurl must not get it.
    ///
    /// The host and port are read from the URL's string in one pass over its bytes (the
    /// authority between `://` and the first `/`, `?` or `#`, without any `user:password@`);
    /// Foundation's `host` and `port` accessors and the string interpolation they fed cost
    /// more than the rest of the check together.
    /// - Throws: ``NetworkError/Kind/unsupportedScheme`` for anything but `http` and `https`,
    ///   ``NetworkError/Kind/invalidURL`` when there is no host.
    init(url: URL) throws(NetworkError) {
        let scheme = url.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else {
            throw NetworkError(.unsupportedScheme, "only http and https are allowed, not \(scheme.isEmpty ? "a URL without a scheme" : "\(scheme)://")")
        }
        var urlString = url.absoluteString
        let hostKey = urlString.withUTF8 { TransferTarget.hostKeyText(of: $0, schemeLength: scheme.utf8.count) }
        guard let hostKey else {
            throw NetworkError(.invalidURL, "the URL has no host: \(urlString)")
        }
        self.urlString = urlString
        self.hostKey = HostKey(hostKey)
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
