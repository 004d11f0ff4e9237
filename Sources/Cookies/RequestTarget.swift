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

extension Cookie {
    /// A host as the jar compares it: lowercased, without brackets or a trailing dot.
    static func normalizedHost(_ host: String) -> String {
        var result = Substring(host.lowercased())
        if result.utf8.first == UInt8(ascii: "["), result.utf8.last == UInt8(ascii: "]") {
            result = result.dropFirst().dropLast()
        }
        if result.utf8.last == UInt8(ascii: ".") { result = result.dropLast() }
        return String(result)
    }

    /// RFC 6265 §5.1.3: `host` equals `domain`, or ends with `.domain` and is not an IP address.
    static func domain(_ domain: String, matches host: String, hostIsIPAddress: Bool) -> Bool {
        if host == domain { return true }
        guard !hostIsIPAddress else { return false }
        let hostBytes = host.utf8
        let domainBytes = domain.utf8
        guard hostBytes.count > domainBytes.count, !domainBytes.isEmpty else { return false }
        let dot = hostBytes.index(hostBytes.endIndex, offsetBy: -domainBytes.count - 1)
        return hostBytes[dot] == UInt8(ascii: ".") && hostBytes[hostBytes.index(after: dot)...].elementsEqual(domainBytes)
    }

    /// RFC 6265 §5.1.4: the cookie's path is the request path, or a prefix of it that ends
    /// with `/` or is followed by `/` in it.
    static func path(_ cookiePath: String, matches requestPath: String) -> Bool {
        if cookiePath == requestPath { return true }
        let cookieBytes = cookiePath.utf8
        let requestBytes = requestPath.utf8
        guard requestBytes.starts(with: cookieBytes) else { return false }
        if cookieBytes.last == UInt8(ascii: "/") { return true }
        let next = requestBytes.index(requestBytes.startIndex, offsetBy: cookieBytes.count)
        return next < requestBytes.endIndex && requestBytes[next] == UInt8(ascii: "/")
    }
}
