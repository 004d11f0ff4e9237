import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The parts of a request URL that RFC 6265 looks at: the canonical host, the raw path and
/// whether the scheme is secure. Only `http`, `https`, `ws` and `wss` URLs with a host have one.
struct RequestTarget {
    /// Lowercased, trailing dot stripped.
    var host: String
    /// The percent-encoded path, `/` when empty.
    var path: String
    /// `https` or `wss`.
    var isSecure: Bool
    /// An IPv4 or IPv6 literal, which only ever matches itself.
    var isIPAddress: Bool

    init?(url: URL) {
        guard let scheme = url.scheme?.lowercased() else { return nil }
        switch scheme {
        case "http", "ws": isSecure = false
        case "https", "wss": isSecure = true
        default: return nil
        }
        guard let rawHost = url.host, !rawHost.isEmpty else { return nil }
        host = Cookie.normalizedHost(rawHost)
        guard !host.isEmpty else { return nil }
        let rawPath = url.path(percentEncoded: true)
        path = rawPath.isEmpty ? "/" : rawPath
        isIPAddress = RequestTarget.isIPAddress(host)
    }

    /// RFC 6265 §5.1.4's default-path: the directory of the request path.
    var defaultPath: String {
        guard path.utf8.first == UInt8(ascii: "/"),
              let lastSlash = path.utf8.lastIndex(of: UInt8(ascii: "/")),
              lastSlash != path.startIndex else { return "/" }
        return String(path[path.startIndex..<lastSlash])
    }

    static func isIPAddress(_ host: String) -> Bool {
        if host.utf8.contains(UInt8(ascii: ":")) { return true }
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) == 1
    }
}
