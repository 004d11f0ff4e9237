import Cookies
import CurlTransport
import Foundation
import HTTPCore
import Testing
import TestSupport

/// The cookie jar in the pipeline against the hostile peer's cookies (`scenarios_cookies.py`),
/// reached under made-up host names through the client's DNS override, so the domain and
/// public-suffix rules apply as for a real site.
@Suite("Hostile cookies", .serialized, .timeLimit(.minutes(1)))
struct HostileCookieTests {
    static let hosts = ["www.example.co.uk", "api.example.co.uk", "evil.example"]

    /// A client that reaches the peer under ``hosts``, and a URL on it.
    static func client(for peer: HostilePeer) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        for host in hosts { configuration.resolve(host: host, port: peer.port, to: "127.0.0.1") }
        return HTTPClient(configuration: configuration)
    }

    static func url(_ host: String, _ path: String, peer: HostilePeer) -> URL {
        URL(string: "http://\(host):\(peer.port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    static func send(_ client: HTTPClient, _ url: URL, jar: CookieJar) async -> Result<HTTPResponse, NetworkError> {
        await withCheckedContinuation { continuation in
            client.perform(HTTPRequest(url: url), plan: .response(),
                           options: CallOptions(cookies: jar, usesGlobalHooks: false)) {
                continuation.resume(returning: $0.result)
            }
        }
    }

    @Test("a cookie for the registrable domain is kept and sent to its subdomains; public suffixes and other sites are refused")
    func domains() async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let client = Self.client(for: peer)
        let jar = CookieJar()
        #expect(await Self.send(client, Self.url("www.example.co.uk", "/cookies/domains", peer: peer), jar: jar).success?.statusCode == 200)
        #expect(jar.allCookies.map(\.name) == ["site"])
        #expect(jar.allCookies.first?.domain == "example.co.uk")
        let echo = await Self.send(client, Self.url("api.example.co.uk", "/cookies/echo", peer: peer), jar: jar)
        #expect(echo.success.map { String(decoding: $0.body, as: UTF8.self) } == "site=1")
        let elsewhere = await Self.send(client, Self.url("evil.example", "/cookies/echo", peer: peer), jar: jar)
        #expect(elsewhere.success.map { String(decoding: $0.body, as: UTF8.self) } == "", "no cookie leaves its site")
    }

    @Test("a huge value is refused, the cookie beside it kept")
    func hugeValue() async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let client = Self.client(for: peer)
        let jar = CookieJar()
        _ = await Self.send(client, Self.url("www.example.co.uk", "/cookies/huge", peer: peer), jar: jar)
        #expect(jar.allCookies.map(\.name) == ["small"])
    }

    @Test("3,000 Set-Cookie fields in one head: the call succeeds and the jar keeps 50")
    func thousands() async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let client = Self.client(for: peer)
        let jar = CookieJar()
        let result = await Self.send(client, Self.url("www.example.co.uk", "/cookies/thousands", peer: peer), jar: jar)
        #expect(result.success?.statusCode == 200, "\(String(describing: result.failure))")
        #expect(jar.allCookies.count == 50)
        let echo = await Self.send(client, Self.url("www.example.co.uk", "/cookies/echo", peer: peer), jar: jar)
        let sent = echo.success.map { String(decoding: $0.body, as: UTF8.self) } ?? ""
        #expect(sent.split(separator: ";").count == 50)
        #expect(sent.contains("c2999=2999"), "the most recent cookies are the ones kept")
    }

    @Test("a head with a NUL fails as invalidResponse and sets none of its cookies")
    func nulByte() async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let client = Self.client(for: peer)
        let jar = CookieJar()
        let result = await Self.send(client, Self.url("www.example.co.uk", "/cookies/nul", peer: peer), jar: jar)
        #expect(result.failure?.kind == .invalidResponse)
        #expect(jar.allCookies.isEmpty)
    }

    @Test("control bytes never reach a Cookie field; garbage attributes are ignored")
    func controlBytes() async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let client = Self.client(for: peer)
        let jar = CookieJar()
        let result = await Self.send(client, Self.url("www.example.co.uk", "/cookies/control", peer: peer), jar: jar)
        #expect(result.success?.statusCode == 200, "\(String(describing: result.failure))")
        for cookie in jar.allCookies {
            #expect(!cookie.value.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f }, "\(cookie)")
        }
        #expect(jar.allCookies.contains { $0.name == "plain" && $0.isSessionCookie && $0.sameSite == nil })
        let echo = await Self.send(client, Self.url("www.example.co.uk", "/cookies/echo", peer: peer), jar: jar)
        #expect(echo.success?.statusCode == 200, "the jar's cookies make a sendable field")
    }
}
