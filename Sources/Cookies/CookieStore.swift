import Foundation

/// A cookie with what the store needs beyond it: when it was last sent, and a number that
/// orders cookies created in the same instant (a response's fields arrive at one time).
struct StoredCookie {
    var cookie: Cookie
    var lastAccess: Date
    var sequence: UInt64
}

/// The jar's cookies, keyed by their domain, so a request looks at the buckets of its host
/// and the host's parent domains only (a handful of dictionary lookups), never at every cookie.
/// Not thread-safe: ``CookieJar`` keeps it in its `Mutex`.
struct CookieStore {
    /// RFC 6265 §6.1 asks for at least 50 per domain; more lets one site crowd out the rest.
    static let maximumPerDomain = 50
    /// RFC 6265 §6.1 asks for at least 3000 in total.
    static let maximumTotal = 3000
    /// Going over the total evicts down to this many, so bulk inserts evict in batches and the
    /// cost stays linear instead of one full scan per cookie (Chromium does the same).
    static let totalAfterEviction = 2700

    private(set) var buckets: [String: [StoredCookie]] = [:]
    private(set) var count = 0
    private var nextSequence: UInt64 = 0
    /// For RFC 6265bis's Secure-shadowing rule: name → domain → number of Secure cookies.
    private var secureDomainsByName: [String: [String: Int]] = [:]

    /// Stores `cookie` as RFC 6265 §5.3 step 11 says: a cookie with the same name, domain and
    /// path is replaced and its creation date kept; an expired cookie only removes. With
    /// `fromInsecureOrigin`, a non-Secure cookie that would overwrite or shadow a Secure one is
    /// refused (RFC 6265bis §5.7 step 16). Returns `true` when the store changed.
    @discardableResult
    mutating func store(_ cookie: Cookie, now: Date, lastAccess: Date? = nil, fromInsecureOrigin: Bool = false) -> Bool {
        if fromInsecureOrigin, !cookie.isSecure, shadowsSecureCookie(cookie, now: now) { return false }
        var cookie = cookie
        var sequence: UInt64?
        if let bucket = buckets[cookie.domain],
           let index = bucket.firstIndex(where: { $0.cookie.name == cookie.name && $0.cookie.path == cookie.path }) {
            cookie.creationDate = bucket[index].cookie.creationDate
            sequence = bucket[index].sequence
            removeEntry(domain: cookie.domain, at: index)
        }
        if cookie.isExpired(at: now) { return sequence != nil }
        let entry = StoredCookie(cookie: cookie, lastAccess: lastAccess ?? now, sequence: sequence ?? takeSequence())
        buckets[cookie.domain, default: []].append(entry)
        count += 1
        if cookie.isSecure { secureDomainsByName[cookie.name, default: [:]][cookie.domain, default: 0] += 1 }
        enforceDomainLimit(cookie.domain, now: now)
        if count > CookieStore.maximumTotal { enforceTotalLimit(now: now) }
        return true
    }

    /// The cookies to send to `target`, in RFC 6265 §5.4's order (longer paths first, then
    /// earlier creation), marked as used at `now`; expired cookies met on the way are purged.
    mutating func cookies(for target: RequestTarget, now: Date) -> [Cookie] {
        var found: [StoredCookie] = []
        for domain in CookieStore.candidateDomains(for: target) {
            guard let position = buckets.index(forKey: domain) else { continue }
            if buckets.values[position].contains(where: { $0.cookie.isExpired(at: now) }) {
                removeExpired(domain: domain, now: now)
                guard buckets[domain] != nil else { continue }
            }
            guard let position = buckets.index(forKey: domain) else { continue }
            let isRequestHost = domain == target.host
            for index in buckets.values[position].indices {
                let cookie = buckets.values[position][index].cookie
                guard isRequestHost || !cookie.isHostOnly, !cookie.isSecure || target.isSecure,
                      Cookie.path(cookie.path, matches: target.path) else { continue }
                buckets.values[position][index].lastAccess = now
                found.append(buckets.values[position][index])
            }
        }
        found.sort(by: CookieStore.sendsBefore)
        return found.map(\.cookie)
    }

    /// Every cookie that has not expired, ordered by domain, then as they would be sent.
    mutating func allCookies(now: Date) -> [Cookie] {
        removeExpired(now: now)
        return buckets.keys.sorted().flatMap { domain in
            (buckets[domain] ?? []).sorted(by: CookieStore.sendsBefore).map(\.cookie)
        }
    }

    /// The cookies worth saving at `now`, oldest first.
    func snapshot(now: Date, includingSessionCookies: Bool) -> [StoredCookie] {
        buckets.values.flatMap { bucket in
            bucket.filter { !$0.cookie.isExpired(at: now) && (includingSessionCookies || !$0.cookie.isSessionCookie) }
        }.sorted { $0.sequence < $1.sequence }
    }

    /// Removes the cookie with this name, domain and path; `true` when there was one.
    @discardableResult
    mutating func remove(name: String, domain: String, path: String) -> Bool {
        guard let index = buckets[domain]?.firstIndex(where: { $0.cookie.name == name && $0.cookie.path == path }) else {
            return false
        }
        removeEntry(domain: domain, at: index)
        return true
    }

    mutating func removeAll() {
        buckets = [:]
        secureDomainsByName = [:]
        count = 0
    }

