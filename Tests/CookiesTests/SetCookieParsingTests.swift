@testable import Cookies
import Foundation
import Testing

@Suite struct SetCookieParsingTests {
    @Test func nameAndValueWithOddSpacing() throws {
        let parsed = try #require(SetCookie(parsing: "  sid \t=  abc 123 \t;  Path = /x  ;Secure"))
        #expect(parsed.name == "sid")
        #expect(parsed.value == "abc 123")
        #expect(parsed.path == .some("/x"))
        #expect(parsed.isSecure)
    }

    @Test func quotedValueIsKeptAsItIs() throws {
        let parsed = try #require(SetCookie(parsing: #"token="a b; c""#))
        // The `;` inside the quotes still ends the pair: RFC 6265 has no quoting of `;`.
        #expect(parsed.value == #""a b"#)
        let whole = try #require(SetCookie(parsing: #"token="abc""#))
        #expect(whole.value == #""abc""#)
    }

    @Test func valueMayContainEquals() throws {
        let parsed = try #require(SetCookie(parsing: "data=a=b=c; Path=/"))
        #expect(parsed.name == "data")
        #expect(parsed.value == "a=b=c")
    }

    @Test func pairWithoutEqualsOrNameIsIgnored() {
        #expect(SetCookie(parsing: "justavalue") == nil)
        #expect(SetCookie(parsing: "justavalue; Path=/") == nil)
        #expect(SetCookie(parsing: "=value") == nil)
        #expect(SetCookie(parsing: "  =value") == nil)
        #expect(SetCookie(parsing: "") == nil)
    }

    @Test func emptyValueIsAllowed() throws {
        let parsed = try #require(SetCookie(parsing: "flag="))
        #expect(parsed.name == "flag")
        #expect(parsed.value.isEmpty)
    }

    @Test func controlCharactersRefuseTheField() {
        #expect(SetCookie(parsing: "a=b\u{0}c") == nil)
        #expect(SetCookie(parsing: "a=b\r\nX-Injected: 1") == nil)
        #expect(SetCookie(parsing: "a=b; Path=/\u{7F}") == nil)
        #expect(SetCookie(parsing: "a=b\tc") != nil)
    }

    @Test func attributeNamesAreCaseInsensitive() throws {
        let parsed = try #require(SetCookie(parsing: "a=1; SECURE; httponly; DoMaIn=Example.COM; pAtH=/p; SameSite=STRICT; MAX-AGE=10"))
        #expect(parsed.isSecure)
        #expect(parsed.isHTTPOnly)
        #expect(parsed.domain == "example.com")
        #expect(parsed.path == .some("/p"))
        #expect(parsed.sameSite == .strict)
        #expect(parsed.maxAge == 10)
    }

    @Test func eachAttribute() throws {
        let parsed = try #require(SetCookie(parsing: "a=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Max-Age=60; Domain=.example.com; Path=/docs; Secure; HttpOnly; SameSite=Lax"))
        #expect(parsed.expires == Date(timeIntervalSince1970: 1_445_412_480))
        #expect(parsed.maxAge == 60)
        #expect(parsed.domain == "example.com")
        #expect(parsed.path == .some("/docs"))
        #expect(parsed.isSecure && parsed.isHTTPOnly)
        #expect(parsed.sameSite == .lax)
    }

    @Test func sameSiteValues() throws {
        #expect(try #require(SetCookie(parsing: "a=1; SameSite=None")).sameSite == Cookie.SameSite.none)
        #expect(try #require(SetCookie(parsing: "a=1; SameSite=strict")).sameSite == .strict)
        #expect(try #require(SetCookie(parsing: "a=1; SameSite=bogus")).sameSite == nil)
        #expect(try #require(SetCookie(parsing: "a=1; SameSite")).sameSite == nil)
    }

    @Test func duplicateAttributesLastWins() throws {
        let parsed = try #require(SetCookie(parsing: "a=1; Path=/one; Path=/two; Domain=a.example.com; Domain=example.com; Max-Age=5; Max-Age=7; SameSite=Strict; SameSite=Lax"))
        #expect(parsed.path == .some("/two"))
        #expect(parsed.domain == "example.com")
        #expect(parsed.maxAge == 7)
        #expect(parsed.sameSite == .lax)
        // A bogus SameSite is still the last one, and means "none given".
        #expect(try #require(SetCookie(parsing: "a=1; SameSite=Lax; SameSite=bogus")).sameSite == nil)
    }

    @Test func invalidAttributesLeaveEarlierOnesInPlace() throws {
        let parsed = try #require(SetCookie(parsing: "a=1; Max-Age=30; Max-Age=3x; Max-Age=; Domain=example.com; Domain=; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Expires=garbage"))
        #expect(parsed.maxAge == 30)
        #expect(parsed.domain == "example.com")
        #expect(parsed.expires == Date(timeIntervalSince1970: 1_445_412_480))
    }

    @Test func maxAgeForms() throws {
        #expect(try #require(SetCookie(parsing: "a=1; Max-Age=-5")).maxAge == -5)
        #expect(try #require(SetCookie(parsing: "a=1; Max-Age=0")).maxAge == 0)
        #expect(try #require(SetCookie(parsing: "a=1; Max-Age=+5")).maxAge == nil)
        #expect(try #require(SetCookie(parsing: "a=1; Max-Age=-")).maxAge == nil)
        #expect(try #require(SetCookie(parsing: "a=1; Max-Age=1.5")).maxAge == nil)
        #expect(try #require(SetCookie(parsing: "a=1; Max-Age=99999999999999999999999")).maxAge == Int64.max)
    }

    @Test func pathNotStartingWithSlashMeansDefault() throws {
        #expect(try #require(SetCookie(parsing: "a=1; Path=relative")).path == .some(nil))
        #expect(try #require(SetCookie(parsing: "a=1; Path=")).path == .some(nil))
        #expect(try #require(SetCookie(parsing: "a=1")).path == nil)
        // A later invalid Path resets an earlier valid one to the default.
        #expect(try #require(SetCookie(parsing: "a=1; Path=/x; Path=y")).path == .some(nil))
    }

    @Test func oversizedNameValueIsRefused() {
        let value = String(repeating: "v", count: 4096)
        #expect(SetCookie(parsing: "n=\(value)") == nil)
        #expect(SetCookie(parsing: "n=\(value.dropFirst())") != nil)
    }

    @Test func oversizedAttributeValueIsIgnored() throws {
        let longPath = "/" + String(repeating: "p", count: 1024)
        let parsed = try #require(SetCookie(parsing: "a=1; Path=/short; Path=\(longPath)"))
        #expect(parsed.path == .some("/short"))
        let okPath = "/" + String(repeating: "p", count: 1023)
        #expect(try #require(SetCookie(parsing: "a=1; Path=\(okPath)")).path == .some(okPath))
    }

    @Test func unknownAttributesAndEmptySegmentsAreIgnored() throws {
        let parsed = try #require(SetCookie(parsing: "a=1;;; Priority=High; ; Partitioned; Secure;"))
        #expect(parsed.isSecure)
        #expect(parsed.value == "1")
    }
}
