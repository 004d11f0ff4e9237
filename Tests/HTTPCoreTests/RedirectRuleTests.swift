@testable import CurlTransport
import Foundation
@testable import HTTPCore
@testable import HTTPFeatures
import Testing

/// The redirect rules as a pure function (no I/O): the next hop's method, body, header fields,
/// URL and `Referer`. The same rules against a real server: HardeningTests' `RedirectHopTests`.
@Suite("Redirect rule")
struct RedirectRuleTests {
    private func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    @Test("the method and body per status", arguments: [301, 302, 303, 307, 308])
    func methodPerStatus(status: Int) {
        for method in [HTTPMethod.get, .head, .post, .put, .patch, .delete, .options, HTTPMethod(rawValue: "PROPFIND")] {
            let (next, keepsBody) = RedirectRule.method(after: status, of: method)
            switch status {
            case 303:
                #expect(next == (method == .head ? .head : .get))
                #expect(!keepsBody)
            case 301, 302:
                #expect(next == (method == .post ? .get : method))
                #expect(keepsBody == (method != .post))
            default:
                #expect(next == method)
                #expect(keepsBody)
            }
        }
    }

    @Test func onlyTheFiveRedirectStatusesAreFollowed() {
        #expect((300...399).filter(RedirectPolicy.follows) == [301, 302, 303, 307, 308])
    }

    @Test("a dropped body takes its header fields; other fields stay")
    func bodyFieldsGoWithTheBody() throws {
        var request = HTTPRequest(url: try url("http://a.test/x"), method: .put, body: .data(Data("x".utf8)))
        request.headers = ["Content-Type": "text/plain", "content-language": "en", "Content-Length": "1",
                           "Transfer-Encoding": "chunked", "Expect": "100-continue", "Accept": "*/*", "X-Id": "7"]
        let next = try RedirectRule.nextRequest(after: 303, location: "/y", from: request)
        #expect(next.method == .get)
        #expect(next.body == .none)
        #expect(next.headers.map(\.name).filter { $0 != "Referer" } == ["Accept", "X-Id"])
        let kept = try RedirectRule.nextRequest(after: 307, location: "/y", from: request)
        #expect(kept.method == .put)
        #expect(kept.body == request.body)
        #expect(kept.headers["Content-Type"] == "text/plain")
    }

    @Test("relative, protocol-relative and absolute Locations; spaces and non-ASCII encoded")
    func resolution() throws {
        let base = try url("http://a.test:8080/one/two/three?q=1#frag")
        let cases: [(String, String)] = [
            ("four", "http://a.test:8080/one/two/four"),
            ("../four?x=2", "http://a.test:8080/one/four?x=2"),
            ("/root", "http://a.test:8080/root"),
            ("?only=query", "http://a.test:8080/one/two/three?only=query"),
            ("//b.test/p", "http://b.test/p"),
            ("https://c.test/p", "https://c.test/p"),
            ("/a b/ü", "http://a.test:8080/a%20b/%c3%bc"),
        ]
        for (location, expected) in cases {
            let resolved = try #require(RedirectRule.resolve(location, against: base), "\(location)")
            #expect(resolved.url.absoluteString.lowercased() == expected.lowercased(), "\(location)")
        }
        #expect(RedirectRule.resolve("http://[::1", against: base) == nil)
        // Resolved, for the engine to refuse by its scheme.
        #expect(RedirectRule.resolve("file:///etc/passwd", against: base)?.url.absoluteString == "file:///etc/passwd")
    }

    @Test("another origin: credentials and user information dropped, and they stay dropped")
    func credentialsAcrossOrigins() throws {
        var request = HTTPRequest(url: try url("http://user:pw@a.test/start"))
        request.headers = ["Authorization": "Bearer t", "Cookie": "s=1", "Proxy-Authorization": "Basic x", "X-Kept": "1"]
        let same = try RedirectRule.nextRequest(after: 302, location: "/next", from: request)
        #expect(same.url.absoluteString == "http://user:pw@a.test/next")
        #expect(same.headers["Authorization"] == "Bearer t")
        #expect(same.headers["Cookie"] == "s=1")
        #expect(same.headers["Proxy-Authorization"] == "Basic x")

        for location in ["http://b.test/next", "https://a.test/next", "http://a.test:81/next", "//b.test/x"] {
            let other = try RedirectRule.nextRequest(after: 302, location: location, from: request)
            #expect(other.url.user == nil, "\(location)")
            #expect(other.url.password == nil, "\(location)")
            #expect(other.headers["Authorization"] == nil, "\(location)")
            #expect(other.headers["Cookie"] == nil, "\(location)")
            #expect(other.headers["Proxy-Authorization"] == nil, "\(location)")
            #expect(other.headers["X-Kept"] == "1", "\(location)")
            // Back to the first origin: still without them.
            let back = try RedirectRule.nextRequest(after: 302, location: "http://a.test/again", from: other)
            #expect(back.headers["Authorization"] == nil, "\(location)")
        }
        // Host names compare without case, and an explicit default port is the same origin.
        let sameHost = try RedirectRule.nextRequest(after: 302, location: "http://A.TEST:80/next", from: request)
        #expect(sameHost.headers["Authorization"] == "Bearer t")
    }

    @Test("Referer: the previous URL without user information and fragment, not from https to http")
    func referer() throws {
        #expect(RedirectRule.referer(from: try url("http://u:p@a.test/x?q=1#f"), to: try url("http://b.test/"))
            == "http://a.test/x?q=1")
        #expect(RedirectRule.referer(from: try url("https://a.test/x"), to: try url("http://a.test/y")) == nil)
        #expect(RedirectRule.referer(from: try url("https://a.test/x"), to: try url("https://b.test/y")) == "https://a.test/x")
        var request = HTTPRequest(url: try url("http://a.test/x"))
        request.headers = ["Referer": "http://caller.test/"]
        let next = try RedirectRule.nextRequest(after: 301, location: "/y", from: request)
        #expect(next.headers.values(for: "Referer") == ["http://a.test/x"])
    }
}