    /// Drops expired cookies everywhere; `true` when any were.
    @discardableResult
    mutating func removeExpired(now: Date) -> Bool {
        let before = count
        for domain in Array(buckets.keys) { removeExpired(domain: domain, now: now) }
        return count != before
    }

    // MARK: - Internals

    /// RFC 6265 §5.4: longer paths first; among equal lengths, earlier creation first.
    private static func sendsBefore(_ a: StoredCookie, _ b: StoredCookie) -> Bool {
        let lengthA = a.cookie.path.utf8.count
        let lengthB = b.cookie.path.utf8.count
        if lengthA != lengthB { return lengthA > lengthB }
        if a.cookie.creationDate != b.cookie.creationDate { return a.cookie.creationDate < b.cookie.creationDate }
        return a.sequence < b.sequence
    }

    /// Least recently used first; the oldest of those used together.
    private static func evictsBefore(_ a: StoredCookie, _ b: StoredCookie) -> Bool {
        a.lastAccess != b.lastAccess ? a.lastAccess < b.lastAccess : a.sequence < b.sequence
    }

    /// The host itself and each parent domain: the only keys whose cookies can domain-match it.
    private static func candidateDomains(for target: RequestTarget) -> [String] {
        guard !target.isIPAddress else { return [target.host] }
        var domains = [target.host]
        var rest = Substring(target.host)
        while let dot = rest.utf8.firstIndex(of: UInt8(ascii: ".")) {
            rest = rest[rest.utf8.index(after: dot)...]
            if !rest.isEmpty { domains.append(String(rest)) }
        }
        return domains
    }

    private mutating func takeSequence() -> UInt64 {
        defer { nextSequence += 1 }
        return nextSequence
    }

    /// RFC 6265bis: an unexpired Secure cookie of the same name whose domain domain-matches
    /// the new one's (or the other way round) and whose path the new path path-matches.
    private func shadowsSecureCookie(_ cookie: Cookie, now: Date) -> Bool {
        guard let domains = secureDomainsByName[cookie.name] else { return false }
        for domain in domains.keys {
            let related = Cookie.domain(domain, matches: cookie.domain, hostIsIPAddress: RequestTarget.isIPAddress(cookie.domain))
                || Cookie.domain(cookie.domain, matches: domain, hostIsIPAddress: RequestTarget.isIPAddress(domain))
            guard related else { continue }
            let shadowed = (buckets[domain] ?? []).contains { entry in
                entry.cookie.isSecure && entry.cookie.name == cookie.name && !entry.cookie.isExpired(at: now)
                    && Cookie.path(entry.cookie.path, matches: cookie.path)
            }
            if shadowed { return true }
        }
        return false
    }

    private mutating func removeEntry(domain: String, at index: Int) {
        guard let removed = buckets[domain]?.remove(at: index) else { return }
        if buckets[domain]?.isEmpty == true { buckets[domain] = nil }
        count -= 1
        forgetSecure(removed.cookie)
    }

    private mutating func forgetSecure(_ cookie: Cookie) {
        guard cookie.isSecure, let remaining = secureDomainsByName[cookie.name]?[cookie.domain] else { return }
        if remaining <= 1 {
            secureDomainsByName[cookie.name]?[cookie.domain] = nil
            if secureDomainsByName[cookie.name]?.isEmpty == true { secureDomainsByName[cookie.name] = nil }
        } else {
            secureDomainsByName[cookie.name]?[cookie.domain] = remaining - 1
        }
    }

    private mutating func removeExpired(domain: String, now: Date) {
        guard let bucket = buckets[domain] else { return }
        let expired = bucket.filter { $0.cookie.isExpired(at: now) }
        guard !expired.isEmpty else { return }
        let kept = bucket.filter { !$0.cookie.isExpired(at: now) }
        buckets[domain] = kept.isEmpty ? nil : kept
        count -= expired.count
        for entry in expired { forgetSecure(entry.cookie) }
    }

    /// Over the per-domain limit: expired cookies go first, then the least recently used.
    private mutating func enforceDomainLimit(_ domain: String, now: Date) {
        guard let bucket = buckets[domain], bucket.count > CookieStore.maximumPerDomain else { return }
        removeExpired(domain: domain, now: now)
        while let bucket = buckets[domain], bucket.count > CookieStore.maximumPerDomain {
            guard let victim = bucket.indices.min(by: { CookieStore.evictsBefore(bucket[$0], bucket[$1]) }) else { return }
            removeEntry(domain: domain, at: victim)
        }
    }

    /// Over the total limit: expired cookies go first, then the least recently used, down to
    /// ``totalAfterEviction``.
    private mutating func enforceTotalLimit(now: Date) {
        removeExpired(now: now)
        guard count > CookieStore.maximumTotal else { return }
        let excess = count - CookieStore.totalAfterEviction
        let victims = Set(buckets.values.joined().sorted(by: CookieStore.evictsBefore).prefix(excess).map(\.sequence))
        for domain in Array(buckets.keys) {
            guard let bucket = buckets[domain], bucket.contains(where: { victims.contains($0.sequence) }) else { continue }
            let (gone, kept) = (bucket.filter { victims.contains($0.sequence) }, bucket.filter { !victims.contains($0.sequence) })
            buckets[domain] = kept.isEmpty ? nil : kept
            count -= gone.count
            for entry in gone { forgetSecure(entry.cookie) }
        }
    }
}
