@testable import Cookies
import Foundation
import Testing

@Suite struct PathMatchingTests {
    let jar = CookieJar(clock: ManualClock().reading)

    @Test(arguments: [
        ("https://example.com", "/"),
        ("https://example.com/", "/"),
        ("https://example.com/file", "/"),
        ("https://example.com/docs/", "/docs"),
        ("https://example.com/docs/page", "/docs"),
        ("https://example.com/a/b/c?x=/y/z", "/a/b"),
        ("https://example.com/a%2Fb/c", "/a%2Fb"),
    ])
    func defaultPath(_ address: String, _ expected: String) throws {
        let target = try #require(RequestTarget(url: try url(address)))
        #expect(target.defaultPath == expected)
    }

    @Test func pathMatchFunction() {
        #expect(Cookie.path("/", matches: "/anything"))
        #expect(Cookie.path("/docs", matches: "/docs"))
        #expect(Cookie.path("/docs", matches: "/docs/"))
        #expect(Cookie.path("/docs", matches: "/docs/page"))
        #expect(Cookie.path("/docs/", matches: "/docs/page"))
        #expect(!Cookie.path("/docs", matches: "/docsearch"))
        #expect(!Cookie.path("/docs/", matches: "/docs"))
        #expect(!Cookie.path("/docs", matches: "/"))
        #expect(!Cookie.path("/Docs", matches: "/docs"))
    }

    @Test func defaultPathIsUsedWithoutAPathAttribute() throws {
        try jar.receive("a=1", from: "https://example.com/docs/page")
        #expect(try #require(jar.only("a")).path == "/docs")
        #expect(try jar.header("https://example.com/docs") == "a=1")
        #expect(try jar.header("https://example.com/docs/other") == "a=1")
        #expect(try jar.header("https://example.com/") == nil)
        #expect(try jar.header("https://example.com/docsearch") == nil)
    }

    @Test func relativePathAttributeMeansTheDefaultPath() throws {
        try jar.receive("a=1; Path=docs", from: "https://example.com/shop/cart")
        #expect(try #require(jar.only("a")).path == "/shop")
    }

    @Test func explicitPathMayBeAnyPath() throws {
        try jar.receive("a=1; Path=/elsewhere", from: "https://example.com/docs/page")
        #expect(try #require(jar.only("a")).path == "/elsewhere")
        #expect(try jar.header("https://example.com/elsewhere/x") == "a=1")
        #expect(try jar.header("https://example.com/docs/page") == nil)
    }
}
