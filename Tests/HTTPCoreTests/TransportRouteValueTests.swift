@testable import Cache
@testable import CurlTransport
import Foundation
@testable import HTTPCore
@testable import HTTPFeatures
import Testing

/// The values of the transport's reach — proxies, Unix sockets, DNS overrides, the HSTS file —
/// as the engine reads them, without I/O. The peers prove them in TransportReachTests.
@Suite("Transport route values")
struct TransportRouteValueTests {
    // MARK: Unix sockets

    @Test("an http+unix URL names the socket as its host and is sent to localhost")
    func unixURL() throws {
        let url = try #require(URL(string: "http+unix://%2Fvar%2Frun%2Fdocker.sock/v1.43/info?all=1"))
        let target = try TransferTarget(url: url)
        #expect(target.unixSocketPath == "/var/run/docker.sock")
        #expect(target.urlString == "http://localhost/v1.43/info?all=1")
        #expect(target.hostKey.description == "unix:/var/run/docker.sock http://localhost:-1")
        #expect(!target.isHTTPS)
        let bare = try TransferTarget(url: try #require(URL(string: "https+unix://%2Ftmp%2Fs")))
        #expect(bare.urlString == "https://localhost/")
        #expect(bare.isHTTPS)
    }

    @Test("the request's socket wins over the URL's; two sockets are two hosts")
    func requestSocket() throws {
        let url = try #require(URL(string: "http+unix://%2Ftmp%2Fa.sock/x"))
        #expect(try TransferTarget(url: url, unixSocketPath: "/tmp/b.sock").unixSocketPath == "/tmp/b.sock")
        let plain = try #require(URL(string: "http://localhost/x"))
        let one = try TransferTarget(url: plain, unixSocketPath: "/tmp/a.sock")
        let other = try TransferTarget(url: plain, unixSocketPath: "/tmp/b.sock")
        #expect(one.hostKey != other.hostKey)
        #expect(one.urlString == "http://localhost/x")
    }

    @Test("a socket path libcurl cannot use, and an http+unix URL without a path as host, are refused",
          arguments: ["", String(repeating: "a", count: 108), "/tmp/a\u{0}b"])
    func badSocketPath(path: String) throws {
        let url = try #require(URL(string: "http://localhost/"))
        #expect(throws: NetworkError.self) { try TransferTarget(url: url, unixSocketPath: path) }
        do {
            _ = try TransferTarget(url: url, unixSocketPath: path)
        } catch {
            #expect(error.kind == .invalidRequest)
        }
    }

    @Test("an http+unix URL whose host is no absolute path is an invalid URL",
          arguments: ["http+unix://relative.sock/x", "http+unix://%2Ftmp%2Fs:80/x"])
    func badUnixURL(text: String) throws {
        let url = try #require(URL(string: text))
        do {
            _ = try TransferTarget(url: url)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.kind == .invalidURL, "\(error)")
        }
    }

    // MARK: Proxies

    @Test("a proxy is given to libcurl without credentials; the description never shows the password")
    func proxyURL() {
        let credentials = ProxyCredentials(user: "me", password: "hunter2")
        #expect(Proxy.http(host: "proxy.corp", port: 3128).curlProxyURL == "http://proxy.corp:3128")
        #expect(Proxy.https(host: "p", port: 443, credentials: credentials).curlProxyURL == "https://p:443")
        #expect(Proxy.socks5(host: "::1", port: 1080).curlProxyURL == "socks5h://[::1]:1080")
        #expect(Proxy.environment.curlProxyURL == nil)
        #expect(Proxy.none.curlProxyURL == "")
        let proxy = Proxy.http(host: "p", port: 1, credentials: credentials)
        #expect(!"\(proxy)".contains("hunter2"))
        #expect(!"\(credentials)".contains("hunter2"))
        #expect(!String(reflecting: proxy).contains("hunter2"))
        var dumped = ""
        dump(proxy, to: &dumped)
        #expect(!dumped.contains("hunter2"), "\(dumped)")
        #expect(dumped.contains("me"))
    }

    @Test("curl's bypass rules: *, the name and its subdomains, a leading dot")
    func bypassMatching() {
        #expect(Proxy.bypassList(["example.com"], matches: "example.com"))
        #expect(Proxy.bypassList([" .Example.com"], matches: "api.example.com"))
        #expect(!Proxy.bypassList(["example.com"], matches: "badexample.com"))
        #expect(Proxy.bypassList(["*"], matches: "anything"))
        #expect(!Proxy.bypassList(["", "10.0.0.0/8"], matches: "10.1.2.3"))
    }

