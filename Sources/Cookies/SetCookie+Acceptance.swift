import Foundation

extension SetCookie {
    /// The longest lifetime a server may give a cookie: 400 days (RFC 6265bis §5.6.1–2).
    static let maximumLifetime: TimeInterval = 400 * 86_400

    /// The cookie RFC 6265 §5.3 (with RFC 6265bis's stricter steps) makes of this field
    /// received from `target` at `now`, or `nil` when it must be ignored. The checks against
    /// cookies already stored (the Secure-shadowing rule) are the store's.
    func cookie(from target: RequestTarget, now: Date, suffixes: PublicSuffixList) -> Cookie? {
        let isHostOnly: Bool
        let domain: String
        if let requested = self.domain {
            if target.isIPAddress {
                // An address literal only ever accepts itself, and stays host-only.
                guard requested == target.host else { return nil }
                isHostOnly = true
                domain = target.host
            } else {
                guard Cookie.domain(requested, matches: target.host, hostIsIPAddress: false) else { return nil }
                if suffixes.isPublicSuffix(requested) {
                    // §5.3 step 5: a suffix is refused unless it is the host itself.
                    guard requested == target.host else { return nil }
                    isHostOnly = true
                } else {
                    isHostOnly = false
                }
                domain = requested
            }
        } else {
            isHostOnly = true
            domain = target.host
        }

        // RFC 6265bis: Secure only from a secure origin.
        if isSecure, !target.isSecure { return nil }
        if !satisfiesPrefixRules(isHostOnly: isHostOnly, target: target) { return nil }

        var cookie = Cookie(name: name, value: value, domain: domain, path: resolvedPath(for: target),
                            expires: expiry(now: now), isSecure: isSecure, isHTTPOnly: isHTTPOnly,
                            sameSite: sameSite, isHostOnly: isHostOnly)
        cookie.creationDate = now
        return cookie
    }

    /// The `Path` attribute when it is valid, else the default path.
    func resolvedPath(for target: RequestTarget) -> String {
        if case .some(.some(let path)) = path { return path }
        return target.defaultPath
    }

    /// `Max-Age` wins over `Expires`; either is capped at ``maximumLifetime`` from `now`.
    /// A `Max-Age` of zero or less gives the earliest date, so the cookie is removed.
    func expiry(now: Date) -> Date? {
        let latest = now.addingTimeInterval(SetCookie.maximumLifetime)
        if let maxAge {
            guard maxAge > 0 else { return .distantPast }
            return TimeInterval(maxAge) >= SetCookie.maximumLifetime ? latest : now.addingTimeInterval(TimeInterval(maxAge))
        }
        if let expires { return min(expires, latest) }
        return nil
    }

    /// RFC 6265bis §4.1.3: `__Secure-` needs Secure (so a secure origin); `__Host-` also needs
    /// no `Domain` and a `Path` of `/`. The prefixes are matched case-insensitively, as the
    /// later drafts ask, so `__HOST-` cannot slip past.
    private func satisfiesPrefixRules(isHostOnly: Bool, target: RequestTarget) -> Bool {
        let lowered = SetCookie.asciiLowercased(Substring(name))
        if lowered.hasPrefix("__secure-") {
            return isSecure && target.isSecure
        }
        if lowered.hasPrefix("__host-") {
            return isSecure && target.isSecure && domain == nil && isHostOnly && resolvedPath(for: target) == "/"
                && path != nil
        }
        return true
    }
}
