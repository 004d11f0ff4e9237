@testable import Cache
import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

/// The pure freshness rules, with a fixed `now`: no disk, no network, no clock.
@Suite("Freshness rules (RFC 9111)")
struct CacheStrategyTests {
    /// 2023-11-14 22:13:20 GMT.
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    let url = URL(string: "https://e.com/r")!

    func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    func entry(_ headers: HTTPHeaders, status: Int = 200, sentAt: Date? = nil, storedAt: Date? = nil,
               vary: [String: String] = [:]) -> CacheEntry {
        CacheEntry(key: CacheKey(rawValue: "k"), url: url, statusCode: status, headers: headers, body: Data("b".utf8),
                   requestSentAt: sentAt ?? t0, storedAt: storedAt ?? t0, varyValues: vary)
    }

    func decide(_ stored: CacheEntry?, after seconds: TimeInterval, request: HTTPHeaders = HTTPHeaders(),
                method: HTTPMethod = .get) -> CacheStrategy.Decision {
        CacheStrategy.decide(method: method, requestHeaders: request, stored: stored, now: t0.addingTimeInterval(seconds))
    }

    @Test("HTTP dates in all three formats; anything else is nil")
    func dates() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        #expect(HTTPDate.parse(httpDate(t0)) == t0)
        for invalid in ["0", "-1", "", "yesterday", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT",
                        "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 PST"] {
            #expect(HTTPDate.parse(invalid) == nil, "\(invalid)")
        }
    }

    @Test("Cache-Control parsing: quoted lists, first occurrence wins, invalid max-age is 0, Pragma")
    func cacheControl() {
        let control = CacheControl(#"no-cache="Set-Cookie, X-Foo", max-age=60, max-age=5, Public, max-stale"#)
        #expect(control.noCache)
        #expect(control.maxAge == 60)
        #expect(control.isPublic)
        #expect(control.maxStale == .infinity)
        #expect(CacheControl("max-age=abc").maxAge == 0)
        #expect(CacheControl("max-age=99999999999999999999").maxAge == 2_147_483_648)
        #expect(CacheControl(headers: ["Pragma": "no-cache"]).noCache)
        #expect(!CacheControl(headers: ["Pragma": "no-cache", "Cache-Control": "max-age=5"]).noCache)
    }

    @Test("max-age: fresh before, revalidated or refetched after")
    func maxAge() {
        let stored = entry(["Cache-Control": "max-age=60"])
        #expect(decide(stored, after: 59) == .useStored(age: 59))
        #expect(decide(stored, after: 60) == .network)
        let withETag = entry(["Cache-Control": "max-age=60", "ETag": "\"v1\""])
        #expect(decide(withETag, after: 61) == .revalidate(conditionalHeaders: ["If-None-Match": "\"v1\""]))
    }

    @Test("max-age wins over Expires")
    func maxAgeOverExpires() {
        let stored = entry(["Cache-Control": "max-age=10", "Date": httpDate(t0),
                            "Expires": httpDate(t0.addingTimeInterval(3600))])
        #expect(CacheStrategy.freshnessLifetime(statusCode: 200, headers: stored.headers, receivedAt: t0) == 10)
        #expect(decide(stored, after: 11) == .network)
    }

    @Test("Expires is measured from Date; an invalid Expires means already expired")
    func expires() {
        let stored = entry(["Date": httpDate(t0), "Expires": httpDate(t0.addingTimeInterval(100))])
        #expect(decide(stored, after: 99) == .useStored(age: 99))
        #expect(decide(stored, after: 100) == .network)
        let invalid = entry(["Expires": "0", "Last-Modified": httpDate(t0.addingTimeInterval(-100_000))])
        #expect(CacheStrategy.freshnessLifetime(statusCode: 200, headers: invalid.headers, receivedAt: t0) == 0)
        #expect(decide(invalid, after: 0) == .revalidate(conditionalHeaders: ["If-Modified-Since": httpDate(t0.addingTimeInterval(-100_000))]))
    }

    @Test("heuristic freshness is 10% of Date minus Last-Modified, only without explicit expiry")
    func heuristic() {
        let lastModified = httpDate(t0.addingTimeInterval(-1000))
        let stored = entry(["Date": httpDate(t0), "Last-Modified": lastModified])
        #expect(CacheStrategy.freshnessLifetime(statusCode: 200, headers: stored.headers, receivedAt: t0) == 100)
        #expect(decide(stored, after: 99) == .useStored(age: 99))
        #expect(decide(stored, after: 101) == .revalidate(conditionalHeaders: ["If-Modified-Since": lastModified]))
        // An explicit max-age=0 turns the heuristic off.
        let explicit = entry(["Cache-Control": "max-age=0", "Last-Modified": lastModified])
        #expect(decide(explicit, after: 1) == .revalidate(conditionalHeaders: ["If-Modified-Since": lastModified]))
        // Not a heuristically cacheable status, and not public: no heuristic.
        #expect(CacheStrategy.freshnessLifetime(statusCode: 202, headers: stored.headers, receivedAt: t0) == 0)
        let publicHeaders: HTTPHeaders = ["Date": httpDate(t0), "Last-Modified": lastModified, "Cache-Control": "public"]
        #expect(CacheStrategy.freshnessLifetime(statusCode: 202, headers: publicHeaders, receivedAt: t0) == 100)
    }

    @Test("no-store is never stored; responses without anything reusable are not stored")
    func storability() {
        func storable(_ headers: HTTPHeaders, status: Int = 200, request: HTTPHeaders = HTTPHeaders(),
                      method: HTTPMethod = .get) -> Bool {
            CacheStrategy.isStorable(method: method, requestHeaders: request, statusCode: status, responseHeaders: headers)
        }
        #expect(storable(["Cache-Control": "max-age=60"]))
        #expect(!storable(["Cache-Control": "no-store, max-age=60"]))
        #expect(!storable(["Cache-Control": "max-age=60"], request: ["Cache-Control": "no-store"]))
        #expect(storable(["Cache-Control": "no-cache", "ETag": "\"a\""]))
        #expect(!storable(["Cache-Control": "no-cache"]))
        #expect(!storable([:]))
        #expect(!storable(["Cache-Control": "max-age=60"], status: 206))
        #expect(!storable(["Cache-Control": "max-age=60"], status: 404))
        #expect(!storable(["Cache-Control": "max-age=60"], status: 500))
        #expect(!storable(["Cache-Control": "max-age=60"], method: .post))
        #expect(!storable(["Cache-Control": "max-age=60", "Vary": "*"]))
        #expect(storable(["Expires": "0"]))
    }

    @Test("no-cache responses are stored but always revalidated")
    func noCacheResponse() {
        let stored = entry(["Cache-Control": "no-cache, max-age=600", "ETag": "\"a\""])
        #expect(decide(stored, after: 1) == .revalidate(conditionalHeaders: ["If-None-Match": "\"a\""]))
        let noValidator = entry(["Cache-Control": "no-cache, max-age=600"])
        #expect(decide(noValidator, after: 1) == .network)
    }

    @Test("a stale entry with both validators sends both conditional fields")
    func bothValidators() {
        let lastModified = httpDate(t0.addingTimeInterval(-10))
        let stored = entry(["Cache-Control": "max-age=1", "ETag": "W/\"x\"", "Last-Modified": lastModified])
        #expect(decide(stored, after: 5) == .revalidate(conditionalHeaders: ["If-None-Match": "W/\"x\"",
                                                                             "If-Modified-Since": lastModified]))
    }

    @Test("request directives: no-cache, max-age, min-fresh, max-stale, only-if-cached")
    func requestDirectives() {
        let stored = entry(["Cache-Control": "max-age=100", "ETag": "\"e\""])
        let revalidate = CacheStrategy.Decision.revalidate(conditionalHeaders: ["If-None-Match": "\"e\""])
        #expect(decide(stored, after: 10, request: ["Cache-Control": "no-cache"]) == revalidate)
        #expect(decide(stored, after: 10, request: ["Pragma": "no-cache"]) == revalidate)
        #expect(decide(stored, after: 10, request: ["Cache-Control": "max-age=5"]) == revalidate)
        #expect(decide(stored, after: 10, request: ["Cache-Control": "max-age=50"]) == .useStored(age: 10))
        #expect(decide(stored, after: 90, request: ["Cache-Control": "min-fresh=20"]) == revalidate)
        #expect(decide(stored, after: 150, request: ["Cache-Control": "max-stale=60"]) == .useStored(age: 150))
        #expect(decide(stored, after: 150, request: ["Cache-Control": "max-stale"]) == .useStored(age: 150))
        #expect(decide(stored, after: 150, request: ["Cache-Control": "max-stale=10"]) == revalidate)
        #expect(decide(stored, after: 150, request: ["Cache-Control": "only-if-cached"]) == .unsatisfiable)
        #expect(decide(nil, after: 0, request: ["Cache-Control": "only-if-cached"]) == .unsatisfiable)
        #expect(decide(stored, after: 10, request: ["Cache-Control": "only-if-cached"]) == .useStored(age: 10))
    }

    @Test("must-revalidate forbids serving stale even with max-stale")
    func mustRevalidate() {
        let stored = entry(["Cache-Control": "max-age=10, must-revalidate", "ETag": "\"e\""])
        #expect(decide(stored, after: 20, request: ["Cache-Control": "max-stale=600"])
            == .revalidate(conditionalHeaders: ["If-None-Match": "\"e\""]))
    }

    @Test("age counts the Age field, the response delay and the time since")
    func age() {
        // Sent 2 s before it arrived, 30 s old on arrival by its Age field.
        let stored = entry(["Cache-Control": "max-age=60", "Age": "30", "Date": httpDate(t0)],
                           sentAt: t0.addingTimeInterval(-2))
        #expect(CacheStrategy.currentAge(of: stored, now: t0.addingTimeInterval(10)) == 42)
        #expect(decide(stored, after: 27) == .useStored(age: 59))
        #expect(decide(stored, after: 28) == .network)
        // A Date 50 s before arrival (a slow path or a skewed clock) makes it 50 s old.
        let late = entry(["Cache-Control": "max-age=60", "Date": httpDate(t0.addingTimeInterval(-50))])
        #expect(CacheStrategy.currentAge(of: late, now: t0) == 50)
    }

    @Test("Vary: matching values use the entry, others and Vary: * do not")
    func vary() {
        let stored = entry(["Cache-Control": "max-age=60", "Vary": "Accept-Language"], vary: ["accept-language": "de"])
        #expect(decide(stored, after: 1, request: ["Accept-Language": "de"]) == .useStored(age: 1))
        #expect(decide(stored, after: 1, request: ["Accept-Language": "fr"]) == .network)
        #expect(decide(stored, after: 1) == .network)
        #expect(decide(entry(["Cache-Control": "max-age=60", "Vary": "*"]), after: 1) == .network)
    }

    @Test("only GET and HEAD use the cache; a caller's own conditional goes to the network")
    func methodsAndConditionals() {
        let stored = entry(["Cache-Control": "max-age=60"])
        #expect(decide(stored, after: 1, method: .post) == .network)
        #expect(decide(stored, after: 1, method: .head) == .useStored(age: 1))
        #expect(decide(stored, after: 1, request: ["If-None-Match": "\"x\""]) == .network)
        #expect(decide(nil, after: 0) == .network)
    }

    @Test("a 304 updates the stored headers except the body's framing")
    func revalidationMerge() {
        let stored: HTTPHeaders = ["Content-Type": "application/json", "Content-Length": "10", "ETag": "\"1\"",
                                   "Cache-Control": "max-age=60", "X-Kept": "yes"]
        let notModified: HTTPHeaders = ["ETag": "\"1\"", "Cache-Control": "max-age=120", "Content-Length": "0",
                                        "Date": "Tue, 14 Nov 2023 22:13:20 GMT", "Connection": "close"]
        let merged = CacheStrategy.headersAfterRevalidation(stored: stored, notModified: notModified)
        #expect(merged["Cache-Control"] == "max-age=120")
        #expect(merged["Content-Length"] == "10")
        #expect(merged["Content-Type"] == "application/json")
        #expect(merged["X-Kept"] == "yes")
        #expect(merged["Date"] == "Tue, 14 Nov 2023 22:13:20 GMT")
        #expect(merged["Connection"] == nil)
        #expect(merged.values(for: "ETag") == ["\"1\""])
    }

    @Test("expiresAt follows the lifetime and the initial age")
    func expiry() {
        let stored = entry(["Cache-Control": "max-age=60", "Age": "10"])
        #expect(stored.expiresAt == t0.addingTimeInterval(50))
        #expect(entry(["ETag": "\"a\""]).expiresAt == nil)
    }
}
