import AFStyle
import Chain
import Foundation
import Testing

/// Issue 25: explicit proxies, proved against peers we did not write — tinyproxy (HTTP, with and
/// without Basic credentials), tinyproxy behind a TLS relay (an `https://` proxy) and dante
/// (SOCKS5 with user name authentication) — each in front of Debian's nginx.
@Suite("Transport reach: proxies", .timeLimit(.minutes(2)))
struct ProxyReachTests {
    let client = HTTPClient()

    private func proxyCredentials() -> ProxyCredentials {
        ProxyCredentials(user: TinyproxyPeer.user, password: TinyproxyPeer.password)
    }

    /// A plain `http` request goes to tinyproxy in absolute form and reaches nginx.
    @Test func anHTTPProxyForwardsAPlainRequest() async throws {
        let (nginx, proxy) = try await (Peers.nginx, Peers.tinyproxy)
        let marker = unique()
        var request = HTTPRequest(url: nginx.httpURL("/hello?\(marker)"))
        request.proxy = .http(host: "127.0.0.1", port: proxy.port)
        let response = try await client.result(request).get()
        #expect(response.statusCode == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"hello":"world"}"#)
        #expect(proxy.requestLines().contains { $0.hasPrefix("GET http://127.0.0.1:\(nginx.httpPort)/hello?\(marker)") },
                "\(proxy.requestLines().suffix(3))")
        #expect(await loggedLine(nginx, containing: marker) != nil)
    }

    /// An `https` origin through an HTTP proxy is a `CONNECT` tunnel; TLS (and HTTP/2) runs
    /// end to end inside it.
    @Test func anHTTPProxyTunnelsTLS() async throws {
        let (nginx, proxy) = try await (Peers.nginx, Peers.tinyproxy)
        let marker = unique()
        var request = HTTPRequest(url: nginx.tlsURL("/hello?\(marker)"))
        request.tls.caFile = nginx.caFile
        request.proxy = .http(host: "127.0.0.1", port: proxy.port)
        let response = try await client.result(request).get()
        #expect(response.statusCode == 200)
        #expect(response.httpVersion == .http2)
        #expect(proxy.requestLines().contains { $0.hasPrefix("CONNECT 127.0.0.1:\(nginx.tlsPort)") })
        #expect(await loggedLine(nginx, containing: marker)?.port == nginx.tlsPort)
    }

    /// Basic credentials are accepted by the authenticating tinyproxy, through Chain's modifier.
    @Test func credentialsAreSentToTheProxy() async throws {
        let (nginx, proxy) = try await (Peers.nginx, Peers.authenticatingTinyproxy)
        let marker = unique()
        let result = await withCheckedContinuation { continuation in
            Request.url(nginx.httpURL("/hello?\(marker)").absoluteString)
                .proxy(.http(host: "127.0.0.1", port: proxy.port, credentials: proxyCredentials()))
                .responseData { continuation.resume(returning: $0) }
        }
        #expect(try result.get().count > 0)
        #expect(await loggedLine(nginx, containing: marker) != nil)
    }

    /// Without credentials, or with wrong ones, the proxy's refusal is the typed error naming
    /// the proxy — for a tunnel (the answer to `CONNECT` is the proxy's whatever its status)
    /// and for a forwarded request answered 407 — and nothing reaches nginx. tinyproxy 1.11
    /// answers wrong credentials on a forwarded request with 401, which cannot be told from
    /// the origin's own 401: that one is delivered as the response it is.
    @Test(arguments: [false, true])
    func aRefusingProxyIsATypedErrorNamingIt(tunnel: Bool) async throws {
        let (nginx, proxy) = try await (Peers.nginx, Peers.authenticatingTinyproxy)
        for credentials in [nil, ProxyCredentials(user: TinyproxyPeer.user, password: "wrong")] {
            let marker = unique()
            var request = HTTPRequest(url: tunnel ? nginx.tlsURL("/hello?\(marker)") : nginx.httpURL("/hello?\(marker)"))
            request.tls.caFile = nginx.caFile
            request.proxy = .http(host: "127.0.0.1", port: proxy.port, credentials: credentials)
            let result = await client.result(request)
            #expect(!nginx.accessLog().contains { $0.target.contains(marker) })
            if !tunnel, credentials != nil {
                #expect(result.success?.statusCode == 401)
                #expect(result.success?.headers["Server"]?.hasPrefix("tinyproxy") == true)
                continue
            }
            let error = try #require(result.failure, "\(result.success.map { "\($0.statusCode)" } ?? "")")
            guard case .proxyAuthenticationRequired(let named) = error.kind else {
                Issue.record("\(error.debugDescription)")
                continue
            }
            #expect(named == "http://127.0.0.1:\(proxy.port)")
            #expect(error.message.contains(credentials == nil ? "wants credentials" : "refused the credentials"), "\(error.message)")
            #expect(!error.description.contains("wrong"))
            if !tunnel { #expect(error.statusCode == 407) }
        }
    }

    /// A host on the bypass list is reached directly; others still go through the proxy.
    @Test func theBypassListGoesDirect() async throws {
        let (nginx, proxy) = try await (Peers.nginx, Peers.tinyproxy)
        let direct = unique(), proxied = unique()
        let viaProxy = Proxy.http(host: "127.0.0.1", port: proxy.port).bypassing(["localhost"])
        var bypassed = HTTPRequest(url: try #require(URL(string: "http://localhost:\(nginx.httpPort)/hello?\(direct)")))
        bypassed.proxy = viaProxy
        var through = HTTPRequest(url: nginx.httpURL("/hello?\(proxied)"))
        through.proxy = viaProxy
        #expect(try await client.result(bypassed).get().statusCode == 200)
        #expect(try await client.result(through).get().statusCode == 200)
        let lines = proxy.requestLines()
        #expect(!lines.contains { $0.contains(direct) })
        #expect(lines.contains { $0.contains(proxied) })
    }

    /// A `CONNECT` carries our User-Agent (libcurl sends none of the origin's lines to the proxy).
    @Test func theTunnelRequestCarriesOurUserAgent() async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        var request = HTTPRequest(url: URL(string: "https://proxy-403.test/")!)
        request.proxy = .http(host: "127.0.0.1", port: peer.port)
        let error = try #require(await client.result(request).failure)
        #expect(error.kind == .cannotConnect)
        #expect(error.message.contains("http://127.0.0.1:\(peer.port)"), "\(error.message)")
        let connect = try #require(peer.recordedRequests().first { $0.method == "CONNECT" })
        #expect(connect.header("User-Agent") == HTTPClient.defaultUserAgent)
    }

    /// An `https://` proxy: TLS to the proxy (verified with its own CA file), then the tunnel.
    /// A proxy CA that does not match fails with `.tls`, a wrong pin too.
    @Test func anHTTPSProxyIsVerifiedWithItsOwnTLSOptions() async throws {
        let (nginx, proxy) = try await (Peers.nginx, Peers.tinyproxy)
        let relay = try await TLSRelayPeer.start(inFrontOf: proxy)
        defer { relay.stop() }
        let marker = unique()
        var request = HTTPRequest(url: nginx.httpURL("/hello?\(marker)"))
        request.proxy = .https(host: "127.0.0.1", port: relay.port,
                               tls: TLSOptions(caFile: relay.caFile, pinnedPublicKey: relay.ca.serverKeyPin))
        #expect(try await client.result(request).get().statusCode == 200)
        #expect(proxy.requestLines().contains { $0.contains(marker) })

        request.proxy = .https(host: "127.0.0.1", port: relay.port)  // the system store: our CA is unknown
        #expect(await client.result(request).failure?.kind == .tls)
        request.proxy = .https(host: "127.0.0.1", port: relay.port,
                               tls: TLSOptions(caFile: relay.caFile, pinnedPublicKey: relay.ca.unrelatedKeyPin))
        #expect(await client.result(request).failure?.kind == .tls)
    }

    /// SOCKS5 with user name authentication (dante): the right password reaches nginx, the host
    /// name is resolved by the proxy (`socks5h`), and a wrong password is the typed error.
    @Test func socks5WithCredentials() async throws {
        let (nginx, dante) = try await (Peers.nginx, Peers.dante)
        let marker = unique()
        var request = HTTPRequest(url: try #require(URL(string: "http://localhost:\(nginx.httpPort)/hello?\(marker)")))
        request.proxy = .socks5(host: "127.0.0.1", port: dante.port,
                                credentials: ProxyCredentials(user: DantePeer.user, password: DantePeer.password))
        let response = try await client.result(request).get()
        #expect(response.statusCode == 200)
        #expect(await loggedLine(nginx, containing: marker) != nil)

        request.proxy = .socks5(host: "127.0.0.1", port: dante.port,
                                credentials: ProxyCredentials(user: DantePeer.user, password: "wrong"))
        let error = try #require(await client.result(request).failure)
        guard case .proxyAuthenticationRequired(let named) = error.kind else {
            Issue.record("\(error.debugDescription)")
            return
        }
        #expect(named == "socks5h://127.0.0.1:\(dante.port)")
    }

    /// AFStyle's manager setting takes the same path: its calls go through the proxy.
    @Test func theManagersProxyIsUsed() async throws {
        let (nginx, proxy) = try await (Peers.nginx, Peers.authenticatingTinyproxy)
        let manager = HTTPSessionManager(baseURL: nginx.httpURL("/"))
        manager.proxy = .http(host: "127.0.0.1", port: proxy.port, credentials: proxyCredentials())
        let marker = unique()
        let hello = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Hello, any Error>) in
            manager.GET("hello", parameters: ["m": marker], as: Hello.self,
                        success: { _, value in continuation.resume(returning: value) },
                        failure: { _, error in continuation.resume(throwing: error) })
        }
        #expect(hello.hello == "world")
        #expect(proxy.requestLines().contains { $0.contains(marker) })
    }

    /// The environment's variables apply by default and `.none` ignores them: checked in a
    /// child process of this bundle whose `http_proxy` names a port where nothing listens
    /// (set here, the variable would route the suites running in parallel through it).
    @Test(.enabled(if: ProcessInfo.processInfo.environment[Self.childVariable] == nil))
    func noneIgnoresTheEnvironmentsProxy() async throws {
        let closedPort = try PeerProcess.refusingPort()
        var environment = ProcessInfo.processInfo.environment
        environment[Self.childVariable] = "1"
        environment["http_proxy"] = "http://127.0.0.1:\(closedPort)"
        for name in ["no_proxy", "NO_PROXY", "all_proxy", "ALL_PROXY"] { environment[name] = nil }
        let output = try await runThisBundle(filter: "ProxyReachTests/inAChildProcess", environment: environment)
        #expect(output.contains("child: environment proxy refused, none went direct"), "\(output)")
    }

    static let childVariable = "CHAIN_PROXY_ENVIRONMENT_CHILD"

    /// The child's half: the default goes to the dead proxy, `.none` reaches nginx.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[Self.childVariable] != nil))
    func inAChildProcess() async throws {
        let nginx = try await Peers.nginx
        var request = HTTPRequest(url: nginx.httpURL("/hello?\(unique())"))
        let viaEnvironment = try #require(await client.result(request).failure)
        #expect(viaEnvironment.kind == .cannotConnect, "\(viaEnvironment.debugDescription)")
        request.proxy = .none
        let direct = try await client.result(request).get()
        #expect(direct.statusCode == 200)
        if viaEnvironment.kind == .cannotConnect, direct.statusCode == 200 {
            print("child: environment proxy refused, none went direct")
        }
    }
}

struct Hello: Decodable, Sendable {
    let hello: String
}
