@testable import Cookies
import Foundation
import Testing

@Suite struct CookieDescriptionTests {
    @Test func descriptionNeverShowsTheValue() {
        let cookie = Cookie(name: "session", value: "s3cr3t-token-value", domain: ".Example.com", path: "/app",
                            expires: Date(timeIntervalSince1970: 1_767_225_600), isSecure: true, isHTTPOnly: true,
                            sameSite: .lax, isHostOnly: false)
        let text = cookie.description
        #expect(!text.contains("s3cr3t"))
        #expect(text.contains("session"))
        #expect(text.contains("example.com"))
        #expect(text.contains("/app"))
        #expect(text.contains("secure"))
        #expect(text.contains("httpOnly"))
        #expect(text.contains("sameSite: lax"))
        #expect(text.contains("value: 18 bytes"))
        #expect(!"\(cookie)".contains("s3cr3t"))
        #expect(!String(describing: [cookie]).contains("s3cr3t"))
    }

    @Test func initializerDefaults() {
        let cookie = Cookie(name: "a", value: "1", domain: "Example.COM")
        #expect(cookie.domain == "example.com")
        #expect(cookie.path == "/")
        #expect(cookie.expires == nil && cookie.isSessionCookie)
        #expect(!cookie.isSecure && !cookie.isHTTPOnly && cookie.sameSite == nil && cookie.isHostOnly)
        #expect(cookie.description.contains("session"))
    }

    @Test func errorDescriptionNamesKindAndMessage() {
        let error = CookieJarError(kind: .damaged, message: "/tmp/x is not a cookie file")
        #expect(error.description.contains("damaged"))
        #expect(error.description.contains("/tmp/x"))
    }
}
