import Foundation
import HTTPCore

/// The freshness rules of RFC 9111 for a private cache, as pure functions: the request's
/// headers, the stored entry and the current time go in, a ``Decision`` comes out. Nothing
/// here reads a clock or a disk, so every rule is testable with a fixed `now` (the
/// counterpart of OkHttp's `CacheStrategy`).
package enum CacheStrategy {
    /// What to do with a request under ``CachePolicy/http``.
    package enum Decision: Sendable, Hashable {
        /// Serve the stored entry; `age` is its current age in seconds (for the `Age` field).
        case useStored(age: TimeInterval)
        /// Send the request with these conditional header fields added (`If-None-Match`,
        /// `If-Modified-Since`); a `304` means the stored entry may be served.
        case revalidate(conditionalHeaders: HTTPHeaders)
        /// Send the request as it is; the stored entry (if any) cannot help.
        case network
        /// The request says `only-if-cached` and nothing usable is stored: fail with
        /// ``NetworkError/Kind/cacheMiss`` instead of going to the network.
        case unsatisfiable
    }

    /// Statuses RFC 9110 §15.1 calls heuristically cacheable: with `Last-Modified` and no
    /// explicit expiry they get a heuristic freshness lifetime.
    static let heuristicallyCacheableStatuses: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The longest heuristic freshness lifetime: 24 hours, as common caches cap it (RFC 9111
    /// §4.2.2 leaves the bound to the cache), so a resource unchanged for years is not trusted
    /// for months without asking.
    package static let maximumHeuristicLifetime: TimeInterval = 24 * 60 * 60

    /// Header fields a `304` must not change in the stored entry (RFC 9111 §3.2: the body's
    /// framing and coding belong to the stored body) and hop-by-hop fields.
    static let fieldsKeptOnRevalidation: Set<String> = [
        "content-length", "content-encoding", "content-type", "content-range", "transfer-encoding",
        "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer", "upgrade",
    ]

    /// Decides how to answer a request from the cache.
    ///
    /// Rules, in order: only `GET` and `HEAD` use the cache; a request with its own
    /// conditional fields goes to the network; a `Vary` mismatch (or `Vary: *`) is a miss;
    /// an entry is used while `current age + min-fresh < lifetime + max-stale` unless the
    /// request or the response says `no-cache` (`must-revalidate` forbids `max-stale`); the
    /// lifetime is `max-age`, else `Expires − Date` (an invalid `Expires` means already
    /// expired), else 10% of `Date − Last-Modified` (at most 24 hours) for heuristically
    /// cacheable statuses, and a request `max-age` caps it. An entry that cannot be used is revalidated with its
    /// `ETag` (`If-None-Match`) and `Last-Modified` (`If-Modified-Since`) when it has them.
    package static func decide(method: HTTPMethod, requestHeaders: HTTPHeaders, stored: CacheEntry?, now: Date) -> Decision {
        guard method == .get || method == .head else { return .network }
        let request = CacheControl(headers: requestHeaders)
        guard let stored else { return request.onlyIfCached ? .unsatisfiable : .network }
        let callerConditionals = ["If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range"]
        if callerConditionals.contains(where: { requestHeaders.contains($0) }) { return .network }
        guard varyMatches(stored, requestHeaders: requestHeaders) else {
            return request.onlyIfCached ? .unsatisfiable : .network
        }
        let response = CacheControl(headers: stored.headers)
        if response.noStore { return request.onlyIfCached ? .unsatisfiable : .network }

        let age = currentAge(of: stored, now: now)
        var lifetime = freshnessLifetime(statusCode: stored.statusCode, headers: stored.headers, receivedAt: stored.storedAt)
        if let requestMaxAge = request.maxAge { lifetime = min(lifetime, requestMaxAge) }
        let minFresh = request.minFresh ?? 0
        let maxStale = response.mustRevalidate || response.noCache ? 0 : (request.maxStale ?? 0)
        if !response.noCache, !request.noCache, age + minFresh < lifetime + maxStale {
            return .useStored(age: age)
        }
        if request.onlyIfCached { return .unsatisfiable }

        var conditional = HTTPHeaders()
        if let etag = stored.etag { conditional["If-None-Match"] = etag }
        if let lastModified = stored.lastModified { conditional["If-Modified-Since"] = lastModified }
        return conditional.isEmpty ? .network : .revalidate(conditionalHeaders: conditional)
    }

    /// How long a response stays fresh after it was generated (RFC 9111 §4.2.1), in seconds:
    /// `max-age`; else `Expires − Date` (`0` when `Expires` is not a valid date); else, for a
    /// heuristically cacheable status or a `public` response with `Last-Modified`, 10% of
    /// `Date − Last-Modified` (the response's `Date`, or `receivedAt` without one), at most
    /// ``maximumHeuristicLifetime`` (24 hours); else `0`.
    package static func freshnessLifetime(statusCode: Int, headers: HTTPHeaders, receivedAt: Date) -> TimeInterval {
        let control = CacheControl(headers: headers)
        if let maxAge = control.maxAge { return maxAge }
        let date = headers["Date"].flatMap(HTTPDate.parse) ?? receivedAt
        if let expires = headers["Expires"] {
            guard let expiry = HTTPDate.parse(expires) else { return 0 }
            return max(0, expiry.timeIntervalSince(date))
        }
        if let lastModified = headers["Last-Modified"].flatMap(HTTPDate.parse),
           heuristicallyCacheableStatuses.contains(statusCode) || control.isPublic {
            return min(maximumHeuristicLifetime, max(0, date.timeIntervalSince(lastModified) * 0.1))
        }
        return 0
    }

    /// The entry's current age at `now` (RFC 9111 §4.2.3): its age when received (the
    /// larger of `Age` plus the response delay and `received − Date`) plus the time since.
    package static func currentAge(of entry: CacheEntry, now: Date) -> TimeInterval {
        initialAge(of: entry) + max(0, now.timeIntervalSince(entry.storedAt))
    }

    /// RFC 9111's `corrected_initial_age`.
    static func initialAge(of entry: CacheEntry) -> TimeInterval {
        let ageValue = CacheControl.deltaSeconds(entry.headers["Age"]?.trimmingCharacters(in: .whitespaces)) ?? 0
        let date = entry.headers["Date"].flatMap(HTTPDate.parse) ?? entry.storedAt
        let apparentAge = max(0, entry.storedAt.timeIntervalSince(date))
        let responseDelay = max(0, entry.storedAt.timeIntervalSince(entry.requestSentAt))
        return max(apparentAge, ageValue + responseDelay)
    }

    /// Whether RFC 9111 §3 lets a private cache store a response: `GET` or `HEAD`; a `2xx`
    /// other than `206` (this library's rule for every policy); no `no-store` in the request
    /// or the response; not `Vary: *`; and something that makes it reusable (`max-age`,
    /// `Expires`, `public`, an `ETag` or `Last-Modified`).
    package static func isStorable(method: HTTPMethod, requestHeaders: HTTPHeaders, statusCode: Int,
                                  responseHeaders: HTTPHeaders) -> Bool {
        guard method == .get || method == .head, (200..<300).contains(statusCode), statusCode != 206 else { return false }
        let request = CacheControl(headers: requestHeaders)
        let response = CacheControl(headers: responseHeaders)
        guard !request.noStore, !response.noStore else { return false }
        guard !CacheEntry.varyNames(responseHeaders).contains("*") else { return false }
        return response.maxAge != nil || responseHeaders.contains("Expires") || response.isPublic
            || responseHeaders.contains("ETag") || responseHeaders.contains("Last-Modified")
    }

    /// The stored header fields updated with those of a `304` (RFC 9111 §3.2): each field the
    /// `304` carries replaces the stored field of that name, except the body's framing and
    /// coding fields and hop-by-hop fields, which stay as stored.
    package static func headersAfterRevalidation(stored: HTTPHeaders, notModified: HTTPHeaders) -> HTTPHeaders {
        let replaced = Set(notModified.names.map { $0.lowercased() }).subtracting(fieldsKeptOnRevalidation)
        var result = stored
        for name in replaced { result.remove(name: name) }
        for field in notModified where replaced.contains(field.name.lowercased()) {
            result.add(name: field.name, value: field.value)
        }
        return result
    }

    /// Whether the request's values of the fields named by the stored `Vary` equal those
    /// recorded with the entry. `Vary: *` never matches.
    static func varyMatches(_ stored: CacheEntry, requestHeaders: HTTPHeaders) -> Bool {
        for name in CacheEntry.varyNames(stored.headers) {
            if name == "*" { return false }
            let value = requestHeaders.values(for: name).joined(separator: ", ")
            if value != (stored.varyValues[name] ?? "") { return false }
        }
        return true
    }
}
