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
