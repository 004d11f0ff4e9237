import AFStyle
import Chain
import Dispatch
import Foundation
import SampleServer
import Testing

/// Header and method injection from the caller, through both front ends and the engine: each
/// is refused with a clear typed error before anything is sent (each test runs against a
/// server of its own and checks that it saw no connection at all); line breaks in a URL are
/// percent-encoded, never a second header line.
@Suite("Hostile input: header and method injection", .timeLimit(.minutes(2)))
struct InjectionRefusalTests {
    static let injectedHeaders: [Named<[String]>] = [
        Named(name: "CRLF in a value", value: ["X-Test", "a\r\nX-Injected: 1"]),
        Named(name: "LF in a value", value: ["X-Test", "a\nX-Injected: 1"]),
        Named(name: "CR in a value", value: ["X-Test", "a\rX-Injected: 1"]),
        Named(name: "NUL in a value", value: ["X-Test", "a\u{0}b"]),
        Named(name: "CRLF in a name", value: ["X-Test: 1\r\nX-Injected", "1"]),
        Named(name: "colon in a name", value: ["X-Test:", "1"]),
        Named(name: "space in a name", value: ["X Test", "1"]),
        Named(name: "empty name", value: ["", "1"]),
        Named(name: "non-ASCII name", value: ["X-Tést", "1"]),
        Named(name: "a request line smuggled in a value", value: ["X-Test", "1\r\n\r\nGET /admin HTTP/1.1\r\nHost: x"]),
    ]

    /// Header injection is refused before anything is sent, through every way a header gets
    /// in. Defence: `HTTPHeaders.firstUnsafeField()` checked in `HTTPClient.validate`.
    @Test(arguments: injectedHeaders)
    func headerInjectionIsRefused(_ header: Named<[String]>) async throws {
        let server = try SampleServer(port: 0)
        defer { server.stop() }
        let url = server.baseURL.absoluteString + "/headers"
        let (name, value) = (header.value[0], header.value[1])
        let queue = DispatchQueue(label: "hardening.hostile.header")
        let store = try TemporaryCache()
        defer { store.remove() }
        var outcomes: [(String, Outcome?)] = []

        let configuration = chainConfiguration(cache: store.cache, queue: queue)
        let (_, chainLog) = startChain(Request.url(url).configuration(configuration).cache(.networkOnly).header(name, value))
        outcomes.append(("Chain .header", await chainLog.wait(for: 1).first))

        var configured = configuration
        configured.headers.add(name: name, value: value)
        let (_, defaultsLog) = startChain(Request.url(url).configuration(configured))
        outcomes.append(("Chain configuration headers", await defaultsLog.wait(for: 1).first))

        if name == "X-Test" {
            let (_, typeLog) = startChain(Request.url(url).configuration(configuration).method(.post)
                .body(Data("x".utf8), contentType: value))
            outcomes.append(("Chain body content type", await typeLog.wait(for: 1).first))
        }

        let perCall = AFCallbacks()
        makeManager(queue: queue).GET(url, headers: [name: value], success: perCall.success, failure: perCall.failure)
        outcomes.append(("AFStyle headers:", await perCall.log.wait(for: 1).first))

        let serializer = AFCallbacks()
        let manager = makeManager(queue: queue)
        manager.requestSerializer.setValue(value, forHTTPHeaderField: name)
        manager.GET(url, success: serializer.success, failure: serializer.failure)
        outcomes.append(("AFStyle requestSerializer", await serializer.log.wait(for: 1).first))

        var request = try HTTPRequest(url)
        request.headers.add(name: name, value: value)
        let engine = await Clients.faults.result(request)
        outcomes.append(("HTTPClient", engine.failure.map(Outcome.failure)))

        for (entry, outcome) in outcomes {
            #expect(outcome?.kind == .invalidRequest, "\(header.name) through \(entry): \(outcome.map(String.init(describing:)) ?? "no callback")")
        }
        #expect(server.acceptedConnections == 0, "\(header.name): a request reached the server")
        #expect(await store.entryCount == 0)
    }

    static let injectedMethods: [Named<String>] = [
        Named(name: "a whole request line", value: "GET /admin HTTP/1.1\r\nHost: evil\r\n\r\nGET"),
        Named(name: "empty", value: ""),
        Named(name: "space", value: "G ET"),
        Named(name: "NUL", value: "GET\u{0}"),
        Named(name: "LF", value: "GET\n"),
    ]

    /// Defence: `HTTPMethod.isValidToken` checked in `HTTPClient.validate`.
    @Test(arguments: injectedMethods)
    func methodInjectionIsRefused(_ method: Named<String>) async throws {
        let server = try SampleServer(port: 0)
        defer { server.stop() }
        let url = server.baseURL.absoluteString + "/anything"
        let queue = DispatchQueue(label: "hardening.hostile.method")
        let (_, log) = startChain(Request.url(url).configuration(chainConfiguration(queue: queue))
            .method(HTTPMethod(rawValue: method.value)))
        #expect(try #require(await log.wait(for: 1).first).kind == .invalidRequest, "Chain, \(method.name)")
        let callbacks = AFCallbacks()
        makeManager(queue: queue).dataTask(HTTPMethod(rawValue: method.value), url,
                                           success: callbacks.success, failure: callbacks.failure)
        #expect(try #require(await callbacks.log.wait(for: 1).first).kind == .invalidRequest, "AFStyle, \(method.name)")
        #expect(server.acceptedConnections == 0)
    }

    /// CR and LF in a URL are percent-encoded by URL parsing, so they can never split the
    /// request line. Defence: Foundation's `URL(string:)` encoding plus libcurl's URL parser
    /// (a raw CR or LF would reach the server as a second header line).
    @Test func lineBreaksInAURLArePercentEncoded() async throws {
        let queue = DispatchQueue(label: "hardening.hostile.urlcrlf")
        let url = try TestServer.url("/anything/a\r\nX-Injected: 1")
        let body = await withCheckedContinuation { continuation in
            Request.url(url).configuration(chainConfiguration(queue: queue)).responseJSON { result in
                continuation.resume(returning: (try? result.get()).flatMap { $0 as? [String: Any] }.map(JSONBox.init))
            }
        }
        let echo = try #require(body?.object)
        let headers = try #require(echo["headers"] as? [String: Any])
        #expect(!headers.keys.contains { $0.lowercased() == "x-injected" })
        #expect((echo["path"] as? String)?.contains("%0D%0A") == true, "\(echo["path"] ?? "no path")")
    }
}
