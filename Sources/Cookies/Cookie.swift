import Foundation

/// One HTTP cookie as RFC 6265 stores it: a name and value scoped to a domain and a path.
///
/// Cookies are credentials, so ``description`` never shows the value, only its length.
/// A cookie made with the initializer is host-only (sent to `domain` exactly) and a session
/// cookie (no expiry) unless told otherwise.
public struct Cookie: Sendable, Hashable {
    /// The `SameSite` attribute as the server sent it. The jar records it but does not act on
    /// it: SameSite restricts cross-site requests in a browser, and a client has no "site".
    public enum SameSite: String, Sendable, Hashable {
        /// `SameSite=Strict`.
        case strict
        /// `SameSite=Lax`.
        case lax
        /// `SameSite=None`.
        case none
    }

    /// The cookie's name; never empty for a cookie the jar stores.
    public var name: String
    /// The cookie's value, exactly as the server sent it (quotes included).
    public var value: String
    /// The domain it belongs to: lowercased, without a leading or trailing dot.
    public var domain: String
    /// The path it is scoped to; starts with `/`. Defaults to `/`.
    public var path: String
    /// When it expires; `nil` (the default) for a session cookie, which lives as long as the jar.
    public var expires: Date?
    /// Sent only over `https` (and `wss`) when `true`; defaults to `false`.
    public var isSecure: Bool
    /// The `HttpOnly` attribute; recorded only, since every use of this jar is HTTP. Defaults to `false`.
    public var isHTTPOnly: Bool
    /// The `SameSite` attribute; `nil` (the default) when absent or not one of the three values.
    public var sameSite: SameSite?
    /// Sent only to a host equal to ``domain`` when `true` (the default); also to its
    /// subdomains when `false`.
    public var isHostOnly: Bool
    /// When the cookie was first stored. A replacement keeps the replaced cookie's date, as
    /// RFC 6265 §5.3 says; the initializer uses the current time, and the jar stamps a cookie
    /// with its own clock when it stores it.
    public var creationDate: Date

    /// A cookie with the given fields; by default host-only, for path `/`, a session cookie,
    /// neither Secure nor HttpOnly, without SameSite. `domain` is lowercased and a leading or
    /// trailing dot is dropped; ``creationDate`` is the current time.
    public init(name: String, value: String, domain: String, path: String = "/", expires: Date? = nil,
                isSecure: Bool = false, isHTTPOnly: Bool = false, sameSite: SameSite? = nil,
                isHostOnly: Bool = true) {
        self.name = name
        self.value = value
        self.domain = Cookie.normalizedDomain(domain)
        self.path = path
        self.expires = expires
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.sameSite = sameSite
        self.isHostOnly = isHostOnly
        self.creationDate = Date()
    }

    /// `true` when the cookie has no expiry date, so it is not written to a file unless the
    /// jar is told to persist session cookies.
    public var isSessionCookie: Bool { expires == nil }

    /// Lowercased, without a leading dot or a trailing dot, the form hosts are compared in.
    static func normalizedDomain(_ domain: String) -> String {
        var result = Substring(domain.lowercased())
        if result.utf8.first == UInt8(ascii: ".") { result = result.dropFirst() }
        if result.utf8.last == UInt8(ascii: ".") { result = result.dropLast() }
        return String(result)
    }

    /// `true` when a `name=value` pair can be sent as it is: a non-empty name without `=`,
    /// and neither part with `;` or a control character (HTAB allowed in the value), within
    /// 4096 bytes together. Anything else could split or inject a header field.
    static func isAcceptable(name: String, value: String) -> Bool {
        let isControl: (UInt8) -> Bool = { $0 < 0x20 || $0 == 0x7F }
        return !name.isEmpty && name.utf8.count + value.utf8.count <= SetCookie.maximumNameValueBytes
            && !name.utf8.contains { isControl($0) || $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: ";") }
            && !value.utf8.contains { ($0 != 0x09 && isControl($0)) || $0 == UInt8(ascii: ";") }
    }

    /// `true` when `date` is at or after the expiry date.
    func isExpired(at date: Date) -> Bool {
        guard let expires else { return false }
        return expires <= date
    }
}

extension Cookie: CustomStringConvertible {
    /// Name, domain, path, flags, expiry and the value's length in bytes; never the value.
    public var description: String {
        var parts = ["\(name)", "domain: \(domain)", "path: \(path)"]
        if isHostOnly { parts.append("host-only") }
        if isSecure { parts.append("secure") }
        if isHTTPOnly { parts.append("httpOnly") }
        if let sameSite { parts.append("sameSite: \(sameSite.rawValue)") }
        if let expires {
            parts.append("expires: \(expires.formatted(.iso8601))")
        } else {
            parts.append("session")
        }
        parts.append("value: \(value.utf8.count) bytes")
        return "Cookie(\(parts.joined(separator: ", ")))"
    }
}
