import Chain
import Foundation
import Synchronization
import Testing
import TestSupport

/// The cookie jar through Chain against the sample server's httpbin-like cookie routes: a
/// redirect hop's `Set-Cookie` reaches the next hop, later calls send it, the jar is visible
/// in the curl rendering and to hooks, a hand-set `Cookie` wins, `nil` turns cookies off.
/// Each test has a jar of its own, so parallel tests never see each other's cookies.
@Suite("Cookies through Chain", .timeLimit(.minutes(1)))
struct CookieSessionTests {
    /// A configuration on the shared sample server with `jar`.
    static func configuration(_ jar: CookieJar?) throws -> ChainConfiguration {
        var configuration = ChainConfiguration(baseURL: try TestServer.baseURL)
        configuration.cookieJar = jar
        return configuration
    }

    /// The `cookies` object of `/cookies`.
    static func cookies(in data: Data) -> [String: String] {
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        return object?["cookies"] as? [String: String] ?? [:]
    }

    @Test("a cookie set by a redirect hop is sent on the next hop and by later calls")
    func loginThenAuthenticatedCalls() async throws {
        let jar = CookieJar()
        let configuration = try Self.configuration(jar)
        // `/cookies/set` answers 302 to `/cookies`, which echoes what the next hop sent.
        let landing = try await Request.url("/cookies/set?session=abc123&theme=dark").configuration(configuration).data()
        #expect(Self.cookies(in: landing) == ["session": "abc123", "theme": "dark"])
        #expect(Set(jar.cookies(for: try TestServer.endpoint("/")).map(\.name)) == ["session", "theme"])

        let later = try await Request.url("/cookies").configuration(configuration).data()
        #expect(Self.cookies(in: later) == ["session": "abc123", "theme": "dark"])

        _ = try await Request.url("/cookies/delete?theme").configuration(configuration).data()
        #expect(jar.allCookies.map(\.name) == ["session"])
    }

    @Test("a nil jar sends and stores nothing")
    func noJar() async throws {
        let configuration = try Self.configuration(nil)
        let landing = try await Request.url("/cookies/set?session=abc").configuration(configuration).data()
        #expect(Self.cookies(in: landing).isEmpty)
    }

    @Test("a hand-set Cookie field wins over the jar's cookie of the same name; the jar's others follow")
    func handSetCookieWins() async throws {
        let jar = CookieJar()
        let configuration = try Self.configuration(jar)
        _ = try await Request.url("/cookies/set?session=from-jar&lang=en").configuration(configuration).data()
        let sent = try await Request.url("/cookies").configuration(configuration)
            .headers(HTTPHeaders(["Cookie": "session=by-hand"])).data()
        #expect(Self.cookies(in: sent) == ["session": "by-hand", "lang": "en"])
    }

    @Test("the jar's cookies are in the request hooks see and in the curl rendering, redacted")
    func visibleAndRedacted() async throws {
        let jar = CookieJar()
        var configuration = try Self.configuration(jar)
        _ = try await Request.url("/cookies/set?session=topsecret").configuration(configuration).data()
        let hook = SentCookieHook()
        configuration.hooks = [hook]
        let request = Request.url("/cookies").configuration(configuration)
        _ = try await request.data()
        #expect(hook.cookies == ["session=topsecret"])
        let rendering = request.curlDescription
        #expect(rendering.contains("Cookie: session=***"), "\(rendering)")
        #expect(!rendering.contains("topsecret"))
        #expect(request.curlCommand(redacting: .none).contains("session=topsecret"))
    }

    @Test("CookieJar.shared is Chain's default")
    func sharedIsTheDefault() {
        #expect(ChainConfiguration().cookieJar === CookieJar.shared)
        #expect(Request.defaults.cookieJar === CookieJar.shared)
    }
}

/// Records the `Cookie` field of each request a hook is told about.
final class SentCookieHook: HTTPHook {
    private let seen = Mutex<[String]>([])

    var cookies: [String] { seen.withLock { $0 } }

    func willSend(_ context: HookContext) {
        if let cookie = context.request.headers["Cookie"] { seen.withLock { $0.append(cookie) } }
    }
}

/// A chain that leaves the first origin never takes the caller's own credentials along, on
/// any later hop (an outside review found the hand-set cookie reaching the second origin on
/// its own redirect to itself).
@Suite("Credentials across origins through Chain", .timeLimit(.minutes(1)))
struct CrossOriginCredentialTests {
    @Test("A → B → B: the hand-set Cookie for A is not sent to B; B gets its own jar cookie")
    func handSetCookieStaysHome() async throws {
        let base = try TestServer.baseURL
        let port = try #require(base.port)
        let jar = CookieJar()
        #expect(jar.setCookie(Cookie(name: "b", value: "1", domain: "localhost")))
        var configuration = ChainConfiguration(baseURL: base)
        configuration.cookieJar = jar
        let inner = "http://localhost:\(port)/redirect-to?url=/cookies"
        let encoded = try #require(inner.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let data = try await Request.url("/redirect-to?url=\(encoded)").configuration(configuration)
            .headers(HTTPHeaders(["Cookie": "secret=for-a-only"])).data()
        let cookies = CookieSessionTests.cookies(in: data)
        #expect(cookies["b"] == "1")
        #expect(cookies["secret"] == nil, "B got A's hand-set cookie: \(cookies)")
    }

    @Test("a handler that sends a same-origin Location to another origin loses the credentials")
    func handlerToAnotherOrigin() async throws {
        let base = try TestServer.baseURL
        let port = try #require(base.port)
        var configuration = ChainConfiguration(baseURL: base)
        configuration.cookieJar = CookieJar()
        let data = try await Request.url(base.absoluteString + "/redirect/1")
            .configuration(configuration)
            .headers(HTTPHeaders(["Authorization": "Bearer for-a-only", "Cookie": "secret=for-a-only"]))
            .redirects(.custom { hop in
                var next = hop.request
                next.url = URL(string: "http://localhost:\(port)/get") ?? next.url
                return .followModified(next)
            }).data()
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        let headers = (object?["headers"] as? [String: Any] ?? [:]).keys.map { $0.lowercased() }
        #expect(!headers.contains("authorization"), "\(headers)")
        #expect(!headers.contains("cookie"), "\(headers)")
    }
}
