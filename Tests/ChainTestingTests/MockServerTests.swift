import ChainTesting
import Foundation
import Testing
import TestSupport

/// The kit's server against Chain's real engine: queue, dispatcher, recorded requests, the
/// options and the faults, each seen by a client over a real connection.
@Suite("MockServer")
struct MockServerTests {
    private func configuration(idle: TimeInterval = 60) -> ChainConfiguration {
        var configuration = ChainConfiguration(client: HTTPClient(configuration: .init()), timeouts: Timeouts(idle: idle))
        configuration.cookieJar = nil
        configuration.proxy = .none
        return configuration
    }

    @Test("queued responses answer in order; takeRequest returns what was sent, with reuse")
    func queueAndRecord() async throws {
        let server = try MockServer()
        server.enqueue(.json(#"{"id":"101","name":"wiki"}"#))
        server.enqueue(MockResponse(status: 201, headers: ["X-Seen": "yes"], body: Data("made".utf8)))
        let api = configuration()
        struct User: Decodable, Sendable { let id: String; let name: String }
        let user = try await api.url(server.url("/user/101?fields=name&x=a%20b").absoluteString).value(User.self)
        #expect(user.name == "wiki")
        let text = try await api.url(server.url("/items").absoluteString).method(.post)
            .params(["name": "box", "count": 2]).encoding(.json).string()
        #expect(text == "made")

        let first = try await server.takeRequest()
        #expect(first.method == .get)
        #expect(first.path == "/user/101")
        #expect(first.queryValue("fields") == "name")
        #expect(first.queryValue("x") == "a b")
        #expect(first.sequenceNumber == 0)
        #expect(!first.isConnectionReused)
        let second = try await server.takeRequest()
        #expect(second.method == .post)
        #expect(second.headers["Content-Type"]?.hasPrefix("application/json") == true)
        struct Item: Decodable { let name: String; let count: Int }
        #expect(try second.decodeBody(Item.self).count == 2)
        #expect(second.sequenceNumber == 1)
        #expect(second.isConnectionReused)
        #expect(second.connectionNumber == first.connectionNumber)
        #expect(server.requestCount == 2)
        #expect(server.queuedResponseCount == 0)
    }

    @Test("with nothing queued the answer is a 500 naming the request")
    func unanswered() async throws {
        let server = try MockServer()
        let error = await #expect(throws: NetworkError.self) {
            try await configuration().url(server.url("/nothing").absoluteString).data()
        }
        #expect(error?.statusCode == 500)
        #expect(error?.response.map { String(decoding: $0.body, as: UTF8.self) }?.contains("GET /nothing") == true)
    }

    @Test("a dispatcher answers by request, and what it throws is a 500")
    func dispatcher() async throws {
        let server = try MockServer()
        struct Refused: Error {}
        server.dispatcher = { request in
            if request.path == "/boom" { throw Refused() }
            return .text("you asked for \(request.path)")
        }
        let api = configuration()
        #expect(try await api.url(server.url("/a/b").absoluteString).string() == "you asked for /a/b")
        let error = await #expect(throws: NetworkError.self) { try await api.url(server.url("/boom").absoluteString).data() }
        #expect(error?.statusCode == 500)
    }

    @Test("takeRequest times out cleanly, blocking and async")
    func takeTimesOut() async throws {
        let server = try MockServer()
        await #expect(throws: MockServerError.noRequest(seconds: 0.05)) { try await server.takeRequest(timeout: 0.05) }
        let blocking = await offPool { Result { () throws(MockServerError) in try server.takeRequest(timeout: 0.05) } }
        #expect(throws: MockServerError.noRequest(seconds: 0.05)) { try blocking.get() }
        await #expect(throws: MockServerError.self) { try await server.takeRequest(timeout: .nan) }
    }

    @Test("a waiting takeRequest gets the request that arrives later")
    func takeWaits() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(status: 204))
        let taken = Task { try await server.takeRequest(timeout: 30) }
        try await configuration().url(server.url("/later").absoluteString).response()
        #expect(try await taken.value.path == "/later")
    }

    @Test("disconnectAfterRequest really closes the connection: the client sees connectionLost")
    func disconnectAfterRequest() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(options: [.disconnectAfterRequest]))
        let error = await #expect(throws: NetworkError.self) { try await configuration().url(server.url("/x").absoluteString).data() }
        #expect(error?.kind == .connectionLost)
        #expect(try await server.takeRequest().path == "/x")
    }

    @Test("disconnectDuringBody cuts the body: the client sees truncatedResponse")
    func disconnectDuringBody() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(body: Data(repeating: 1, count: 10_000), options: [.disconnectDuringBody]))
        let error = await #expect(throws: NetworkError.self) { try await configuration().url(server.url("/x").absoluteString).data() }
        #expect(error?.kind == .truncatedResponse)
    }

    @Test("noResponse holds the request until the client's idle timeout")
    func noResponse() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(options: [.noResponse]))
        let error = await #expect(throws: NetworkError.self) {
            try await configuration(idle: 0.3).url(server.url("/x").absoluteString).data()
        }
        #expect(error?.kind == .timedOut)
    }

    @Test("a delay and a throttle are seen by the client: the body arrives whole, later")
    func delayAndThrottle() async throws {
        let server = try MockServer()
        let body = Data((0..<3000).map { UInt8($0 % 251) })
        server.enqueue(MockResponse(body: body, options: [.delay(0.2), .throttle(bytesPerSecond: 10_000)]))
        let clock = ContinuousClock()
        let start = clock.now
        let received = try await configuration().url(server.url("/slow").absoluteString).data()
        #expect(received == body)
        // 0.2 s of delay, then 3,000 bytes at 10,000 per second in 0.1 s pieces (0.2 s of waits).
        #expect(clock.now - start >= .milliseconds(350))
        server.enqueue(MockResponse(options: [.delay(.infinity), .delay(-1), .throttle(bytesPerSecond: 0)]))
        try await configuration().url(server.url("/hostile-options").absoluteString).response()
    }

    @Test("HEAD and 204 answers carry no body; framing headers given by the test are the server's")
    func framingIsTheServers() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(headers: ["Content-Length": "999", "X-Kept": "1"], body: Data("abc".utf8)))
        server.enqueue(MockResponse(status: 204, body: Data("ignored".utf8)))
        let api = configuration()
        #expect(try await api.url(server.url("/a").absoluteString).data() == Data("abc".utf8))
        #expect(try await api.url(server.url("/b").absoluteString).data().isEmpty)
    }

    @Test("url(_:) adds the slash and encodes what a URL cannot hold")
    func urls() throws {
        let server = try MockServer()
        #expect(server.url("users").absoluteString == "http://127.0.0.1:\(server.port)/users")
        #expect(server.url("/a b?q=1").absoluteString == "http://127.0.0.1:\(server.port)/a%20b?q=1")
    }

    @Test("shutdown ends a request waiting on noResponse and is idempotent")
    func shutdown() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(options: [.noResponse]))
        let call = Task { try await configuration().url(server.url("/held").absoluteString).data() }
        _ = try await server.takeRequest(timeout: 30)
        server.shutdown()
        server.shutdown()
        let result = await call.result
        #expect(throws: NetworkError.self) { try result.get() }
    }
}

