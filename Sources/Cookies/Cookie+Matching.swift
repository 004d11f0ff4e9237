import Foundation

/// RFC 6265's comparisons of domains and paths, on UTF-8 bytes so Unicode canonical
/// equivalence cannot make two different names match.
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
        if host.utf8.elementsEqual(domain.utf8) { return true }
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
        if cookiePath.utf8.elementsEqual(requestPath.utf8) { return true }
        let cookieBytes = cookiePath.utf8
        let requestBytes = requestPath.utf8
        guard requestBytes.starts(with: cookieBytes) else { return false }
        if cookieBytes.last == UInt8(ascii: "/") { return true }
        let next = requestBytes.index(requestBytes.startIndex, offsetBy: cookieBytes.count)
        return next < requestBytes.endIndex && requestBytes[next] == UInt8(ascii: "/")
    }
}
