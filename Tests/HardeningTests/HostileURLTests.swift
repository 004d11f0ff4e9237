import AFStyle
import Chain
import Dispatch
import Foundation
import SampleServer
import Testing

/// Hostile URLs and schemes from the caller, through both front ends and the engine: each ends
/// in a clear typed error, nothing crashes, and nothing reaches the server (tests that could
/// connect run against a server of their own and check that it saw no connection at all).
@Suite("Hostile input: URLs and schemes", .timeLimit(.minutes(2)))
struct HostileURLTests {
    static let invalidURLs: [Named<String>] = [
        Named(name: "empty", value: ""),
        Named(name: "blanks", value: "   "),
        Named(name: "no host", value: "http://"),
        Named(name: "space in the host", value: "http:// spaced.example/"),
        Named(name: "space in the scheme", value: "ht tp://x/"),
        Named(name: "unclosed IPv6 bracket", value: "http://[::1"),
        Named(name: "bad percent escape in the host", value: "http://%zz/"),
        Named(name: "port out of range", value: "http://127.0.0.1:99999/get"),
        Named(name: "scheme-relative without a base", value: "//127.0.0.1/get"),
        Named(name: "javascript", value: "javascript:alert(1)"),
    ]

    /// Defence: Chain's URL resolution (`Request.resolveURL`) and, for a port libcurl refuses,
    /// CurlError's URL_MALFORMAT → invalidURL mapping.
    @Test(arguments: invalidURLs)
    func invalidURLThroughChain(_ url: Named<String>) async throws {
        let queue = DispatchQueue(label: "hardening.hostile.url")
        let store = try TemporaryCache()
        defer { store.remove() }
        let (task, log) = startChain(Request.url(url.value)
            .configuration(chainConfiguration(cache: store.cache, queue: queue)).cache(.networkOnly))
        let first = try #require(await log.wait(for: 1).first)
        await settle(cache: store.cache, queue: queue)
        #expect(first.kind == .invalidURL, "\(url.name): \(first)")
        #expect(log.count == 1)
        #expect(task.state == .completed)
        #expect(await store.entryCount == 0)
    }

    /// Defence: `HTTPSessionManager.resolve` (no host → invalidURL, `failure(nil, …)`), the
    /// engine's scheme check, and its URL_MALFORMAT mapping for the out-of-range port.
    @Test(arguments: invalidURLs)
    func invalidURLThroughAFStyle(_ url: Named<String>) async throws {
        let queue = DispatchQueue(label: "hardening.hostile.url.af")
        let manager = makeManager(queue: queue)
        let callbacks = AFCallbacks()
        manager.GET(url.value, success: callbacks.success, failure: callbacks.failure)
        let first = try #require(await callbacks.log.wait(for: 1).first)
        await settle(cache: nil, queue: queue)
        // AFStyle resolves "//host/path" as AFNetworking does (it has a host), so the engine's
        // scheme check refuses it instead: still typed, still before anything is sent.
        let allowed: [NetworkError.Kind] = url.value.hasPrefix("//") ? [.invalidURL, .unsupportedScheme] : [.invalidURL]
        #expect(first.kind.map(allowed.contains) == true, "\(url.name): \(first)")
        #expect(callbacks.log.count == 1)
    }

    static let foreignSchemes: [Named<String>] = [
        "ftp://127.0.0.1/secret", "file://localhost/etc/passwd", "FILE://localhost/etc/passwd",
        "gopher://127.0.0.1/", "dict://127.0.0.1:11211/stat", "ldap://127.0.0.1/", "telnet://127.0.0.1/",
        "smb://127.0.0.1/share", "scp://127.0.0.1/x", "tftp://127.0.0.1/x", "ws://127.0.0.1/socket",
    ].map { Named(name: $0, value: $0) }

    /// Only http and https, in all three entries. Defence: `HTTPClient.validate`'s scheme
    /// check (libcurl's PROTOCOLS_STR "http,https" stands behind it; redirects to other
    /// schemes are covered in the fault suite, where only libcurl can refuse them).
    @Test(arguments: foreignSchemes)
    func unsupportedSchemes(_ url: Named<String>) async throws {
        let queue = DispatchQueue(label: "hardening.hostile.scheme")
        let (_, log) = startChain(Request.url(url.value).configuration(chainConfiguration(queue: queue)))
        let chain = try #require(await log.wait(for: 1).first)
        #expect(chain.kind == .unsupportedScheme, "Chain, \(url.name): \(chain)")

        let callbacks = AFCallbacks()
        makeManager(queue: queue).GET(url.value, success: callbacks.success, failure: callbacks.failure)
        let afStyle = try #require(await callbacks.log.wait(for: 1).first)
        #expect(afStyle.kind == .unsupportedScheme, "AFStyle, \(url.name): \(afStyle)")

        let engine = await Clients.faults.result(HTTPRequest(url: try #require(URL(string: url.value))))
        #expect(engine.failure?.kind == .unsupportedScheme, "HTTPClient, \(url.name)")
        await settle(cache: nil, queue: queue)
        #expect(log.count == 1 && callbacks.log.count == 1)
    }

    /// `file:///etc/passwd` has no host: refused as an invalid URL by the front ends and as an
    /// unsupported scheme by the engine — never read.
    @Test func aFileURLWithoutHostIsNeverRead() async throws {
        let queue = DispatchQueue(label: "hardening.hostile.file")
        let (_, log) = startChain(Request.url("file:///etc/passwd").configuration(chainConfiguration(queue: queue)))
        #expect(try #require(await log.wait(for: 1).first).kind == .invalidURL)
        let engine = await Clients.faults.result(HTTPRequest(url: URL(fileURLWithPath: "/etc/passwd")))
        #expect(engine.failure?.kind == .unsupportedScheme)
    }
}