@Suite("MockServer over TLS")
struct MockServerTLSTests {
    @Test("HTTPS with the certificate made at start: verified, recorded, reused; refused without it")
    func https() async throws {
        let server = try MockServer(tls: true)
        #expect(server.baseURL.scheme == "https")
        let certificate = try #require(server.certificateURL)
        #expect(FileManager.default.fileExists(atPath: certificate.path))
        server.enqueue(.json(#"{"ok":true}"#))
        server.enqueue(.text("again"))
        var api = ChainConfiguration(client: HTTPClient(configuration: .init()))
        api.cookieJar = nil
        api.proxy = .none
        api.tls = server.tlsOptions
        #expect(try await api.url(server.url("/secure?a=1")).string() == #"{"ok":true}"#)
        #expect(try await api.url(server.url("/secure")).method(.post).body(Data("payload".utf8)).string() == "again")
        let first = try await server.takeRequest()
        #expect(first.path == "/secure" && first.queryValue("a") == "1")
        let second = try await server.takeRequest()
        #expect(second.bodyText == "payload")
        #expect(second.isConnectionReused)

        var untrusting = api
        untrusting.tls = TLSOptions()
        let error = await #expect(throws: NetworkError.self) { try await untrusting.url(server.url("/secure")).data() }
        #expect(error?.kind == .tls)
        server.shutdown()
        #expect(!FileManager.default.fileExists(atPath: certificate.path), "the identity is removed at shutdown")
    }
}

@Suite("MockServer: edges")
struct MockServerEdgeTests {
    @Test("HEAD declares the body's length and sends none")
    func head() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(body: Data(repeating: 7, count: 321)))
        var api = ChainConfiguration(client: HTTPClient(configuration: .init()))
        api.proxy = .none
        let delivery = await api.url(server.url("/doc")).method(.head).delivery(Data.self)
        #expect(delivery.response?.headers["Content-Length"] == "321")
        #expect(delivery.response?.body.isEmpty == true)
    }

    @Test("shutdown ends a takeRequest that waits, and taken requests stay takeable")
    func shutdownWakesWaiters() async throws {
        let server = try MockServer()
        server.enqueue(.text("x"))
        var api = ChainConfiguration(client: HTTPClient(configuration: .init()))
        api.proxy = .none
        _ = try await api.url(server.url("/before")).data()
        _ = try await server.takeRequest(timeout: 10)
        let waiting = Task { try await server.takeRequest(timeout: 600) }
        server.shutdown()
        let clock = ContinuousClock()
        let start = clock.now
        await #expect(throws: MockServerError.self) { try await waiting.value }
        #expect(clock.now - start < .seconds(30))
        await #expect(throws: MockServerError.self) { try await server.takeRequest(timeout: 600) }
    }
}
