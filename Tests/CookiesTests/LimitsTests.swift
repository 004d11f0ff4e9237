@testable import Cookies
import Foundation
import Testing

@Suite struct LimitsTests {
    @Test func hugeValueIsRefused() throws {
        let jar = CookieJar(clock: ManualClock().reading)
        try jar.receive("big=\(String(repeating: "x", count: 5000))", from: "https://example.com/")
        #expect(jar.allCookies.isEmpty)
        #expect(!jar.setCookie(Cookie(name: "big", value: String(repeating: "x", count: 5000), domain: "example.com")))
        #expect(jar.allCookies.isEmpty)
    }

    @Test func fiveThousandCookiesForOneDomainKeepFifty() throws {
        let jar = CookieJar(clock: ManualClock().reading)
        let fields = (0..<5000).map { "c\($0)=\($0)" }
        jar.setCookies(fromSetCookie: fields, for: try url("https://example.com/"))
        let kept = jar.allCookies
        #expect(kept.count == CookieStore.maximumPerDomain)
        // All arrived at once, so the oldest were the least recently used.
        #expect(Set(kept.map(\.name)) == Set((4950..<5000).map { "c\($0)" }))
    }

    @Test func perDomainEvictionPrefersExpiredThenLeastRecentlyUsed() throws {
        let clock = ManualClock()
        let jar = CookieJar(clock: clock.reading)
        try jar.receive("used=1; Path=/used", from: "https://example.com/")
        try jar.receive("short=1; Max-Age=5; Path=/short", from: "https://example.com/")
        for index in 0..<48 { try jar.receive("c\(index)=1; Path=/c", from: "https://example.com/") }
        clock.advance(by: 10)
        // The 51st cookie pushes out the expired one rather than a live one.
        try jar.receive("new1=1; Path=/new", from: "https://example.com/")
        var names = Set(jar.allCookies.map(\.name))
        #expect(names.count == 50)
        #expect(!names.contains("short"))
        #expect(names.contains("used") && names.contains("c0"))
        // `used` is the oldest, but sending it makes it the most recently used.
        #expect(try jar.header("https://example.com/used") == "used=1")
        try jar.receive("new2=1; Path=/new", from: "https://example.com/")
        names = Set(jar.allCookies.map(\.name))
        #expect(names.count == 50)
        #expect(names.contains("used"))
        #expect(names.contains("new1") && names.contains("new2"))
        #expect(!names.contains("c0"))
        #expect(names.contains("c1"))
    }

    @Test func totalIsCapped() throws {
        let jar = CookieJar(clock: ManualClock().reading)
        for site in 0..<200 {
            let fields = (0..<20).map { "c\($0)=\(site)" }
            jar.setCookies(fromSetCookie: fields, for: try url("https://site\(site).example/"))
        }
        let count = jar.allCookies.count
        #expect(count <= CookieStore.maximumTotal)
        #expect(count >= CookieStore.totalAfterEviction)
        // The least recently used went: the first sites' cookies.
        #expect(try jar.header("https://site0.example/") == nil)
        #expect(try jar.header("https://site199.example/")?.contains("c19=199") == true)
    }

    @Test func thousandsOfFieldsAcrossDomainsStayWithinTheLimits() throws {
        let jar = CookieJar(clock: ManualClock().reading)
        let fields = (0..<3000).flatMap { index in
            ["h\(index)=1", "d\(index)=1; Domain=example.com", "p\(index)=1; Domain=shop.example.com; Path=/\(index)"]
        }
        jar.setCookies(fromSetCookie: fields, for: try url("https://a.shop.example.com/"))
        let byDomain = Dictionary(grouping: jar.allCookies, by: \.domain).mapValues(\.count)
        #expect(byDomain == ["a.shop.example.com": 50, "example.com": 50, "shop.example.com": 50])
    }

    @Test func lifetimeIsCappedAt400Days() throws {
        let clock = ManualClock()
        let jar = CookieJar(clock: clock.reading)
        try jar.receive("a=1; Max-Age=999999999", from: "https://example.com/")
        try jar.receive("b=1; Expires=Fri, 01 Jan 2100 00:00:00 GMT", from: "https://example.com/")
        let cap = clock.now.addingTimeInterval(400 * 86_400)
        #expect(try #require(jar.only("a")).expires == cap)
        #expect(try #require(jar.only("b")).expires == cap)
    }

    @Test func setCookieRefusesCookiesThatCouldNotBeSent() {
        let jar = CookieJar(clock: ManualClock().reading)
        #expect(!jar.setCookie(Cookie(name: "", value: "v", domain: "example.com")))
        #expect(!jar.setCookie(Cookie(name: "a=b", value: "v", domain: "example.com")))
        #expect(!jar.setCookie(Cookie(name: "a", value: "v;w", domain: "example.com")))
        #expect(!jar.setCookie(Cookie(name: "a", value: "v\r\nX: y", domain: "example.com")))
        #expect(!jar.setCookie(Cookie(name: "a", value: "v", domain: "")))
        #expect(!jar.setCookie(Cookie(name: "a", value: "v", domain: "com", isHostOnly: false)))
        #expect(jar.allCookies.isEmpty)
        #expect(jar.setCookie(Cookie(name: "a", value: "v", domain: ".Example.com", path: "relative", isHostOnly: false)))
        let stored = jar.allCookies
        #expect(stored.map(\.domain) == ["example.com"])
        #expect(stored.map(\.path) == ["/"])
    }
}
