@testable import Cookies
import Foundation
import Testing

@Suite struct DomainMatchingTests {
    let jar = CookieJar(clock: ManualClock().reading)

    @Test func hostOnlyCookieGoesToItsHostOnly() throws {
        try jar.receive("a=1", from: "https://www.example.com/")
        let cookie = try #require(jar.only("a"))
        #expect(cookie.isHostOnly)
        #expect(cookie.domain == "www.example.com")
        #expect(try jar.header("https://www.example.com/") == "a=1")
        #expect(try jar.header("https://sub.www.example.com/") == nil)
        #expect(try jar.header("https://example.com/") == nil)
    }

    @Test func domainCookieGoesToSubdomains() throws {
        try jar.receive("a=1; Domain=.Example.COM", from: "https://www.example.com/")
        let cookie = try #require(jar.only("a"))
        #expect(!cookie.isHostOnly)
        #expect(cookie.domain == "example.com")
        #expect(try jar.header("https://example.com/") == "a=1")
        #expect(try jar.header("https://a.b.example.com/") == "a=1")
        #expect(try jar.header("https://notexample.com/") == nil)
        #expect(try jar.header("https://example.com.evil.net/") == nil)
    }

    @Test func hostsAreLowercasedAndTrailingDotIgnored() throws {
        try jar.receive("a=1", from: "https://WWW.Example.COM./")
        #expect(try #require(jar.only("a")).domain == "www.example.com")
        #expect(try jar.header("https://www.example.com./") == "a=1")
        #expect(try jar.header("https://www.EXAMPLE.com/") == "a=1")
    }

    @Test func domainTheHostDoesNotMatchIsRefused() throws {
        try jar.receive("a=1; Domain=example.com", from: "https://evil.com/")
        try jar.receive("b=1; Domain=www.example.com", from: "https://example.com/")
        try jar.receive("c=1; Domain=ample.com", from: "https://example.com/")
        #expect(jar.allCookies.isEmpty)
    }

    @Test func publicSuffixDomainsAreRefused() throws {
        try jar.receive("a=1; Domain=co.uk", from: "https://www.example.co.uk/")
        try jar.receive("b=1; Domain=com", from: "https://example.com/")
        try jar.receive("c=1; Domain=github.io", from: "https://someone.github.io/")
        try jar.receive("d=1; Domain=uk", from: "https://www.example.co.uk/")
        #expect(jar.allCookies.isEmpty)
        // The registrable domain itself is fine.
        try jar.receive("e=1; Domain=example.co.uk", from: "https://www.example.co.uk/")
        #expect(try #require(jar.only("e")).isHostOnly == false)
        #expect(try jar.header("https://shop.example.co.uk/") == "e=1")
    }

    @Test func publicSuffixEqualToTheHostBecomesHostOnly() throws {
        try jar.receive("a=1; Domain=localhost", from: "http://localhost:8080/")
        let cookie = try #require(jar.only("a"))
        #expect(cookie.isHostOnly)
        #expect(cookie.domain == "localhost")
        #expect(try jar.header("http://localhost/") == "a=1")
        #expect(try jar.header("http://app.localhost/") == nil)

        try jar.receive("b=1; Domain=github.io", from: "https://github.io/")
        #expect(try #require(jar.only("b")).isHostOnly)
        #expect(try jar.header("https://someone.github.io/") == nil)
    }

    @Test func ipv4HostAcceptsOnlyItself() throws {
        try jar.receive("a=1; Domain=0.0.1", from: "http://127.0.0.1/")
        try jar.receive("b=1; Domain=1", from: "http://127.0.0.1/")
        #expect(jar.allCookies.isEmpty)
        try jar.receive("c=1; Domain=127.0.0.1", from: "http://127.0.0.1/")
        try jar.receive("d=1", from: "http://127.0.0.1:9000/")
        #expect(try #require(jar.only("c")).isHostOnly)
        #expect(try jar.header("http://127.0.0.1/") == "c=1; d=1")
        #expect(try jar.header("http://127.0.0.2/") == nil)
        #expect(try jar.header("http://1.127.0.0.1/") == nil)
    }

    @Test func ipv6HostAcceptsOnlyItself() throws {
        try jar.receive("a=1", from: "http://[::1]:8080/")
        try jar.receive("b=1; Domain=::1", from: "http://[::1]/")
        try jar.receive("c=1; Domain=1", from: "http://[::1]/")
        #expect(Set(jar.allCookies.map(\.name)) == ["a", "b"])
        #expect(jar.allCookies.allSatisfy { $0.domain == "::1" && $0.isHostOnly })
        #expect(try jar.header("http://[::1]/") == "a=1; b=1")
    }

    @Test func domainMatchFunction() {
        #expect(Cookie.domain("example.com", matches: "example.com", hostIsIPAddress: false))
        #expect(Cookie.domain("example.com", matches: "a.example.com", hostIsIPAddress: false))
        #expect(!Cookie.domain("example.com", matches: "aexample.com", hostIsIPAddress: false))
        #expect(!Cookie.domain("a.example.com", matches: "example.com", hostIsIPAddress: false))
        #expect(!Cookie.domain("0.0.1", matches: "127.0.0.1", hostIsIPAddress: true))
        #expect(Cookie.domain("127.0.0.1", matches: "127.0.0.1", hostIsIPAddress: true))
    }

    @Test func nonHTTPURLsHaveNoCookies() throws {
        try jar.receive("a=1", from: "ftp://example.com/")
        try jar.receive("b=1", from: "file:///tmp/x")
        #expect(jar.allCookies.isEmpty)
        try jar.receive("c=1", from: "https://example.com/")
        #expect(try jar.header("ftp://example.com/") == nil)
        #expect(try jar.header("wss://example.com/") == "c=1")
    }
}
