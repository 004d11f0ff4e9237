@testable import Cookies
import Foundation
import Testing

@Suite struct SecureRulesTests {
    let jar = CookieJar(clock: ManualClock().reading)

    @Test func secureCookiesAreSentOnlyOverHTTPS() throws {
        try jar.receive("s=1; Secure", from: "https://example.com/")
        try jar.receive("p=1", from: "https://example.com/")
        #expect(try jar.header("https://example.com/") == "s=1; p=1")
        #expect(try jar.header("http://example.com/") == "p=1")
        #expect(try jar.header("ws://example.com/") == "p=1")
        #expect(try jar.header("wss://example.com/") == "s=1; p=1")
    }

    @Test func secureCookieFromHTTPIsRefused() throws {
        try jar.receive("s=1; Secure", from: "http://example.com/")
        #expect(jar.allCookies.isEmpty)
    }

    @Test func httpCannotOverwriteASecureCookie() throws {
        try jar.receive("sid=secret; Secure", from: "https://example.com/")
        try jar.receive("sid=forged", from: "http://example.com/")
        #expect(try #require(jar.only("sid")).value == "secret")
        // Nor remove it with an expired cookie.
        try jar.receive("sid=gone; Max-Age=0", from: "http://example.com/")
        #expect(try #require(jar.only("sid")).value == "secret")
    }

    @Test func httpCannotShadowASecureCookie() throws {
        try jar.receive("sid=secret; Secure; Domain=example.com; Path=/", from: "https://example.com/")
        // A host-only cookie on a subdomain, and one on a deeper path, would be sent first.
        try jar.receive("sid=forged", from: "http://www.example.com/")
        try jar.receive("sid=forged; Path=/account", from: "http://example.com/")
        try jar.receive("sid=forged; Domain=example.com; Path=/x", from: "http://www.example.com/")
        #expect(jar.allCookies.map(\.value) == ["secret"])
        // A different name is fine.
        try jar.receive("other=1", from: "http://www.example.com/")
        #expect(jar.allCookies.count == 2)
    }

    @Test func httpMaySetTheNameOutsideTheSecureCookiesPath() throws {
        try jar.receive("sid=secret; Secure; Path=/admin", from: "https://example.com/")
        try jar.receive("sid=plain; Path=/", from: "http://example.com/")
        try jar.receive("sid=forged; Path=/admin/x", from: "http://example.com/")
        #expect(Set(jar.allCookies.map(\.value)) == ["secret", "plain"])
        #expect(try jar.header("https://example.com/admin") == "sid=secret; sid=plain")
    }

    @Test func httpCannotShadowASecureCookieOfASubdomain() throws {
        try jar.receive("sid=secret; Secure", from: "https://www.example.com/")
        try jar.receive("sid=forged; Domain=example.com", from: "http://example.com/")
        #expect(jar.allCookies.map(\.value) == ["secret"])
    }

    @Test func httpsMayOverwriteASecureCookie() throws {
        try jar.receive("sid=one; Secure", from: "https://example.com/")
        try jar.receive("sid=two", from: "https://example.com/")
        let cookie = try #require(jar.only("sid"))
        #expect(cookie.value == "two")
        #expect(!cookie.isSecure)
        // With no Secure cookie left, http may overwrite it again.
        try jar.receive("sid=three", from: "http://example.com/")
        #expect(try #require(jar.only("sid")).value == "three")
    }

    @Test func expiredSecureCookieDoesNotBlock() throws {
        let clock = ManualClock()
        let jar = CookieJar(clock: clock.reading)
        try jar.receive("sid=secret; Secure; Max-Age=10", from: "https://example.com/")
        clock.advance(by: 11)
        try jar.receive("sid=plain", from: "http://example.com/")
        #expect(try #require(jar.only("sid")).value == "plain")
    }

    @Test func securePrefix() throws {
        try jar.receive("__Secure-a=1", from: "https://example.com/")
        try jar.receive("__Secure-b=1; Secure", from: "http://example.com/")
        try jar.receive("__secure-c=1", from: "https://example.com/")
        #expect(jar.allCookies.isEmpty)
        try jar.receive("__Secure-d=1; Secure; Domain=example.com; Path=/x", from: "https://www.example.com/")
        #expect(jar.allCookies.map(\.name) == ["__Secure-d"])
    }

    @Test func hostPrefix() throws {
        try jar.receive("__Host-a=1; Secure", from: "https://example.com/")                      // no Path
        try jar.receive("__Host-b=1; Secure; Path=/; Domain=example.com", from: "https://example.com/")
        try jar.receive("__Host-c=1; Secure; Path=/x", from: "https://example.com/")
        try jar.receive("__Host-d=1; Path=/", from: "https://example.com/")                     // no Secure
        try jar.receive("__Host-e=1; Secure; Path=/", from: "http://example.com/")             // not https
        try jar.receive("__HOST-f=1; Path=/", from: "https://example.com/")                     // case-insensitive
        #expect(jar.allCookies.isEmpty)
        try jar.receive("__Host-ok=1; Secure; Path=/", from: "https://example.com/deep/page")
        let cookie = try #require(jar.only("__Host-ok"))
        #expect(cookie.isHostOnly && cookie.isSecure && cookie.path == "/")
    }

    @Test func sameSiteAndHTTPOnlyDoNotRestrictSending() throws {
        try jar.receive("a=1; SameSite=Strict; HttpOnly", from: "https://example.com/")
        let cookie = try #require(jar.only("a"))
        #expect(cookie.sameSite == .strict)
        #expect(cookie.isHTTPOnly)
        #expect(try jar.header("https://example.com/") == "a=1")
    }
}
