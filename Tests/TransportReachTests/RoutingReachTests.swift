import AFStyle
import Chain
import Foundation
import SampleServer
import Testing

/// Issue 25: where connections go, proved against Debian's nginx — its Unix-socket listener,
/// a DNS override under a made-up host name, and HSTS from its `Strict-Transport-Security`.
@Suite("Transport reach: sockets, DNS overrides and HSTS", .timeLimit(.minutes(2)))
struct RoutingReachTests {
    let client = HTTPClient()

    /// `http+unix://` with the socket as the percent-encoded host, through Chain.
    @Test func aGETOverNginxsUnixSocketFromTheURL() async throws {
        let nginx = try await Peers.nginx
        let encoded = try #require(nginx.socketPath.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let marker = unique()
        let result = await withCheckedContinuation { continuation in
            Request.url("http+unix://\(encoded)/hello?\(marker)").response(Hello.self) { continuation.resume(returning: $0) }
        }
        #expect(try result.get().hello == "world")
        let line = try #require(await loggedLine(nginx, containing: marker))
        #expect(line.port == nil, "the request came in on a TCP listener: \(line)")
    }

    /// `.unixSocket(_:)` keeps the URL's host for the `Host` header.
    @Test func theSocketModifierKeepsTheURLsHost() async throws {
        let nginx = try await Peers.nginx
        let result = await withCheckedContinuation { continuation in
            Request.url("http://docker.example/echo-host").unixSocket(nginx.socketPath)
                .responseString { continuation.resume(returning: $0) }
        }
        #expect(try result.get() == "docker.example")
    }

    /// AFStyle: the manager's socket and an `http+unix` URL.
    @Test func theManagerReachesTheSocket() async throws {
        let nginx = try await Peers.nginx
        let manager = HTTPSessionManager(baseURL: URL(string: "http://localhost/"))
        manager.unixSocketPath = nginx.socketPath
        let hello = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Hello, any Error>) in
            manager.GET("hello", as: Hello.self, success: { _, value in continuation.resume(returning: value) },
                        failure: { _, error in continuation.resume(throwing: error) })
        }
        #expect(hello.hello == "world")
        let encoded = try #require(nginx.socketPath.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let plain = HTTPSessionManager()
        let again = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Hello, any Error>) in
            plain.GET("http+unix://\(encoded)/hello", as: Hello.self, success: { _, value in continuation.resume(returning: value) },
                      failure: { _, error in continuation.resume(throwing: error) })
        }
        #expect(again.hello == "world")
    }

    /// Redirects over a socket: a relative `Location` stays on the socket (libcurl's URL parser
    /// knows no `+unix` scheme, so it is resolved against the URL libcurl was given), and a
    /// `Location` naming a Unix socket is refused — a server must not reach a local daemon.
    @Test func redirectsOverASocket() async throws {
        let directory = try temporaryDirectory("socket-redirect")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.sock").path
        let server = try SampleServer(unixSocketPath: path)
        defer { server.stop() }
        let encoded = try #require(path.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let followed = try await client.result(HTTPRequest(url: try #require(URL(string: "http+unix://\(encoded)/redirect/2")))).get()
        #expect(followed.statusCode == 200)
        #expect(followed.timings.redirectCount == 2)
        let intoSocket = "http+unix://\(encoded)/get".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        var bounced = HTTPRequest(url: try #require(URL(string: "http://localhost/redirect-to?url=\(intoSocket)")))
        bounced.unixSocketPath = path
        let refused = try #require(await client.result(bounced).failure)
        #expect(refused.kind == .unsupportedScheme, "\(refused.debugDescription)")
    }

    /// Coalescing × sockets: identical GETs in flight at once over two sockets (nginx's and a
    /// sample server's) are two servers' answers, never one shared transfer.
    @Test func identicalGETsOverTwoSocketsAreNotShared() async throws {
        let nginx = try await Peers.nginx
        let directory = try temporaryDirectory("two-sockets")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.sock").path
        let server = try SampleServer(unixSocketPath: path)
        defer { server.stop() }
        let url = try #require(URL(string: "http://localhost/v1.43/info"))
        for _ in 0..<5 {
            async let overNginx = client.result(HTTPRequest(url: url, unixSocketPath: nginx.socketPath))
            async let overSample = client.result(HTTPRequest(url: url, unixSocketPath: path))
            let (fromNginx, fromSample) = await (overNginx, overSample)
            #expect(fromNginx.success?.statusCode == 404)
            #expect(fromSample.success?.statusCode == 200)
        }
    }

    /// A socket where nothing listens is a typed connection failure, not a hang or a crash.
    @Test func aMissingSocketCannotConnect() async throws {
        let directory = try temporaryDirectory("no-socket")
        defer { try? FileManager.default.removeItem(at: directory) }
        var request = HTTPRequest(url: URL(string: "http://localhost/")!)
        request.unixSocketPath = directory.appendingPathComponent("absent.sock").path
        #expect(await client.result(request).failure?.kind == .cannotConnect)
    }

    /// A made-up name resolved by the client's override reaches nginx over TLS: the name is
    /// what the certificate is checked against and what `Host` says.
    @Test func aDNSOverrideReachesNginxUnderAMadeUpName() async throws {
        let nginx = try await Peers.nginx
        var configuration = HTTPClient.Configuration()
        configuration.resolve(host: "api.chain.test", port: nginx.tlsPort, to: "127.0.0.1")
        let client = HTTPClient(configuration: configuration)
        var request = HTTPRequest(url: nginx.tlsURL("/echo-host", host: "api.chain.test"))
        request.tls.caFile = nginx.caFile
        let response = try await client.result(request).get()
        #expect(response.statusCode == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "api.chain.test:\(nginx.tlsPort)"
            || String(decoding: response.body, as: UTF8.self) == "api.chain.test")
    }

    /// HSTS, opt-in: after nginx's `Strict-Transport-Security` over https, an `http://` request to
    /// the same name goes over TLS — and the store survives a new client through its file.
    /// Without the store, the same `http://` request reaches the TLS port in clear text and
    /// nginx answers 400.
    @Test func hstsUpgradesPlainRequestsAndPersists() async throws {
        let nginx = try await Peers.nginx
        let directory = try temporaryDirectory("hsts")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("hsts.txt")
        func makeClient(hsts: Bool) -> HTTPClient {
            var configuration = HTTPClient.Configuration()
            configuration.resolve(host: "hsts.chain.test", port: nginx.tlsPort, to: "127.0.0.1")
            if hsts { configuration.hstsFile = file }
            return HTTPClient(configuration: configuration)
        }
        let plainURL = try #require(URL(string: "http://hsts.chain.test:\(nginx.tlsPort)/hello"))
        var plain = HTTPRequest(url: plainURL)
        plain.tls.caFile = nginx.caFile
        var secure = HTTPRequest(url: nginx.tlsURL("/hsts", host: "hsts.chain.test"))
        secure.tls.caFile = nginx.caFile

        let withoutStore = makeClient(hsts: false)
        _ = try await withoutStore.result(secure).get()
        #expect(try await withoutStore.result(plain).get().statusCode == 400)

        let first = makeClient(hsts: true)
        #expect(try await first.result(plain).get().statusCode == 400)
        let learned = try await first.result(secure).get()
        #expect(learned.headers["Strict-Transport-Security"] == "max-age=3600")
        let upgraded = try await first.result(plain).get()
        #expect(upgraded.statusCode == 200)
        #expect(upgraded.httpVersion == .http2)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("hsts.chain.test \""), "\(text)")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        let second = makeClient(hsts: true)
        #expect(try await second.result(plain).get().statusCode == 200)
    }
}
