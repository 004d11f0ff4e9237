import Foundation

/// A host name and port answered with fixed addresses instead of DNS, for every request of a
/// client (libcurl's `CURLOPT_RESOLVE`): for tests against a local server under its real
/// name, and for switching between deployments (blue/green) without touching DNS.
///
/// The request keeps its URL: the `Host` header, TLS's server name and certificate check,
/// cookies and the cache key still use the name; only the address connected to changes.
/// Through a proxy the proxy resolves the origin's name (an HTTP proxy, and SOCKS5 as
/// ``Proxy/socks5(host:port:credentials:)`` speaks it), so an override applies to the
/// proxy's own name only.
/// Make them with ``HTTPClient/Configuration/resolve(host:port:to:)``.
public struct DNSOverride: Sendable, Hashable {
    /// The host name as it appears in URLs (compared without case).
    public var host: String
    /// The port the override applies to (443 for `https://host/`, 80 for `http://host/`).
    public var port: Int
    /// Numeric IPv4 or IPv6 addresses, tried in order. No names: libcurl takes addresses only.
    public var addresses: [String]

    /// Makes an override; see ``HTTPClient/Configuration/resolve(host:port:to:)``.
    public init(host: String, port: Int, addresses: [String]) {
        self.host = host
        self.port = port
        self.addresses = addresses
    }

    /// The line libcurl's `CURLOPT_RESOLVE` takes: `host:port:address[,address…]`, IPv6
    /// addresses in brackets.
    /// - Throws: ``NetworkError/Kind/invalidRequest`` for an empty host or one with `:`, `,`,
    ///   whitespace or control characters, a port outside 1–65535, no address, or an
    ///   address that is not a numeric IPv4 or IPv6 address.
    package func curlResolveEntry() throws(NetworkError) -> String {
        let badHost = host.isEmpty || host.unicodeScalars.contains {
            $0 == ":" || $0 == "," || $0 == "[" || $0 == "]" || $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F
        }
        guard !badHost else {
            throw NetworkError(.invalidRequest, "the DNS override's host \(host.debugDescription) is not a host name")
        }
        guard (1...65535).contains(port) else {
            throw NetworkError(.invalidRequest, "the DNS override for \(host) has port \(port), not one between 1 and 65535")
        }
        guard !addresses.isEmpty else {
            throw NetworkError(.invalidRequest, "the DNS override for \(host):\(port) has no address")
        }
        var written: [String] = []
        for address in addresses {
            let bare = address.hasPrefix("[") && address.hasSuffix("]") ? String(address.dropFirst().dropLast()) : address
            if IPAddressText.isIPv4(bare) {
                written.append(bare)
            } else if IPAddressText.isIPv6(bare) {
                written.append("[\(bare)]")
            } else {
                throw NetworkError(.invalidRequest,
                                   "the DNS override for \(host):\(port) names \(address.debugDescription), which is not a numeric IPv4 or IPv6 address")
            }
        }
        return "\(host):\(port):\(written.joined(separator: ","))"
    }
}

extension HTTPClient.Configuration {
    /// Answers `host` on `port` with `addresses` instead of DNS, for every request of the
    /// client (see ``DNSOverride``). A later call for the same host and port replaces the
    /// earlier one. An invalid override makes every request of the client fail with
    /// ``NetworkError/Kind/invalidRequest`` naming it.
    ///
    /// ```swift
    /// var configuration = HTTPClient.Configuration()
    /// configuration.resolve(host: "api.example.com", port: 443, to: "10.0.0.7")
    /// ```
    public mutating func resolve(host: String, port: Int, to addresses: String...) {
        dnsOverrides.removeAll { $0.host.lowercased() == host.lowercased() && $0.port == port }
        dnsOverrides.append(DNSOverride(host: host, port: port, addresses: addresses))
    }
}

/// Checks of numeric address text, without Foundation's resolver.
enum IPAddressText {
    /// Four decimal numbers 0–255 separated by dots, without leading zeros (which some
    /// parsers read as octal).
    static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Int(part), value <= 255 else { return false }
            return part.count == 1 || part.first != "0"
        }
    }

    /// Hexadecimal groups of one to four digits separated by colons, at most one `::`,
    /// eight groups in all (an IPv4 tail counts as two); no zone index.
    static func isIPv6(_ text: String) -> Bool {
        guard text.contains(":"), text.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == ":" || $0 == ".") }) else { return false }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return false }
        var groups = 0
        for (index, half) in halves.enumerated() where !half.isEmpty {
            let parts = half.split(separator: ":", omittingEmptySubsequences: false)
            for (position, part) in parts.enumerated() {
                let isLast = index == halves.count - 1 && position == parts.count - 1
                if isLast, part.contains(".") {
                    guard isIPv4(String(part)) else { return false }
                    groups += 2
                } else {
                    guard (1...4).contains(part.count), part.allSatisfy(\.isHexDigit) else { return false }
                    groups += 1
                }
            }
        }
        return halves.count == 2 ? groups < 8 : groups == 8
    }
}