    @Test("libcurl's messages lose the user information of the URLs they quote")
    func messagesWithoutCredentials() {
        #expect(CurlError.withoutURLCredentials("Unsupported proxy scheme for 'socks6://u:secret@h:1'")
            == "Unsupported proxy scheme for 'socks6://h:1'")
        #expect(CurlError.withoutURLCredentials("a http://u:p@a/x and https://b@c?d") == "a http://a/x and https://c?d")
        #expect(CurlError.withoutURLCredentials("no URL @ here") == "no URL @ here")
        #expect(CurlError.withoutURLCredentials("http://user:pw@proxy:3128") == "http://proxy:3128")
    }

    @Test("a proxy libcurl would misread is refused before anything is sent",
          arguments: [Proxy.http(host: "", port: 80), .http(host: "p", port: 0), .http(host: "p", port: 70000),
                      .http(host: "p?x", port: 80), .http(host: "p#x", port: 80),
                      .http(host: "p\r\nX: y", port: 80), .socks5(host: "a b", port: 1080),
                      Proxy.http(host: "p", port: 80).bypassing(["a,b"]), .http(host: "user@p", port: 80)])
    func badProxy(proxy: Proxy) {
        do {
            try proxy.validate()
            Issue.record("accepted \(proxy)")
        } catch {
            #expect(error.kind == .invalidRequest)
        }
    }

    @Test("the curl rendering shows the proxy with its password redacted, the bypass list and the socket")
    func curlRendering() throws {
        var request = HTTPRequest(url: try #require(URL(string: "http+unix://%2Fvar%2Frun%2Fdocker.sock/v1.43/info")))
        request.proxy = Proxy.http(host: "proxy", port: 3128,
                                   credentials: ProxyCredentials(user: "me", password: "pass word", scheme: .digest))
            .bypassing(["internal.example"])
        let command = request.curlCommand(multiline: false)
        #expect(command.contains("-x 'http://proxy:3128'"), "\(command)")
        #expect(command.contains("--proxy-user 'me:***'"), "\(command)")
        #expect(!command.contains("pass word"), "\(command)")
        #expect(command.contains("--proxy-digest"), "\(command)")
        #expect(command.contains("--noproxy 'internal.example'"), "\(command)")
        #expect(command.contains("--unix-socket '/var/run/docker.sock'"), "\(command)")
        #expect(command.hasSuffix("'http://localhost/v1.43/info'"), "\(command)")
        // A redaction of its own that does not name Proxy-Authorization still hides the password.
        let custom = Redaction(headerNames: ["x-secret"], parameterNames: ["pin"])
        #expect(!request.curlCommand(redacting: custom, multiline: false).contains("pass word"))
        #expect(request.curlCommand(redacting: .none, multiline: false).contains("--proxy-user 'me:pass word'"))
        request.proxy = .none
        #expect(request.curlCommand(multiline: false).contains("--noproxy '*'"))
        let shown = request.curlCommand(redacting: .none, multiline: false)
        #expect(!shown.contains("-x "))
    }

    // MARK: Cache keys

    @Test("the socket path and the proxy's credentials are part of the cache key")
    func cacheKeys() throws {
        let url = try #require(URL(string: "http://localhost/info"))
        let plain = try #require(CacheKey(request: HTTPRequest(url: url)))
        let overA = try #require(CacheKey(request: HTTPRequest(url: url, unixSocketPath: "/tmp/a.sock")))
        let overB = try #require(CacheKey(request: HTTPRequest(url: url, unixSocketPath: "/tmp/b.sock")))
        #expect(Set([plain, overA, overB]).count == 3)
        let viaUser1 = try #require(CacheKey(request: HTTPRequest(
            url: url, proxy: .http(host: "p", port: 1, credentials: ProxyCredentials(user: "u1", password: "x")))))
        let viaUser2 = try #require(CacheKey(request: HTTPRequest(
            url: url, proxy: .http(host: "p", port: 1, credentials: ProxyCredentials(user: "u2", password: "x")))))
        let viaNobody = try #require(CacheKey(request: HTTPRequest(url: url, proxy: .http(host: "p", port: 1))))
        #expect(viaUser1 != viaUser2)
        #expect(viaNobody == plain)
        #expect(!viaUser1.rawValue.contains("u1"))
    }

    @Test("the traffic coalescer tells requests apart by socket and by proxy (it compares every field)")
    func coalescingKey() throws {
        let url = try #require(URL(string: "http://localhost/info"))
        let overA = HTTPRequest(url: url, unixSocketPath: "/tmp/a.sock")
        let overB = HTTPRequest(url: url, unixSocketPath: "/tmp/b.sock")
        let viaProxy = HTTPRequest(url: url, proxy: .http(host: "p", port: 1))
        #expect(TransferCoalescer.canCoalesce(overA))
        #expect(overA.fields != overB.fields)
        #expect(overA.fields != HTTPRequest(url: url).fields)
        #expect(viaProxy.fields != HTTPRequest(url: url).fields)
        #expect(overA.fields == HTTPRequest(url: url, unixSocketPath: "/tmp/a.sock").fields)
    }

    // MARK: DNS overrides

    @Test("DNS overrides become libcurl's resolve lines; IPv6 in brackets; a later one replaces an earlier")
    func resolveLines() throws {
        var configuration = HTTPClient.Configuration()
        configuration.resolve(host: "api.example.com", port: 443, to: "10.0.0.7", "::1")
        configuration.resolve(host: "API.example.com", port: 443, to: "10.0.0.8")
        configuration.resolve(host: "api.example.com", port: 80, to: "[fe80::1]")
        #expect(configuration.dnsOverrides.count == 2)
        let lines = try configuration.dnsOverrides.map { try $0.curlResolveEntry() }
        #expect(lines == ["API.example.com:443:10.0.0.8", "api.example.com:80:[fe80::1]"])
        #expect(try DNSOverride(host: "h", port: 1, addresses: ["10.0.0.7", "::ffff:10.0.0.1"]).curlResolveEntry()
            == "h:1:10.0.0.7,[::ffff:10.0.0.1]")
    }

    @Test("an invalid DNS override is refused with a message naming it", arguments: [
        DNSOverride(host: "", port: 443, addresses: ["127.0.0.1"]),
        DNSOverride(host: "a:b", port: 443, addresses: ["127.0.0.1"]),
        DNSOverride(host: "h", port: 0, addresses: ["127.0.0.1"]),
        DNSOverride(host: "h", port: 443, addresses: []),
        DNSOverride(host: "h", port: 443, addresses: ["localhost"]),
        DNSOverride(host: "h", port: 443, addresses: ["256.1.1.1"]),
        DNSOverride(host: "h", port: 443, addresses: ["01.1.1.1"]),
        DNSOverride(host: "h", port: 443, addresses: ["1::2::3"]),
        DNSOverride(host: "h\nX", port: 443, addresses: ["127.0.0.1"]),
    ])
    func badOverride(override: DNSOverride) {
        do {
            _ = try override.curlResolveEntry()
            Issue.record("accepted \(override)")
        } catch {
            #expect(error.kind == .invalidRequest)
        }
    }

    @Test("a client with an invalid DNS override fails every request with .invalidRequest, sending nothing")
    func clientWithBadOverride() async throws {
        var configuration = HTTPClient.Configuration()
        configuration.resolve(host: "h", port: 80, to: "not-an-address")
        let client = HTTPClient(configuration: configuration)
        let result = await client.result(HTTPRequest(url: try #require(URL(string: "http://h/"))))
        #expect(result.failure?.kind == .invalidRequest)
        #expect(result.failure?.message.contains("not-an-address") == true)
    }

    // MARK: The HSTS file

    @Test("the HSTS file: comments, subdomain dots, expired entries and broken lines")
    func hstsParse() throws {
        let now = try #require(ISO8601DateFormatter().date(from: "2026-12-02T12:00:00Z"))
        let text = """
            # a comment
            chain.test "20261202 13:00:00"
            .example.org "20300101 00:00:00"
            old.example "20261202 11:59:59"
            forever.example "unlimited"
            broken.example 20300101 00:00:00
            bad-date.example "2030-01-01"
              spaced.example "20300101 00:00:00"
            """
        let entries = CurlHSTSStore.parse(text, now: now)
        #expect(entries.map(\.host) == ["chain.test", "example.org", "forever.example", "spaced.example"])
        #expect(entries.map(\.includesSubdomains) == [false, true, false, false])
        #expect(entries.first?.expiry == "20261202 13:00:00")
    }
}
