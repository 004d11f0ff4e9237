@testable import Cookies
import Foundation
import HTTPCore
import Testing

@Suite struct SendingTests {
    let clock = ManualClock()
    var jar: CookieJar { CookieJar(clock: clock.reading) }

    @Test func emptyJarSendsNothing() throws {
        let jar = self.jar
        #expect(try jar.header("https://example.com/") == nil)
        #expect(jar.cookies(for: try url("https://example.com/")).isEmpty)
        #expect(jar.allCookies.isEmpty)
    }

    @Test func noCookieForTheHostSendsNothing() throws {
        let jar = self.jar
        try jar.receive("a=1", from: "https://example.com/")
        #expect(try jar.header("https://other.org/") == nil)
    }

    @Test func headerOrderIsLongerPathsFirstThenEarlierCreation() throws {
        let jar = self.jar
        try jar.receive("root1=1; Path=/", from: "https://example.com/")
        clock.advance(by: 1)
        try jar.receive("deep=1; Path=/a/b", from: "https://example.com/")
        clock.advance(by: 1)
        try jar.receive("mid=1; Path=/a", from: "https://example.com/")
        clock.advance(by: 1)
        try jar.receive("root2=1; Domain=example.com", from: "https://example.com/")
        #expect(try jar.header("https://example.com/a/b/c") == "deep=1; mid=1; root1=1; root2=1")
        #expect(jar.cookies(for: try url("https://example.com/a/b/c")).map(\.name) == ["deep", "mid", "root1", "root2"])
        #expect(try jar.header("https://example.com/a") == "mid=1; root1=1; root2=1")
    }

    @Test func fieldsOfOneResponseKeepTheirOrder() throws {
        let jar = self.jar
        jar.setCookies(fromSetCookie: ["z=1", "a=2", "m=3"], for: try url("https://example.com/"))
        #expect(try jar.header("https://example.com/") == "z=1; a=2; m=3")
    }

    @Test func replacementKeepsCreationDateAndOrder() throws {
        let jar = self.jar
        let created = clock.now
        try jar.receive("a=1", from: "https://example.com/")
        clock.advance(by: 5)
        try jar.receive("b=1", from: "https://example.com/")
        clock.advance(by: 5)
        try jar.receive("a=2; HttpOnly", from: "https://example.com/")
        let cookie = try #require(jar.only("a"))
        #expect(cookie.value == "2")
        #expect(cookie.isHTTPOnly)
        #expect(cookie.creationDate == created)
        #expect(try jar.header("https://example.com/") == "a=2; b=1")
        #expect(jar.allCookies.count == 2)
    }

    @Test func sameNameOnAnotherPathOrDomainIsAnotherCookie() throws {
        let jar = self.jar
        try jar.receive("a=1", from: "https://www.example.com/")
        try jar.receive("a=2; Path=/x", from: "https://www.example.com/")
        try jar.receive("a=3; Domain=example.com", from: "https://www.example.com/")
        #expect(jar.allCookies.count == 3)
        #expect(try jar.header("https://www.example.com/x") == "a=2; a=1; a=3")
    }

    @Test func setCookieReplacesAndKeepsCreationDate() throws {
        let jar = self.jar
        let created = clock.now
        #expect(jar.setCookie(Cookie(name: "k", value: "1", domain: "example.com")))
        clock.advance(by: 60)
        #expect(jar.setCookie(Cookie(name: "k", value: "2", domain: "EXAMPLE.com")))
        let cookie = try #require(jar.only("k"))
        #expect(cookie.value == "2")
        #expect(cookie.creationDate == created)
        #expect(try jar.header("https://example.com/") == "k=2")
    }

    @Test func expiryFollowsTheInjectedClock() throws {
        let jar = self.jar
        try jar.receive("short=1; Max-Age=10", from: "https://example.com/")
        try jar.receive("dated=1; Expires=Thu, 01 Jan 2026 00:00:30 GMT", from: "https://example.com/")
        try jar.receive("session=1", from: "https://example.com/")
        #expect(try #require(jar.only("short")).expires == clock.now.addingTimeInterval(10))
        #expect(try jar.header("https://example.com/") == "short=1; dated=1; session=1")
        clock.advance(by: 10)
        #expect(try jar.header("https://example.com/") == "dated=1; session=1")
        clock.advance(by: 20)
        #expect(try jar.header("https://example.com/") == "session=1")
        #expect(jar.allCookies.map(\.name) == ["session"])
    }

    @Test func maxAgeWinsOverExpires() throws {
        let jar = self.jar
        try jar.receive("a=1; Max-Age=100; Expires=Thu, 01 Jan 2026 00:00:05 GMT", from: "https://example.com/")
        try jar.receive("b=1; Expires=Fri, 01 Jan 2027 00:00:00 GMT; Max-Age=5", from: "https://example.com/")
        #expect(try #require(jar.only("a")).expires == clock.now.addingTimeInterval(100))
        #expect(try #require(jar.only("b")).expires == clock.now.addingTimeInterval(5))
    }

    @Test func expiredCookieRemovesTheOneItNames() throws {
        let jar = self.jar
        try jar.receive("a=1", from: "https://example.com/")
        try jar.receive("b=1", from: "https://example.com/")
        try jar.receive("a=x; Max-Age=0", from: "https://example.com/")
        try jar.receive("b=x; Expires=Wed, 21 Oct 2015 07:28:00 GMT", from: "https://example.com/")
        try jar.receive("c=x; Max-Age=-1", from: "https://example.com/")
        #expect(jar.allCookies.isEmpty)
        #expect(try jar.header("https://example.com/") == nil)
    }

    @Test func removeAndRemoveAll() throws {
        let jar = self.jar
        try jar.receive("a=1", from: "https://example.com/")
        try jar.receive("b=1; Path=/p", from: "https://example.com/")
        try jar.receive("c=1", from: "https://other.org/")
        jar.remove(name: "b", domain: ".Example.com")
        #expect(jar.allCookies.count == 3)
        jar.remove(name: "b", domain: "example.com", path: "/p")
        #expect(Set(jar.allCookies.map(\.name)) == ["a", "c"])
        jar.removeAll()
        #expect(jar.allCookies.isEmpty)
        #expect(try jar.header("https://example.com/") == nil)
    }

    @Test func storeCookiesIsSetCookies() throws {
        let jar = self.jar
        let storage: any CookieStorage = jar
        storage.storeCookies(fromSetCookie: ["a=1", "bad", "b=2; Secure"], for: try url("https://example.com/"))
        #expect(storage.cookieHeader(for: try url("https://example.com/")) == "a=1; b=2")
    }

    @Test func sessionFlag() throws {
        let jar = self.jar
        try jar.receive("s=1", from: "https://example.com/")
        try jar.receive("p=1; Max-Age=60", from: "https://example.com/")
        #expect(try #require(jar.only("s")).isSessionCookie)
        #expect(try #require(jar.only("p")).isSessionCookie == false)
    }
}
