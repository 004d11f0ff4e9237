import ChainTesting
import Foundation
import Synchronization
import Testing

/// The stub table through the whole pipeline: matching, sequences, the unmatched policy, and
/// the steps a network response goes through (interceptors, hooks, validation, envelopes,
/// redirects, retries, the cache), with no network at all.
@Suite("StubTable")
struct StubTableTests {
    struct User: Codable, Sendable, Equatable {
        let id: Int
        let name: String
    }

    /// A configuration whose base URL no test may reach: anything not stubbed must fail.
    private func configuration(_ table: StubTable, interceptors: [any RequestInterceptor] = [],
                               hooks: [any HTTPHook] = []) -> ChainConfiguration {
        var configuration = ChainConfiguration(baseURL: URL(string: "https://api.example.test/v1/"),
                                               client: HTTPClient(configuration: .init()),
                                               interceptors: interceptors, hooks: hooks)
        configuration.cookieJar = nil
        configuration.stubs = table
        return configuration
    }

    @Test("path parameters, query and body matchers pick the route; newest wins")
    func matching() async throws {
        let table = StubTable()
        table.on(.get, "/v1/user/:id") { request in
            try .json(User(id: Int(request.parameters["id"] ?? "") ?? -1, name: "any"))
        }
        table.on(.get, "/v1/user/:id", query: ["fields": "name"]) { request in
            try .json(User(id: Int(request.parameters["id"] ?? "") ?? -1, name: "named"))
        }
        table.on(.post, "/v1/account/login", body: .form(["username": "wiki"]), response: .json(#"{"id":101,"name":"wiki"}"#))
        table.on(.post, "/v1/users", body: .json(#"{"name":"box","age":3}"#), response: .json(#"{"id":7,"name":"box"}"#, status: 201))
        table.on(nil, "https://other.example.test/files/*path") { request in .text(request.parameters["path"] ?? "") }
        let api = configuration(table)

        #expect(try await api.url("user/101").value(User.self) == User(id: 101, name: "any"))
        #expect(try await api.url("user/102").query(["fields": "name"]).value(User.self) == User(id: 102, name: "named"))
        let me = try await api.url("account/login").method(.post).params(["username": "wiki", "password": "secret"])
            .value(User.self)
        #expect(me.name == "wiki")
        // Key order does not matter to a JSON matcher.
        let made = try await api.url("users").method(.post).params(["age": 3, "name": "box"]).encoding(.json).value(User.self)
        #expect(made.id == 7)
        #expect(try await api.url("https://other.example.test/files/a/b%20c.txt").string() == "a/b c.txt")
        #expect(table.requests.count == 5)
    }

    @Test("an unmatched request fails with a typed error naming it; the callback runs once")
    func unmatchedFails() async throws {
        let table = StubTable()
        table.on(.get, "/v1/known", response: .text("ok"))
        let calls = Mutex(0)
        let error: NetworkError = await withCheckedContinuation { continuation in
            configuration(table).url("unknown?x=1").responseData { result in
                calls.withLock { $0 += 1 }
                if case .failure(let error) = result { continuation.resume(returning: error) }
            }
        }
        #expect(error.kind == .invalidRequest)
        #expect(error.underlyingError as? StubTableError == .unmatched(method: "GET", url: "https://api.example.test/v1/unknown?x=1"))
        #expect(error.message.contains("GET https://api.example.test/v1/unknown?x=1"))
        #expect(error.message.contains("GET /v1/known"))
        #expect(calls.withLock { $0 } == 1)
    }

    @Test("passThrough sends unmatched requests to the network")
    func passThrough() async throws {
        let server = try MockServer()
        server.enqueue(.text("from the network"))
        let table = StubTable(unmatched: .passThrough)
        table.on(.get, "/stubbed", response: .text("from the table"))
        let api = configuration(table)
        #expect(try await api.url(server.url("/stubbed").absoluteString).string() == "from the table")
        #expect(try await api.url(server.url("/real").absoluteString).string() == "from the network")
        #expect(try await server.takeRequest().path == "/real")
        #expect(server.requestCount == 1)
    }

    @Test("a sequence answers 503 then 200, and a retry policy really retries")
    func sequenceWithRetry() async throws {
        let table = StubTable()
        let route = table.on(.get, "/v1/flaky", responses: [MockResponse(status: 503), .json(#"{"id":1,"name":"up"}"#)])
        let retry = RetryPolicy(maximumRetries: 2, baseDelay: 0.01, usesJitter: false)
        let user = try await configuration(table, interceptors: [retry]).url("flaky").value(User.self)
        #expect(user.name == "up")
        #expect(route.hitCount == 2)
        // Used up: the last response answers every later hit.
        #expect(try await configuration(table).url("flaky").value(User.self).name == "up")
        #expect(route.hitCount == 3)
    }

    @Test("interceptors adapt before the table sees the request; hooks see the stubbed call")
    func interceptorsAndHooks() async throws {
        struct Token: RequestInterceptor {
            func adapt(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPRequest, NetworkError>) -> Void) {
                var request = request
                request.headers["Authorization"] = "Bearer t-1"
                completion(.success(request))
            }
        }
        final class Recorder: HTTPHook {
            let events = Mutex<[String]>([])
            func willSend(_ context: HookContext) { events.withLock { $0.append("send \(context.request.url.path)") } }
            func didFinish(_ context: HookContext, response: HTTPResponse) {
                events.withLock { $0.append("finish \(response.statusCode) \(response.source)") }
            }
            func didFail(_ context: HookContext, error: NetworkError) { events.withLock { $0.append("fail \(error.kind)") } }
        }
        let table = StubTable()
        table.on(.get, "/v1/me", where: { $0.headers["Authorization"] == "Bearer t-1" }, response: .json(#"{"id":1,"name":"me"}"#))
        let recorder = Recorder()
        let user = try await configuration(table, interceptors: [Token()], hooks: [recorder]).url("me").value(User.self)
        #expect(user.name == "me")
        #expect(recorder.events.withLock { $0 } == ["send /v1/me", "finish 200 stub"])
    }

    @Test("validation, error bodies and envelopes run on stubbed answers")
    func validationAndEnvelope() async throws {
        let table = StubTable()
        table.on(.get, "/v1/missing", response: .json(#"{"error":"no such user","error_code":"1004"}"#, status: 404))
        table.on(.get, "/v1/wrapped", response: .json(#"{"code":0,"data":{"id":5,"name":"in"}}"#))
        table.on(.get, "/v1/refused", response: .json(#"{"code":42,"message":"nope","data":null}"#))
        var api = configuration(table)
        let missing = await #expect(throws: NetworkError.self) { try await api.url("missing").value(User.self) }
        #expect(missing?.kind == .unacceptableStatus(404))
        api.envelope = Envelope(codePath: "code", messagePath: "message", payloadPath: "data", successCodes: [0])
        #expect(try await api.url("wrapped").value(User.self).name == "in")
        let refused = await #expect(throws: NetworkError.self) { try await api.url("refused").value(User.self) }
        #expect(refused?.kind == .business(code: "42", message: "nope"))
    }

    @Test("a stubbed redirect is followed to the next stubbed route")
    func redirects() async throws {
        let table = StubTable()
        table.on(.get, "/v1/old", response: MockResponse(status: 302, headers: ["Location": "/v1/new"]))
        table.on(.get, "/v1/new", response: .text("moved here"))
        #expect(try await configuration(table).url("old").string() == "moved here")
        #expect(table.requests.map(\.path) == ["/v1/old", "/v1/new"])
    }

    @Test("a stubbed answer is stored by the cache and served from it")
    func cache() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stub-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let table = StubTable()
        let route = table.on(.get, "/v1/cached", response: .json(#"{"id":9,"name":"kept"}"#, headers: ["Cache-Control": "max-age=600"]))
        var api = configuration(table)
        api.cache = ResponseCache(directory: directory)
        #expect(try await api.url("cached").cache(.networkOnly).value(User.self).name == "kept")
        #expect(try await api.url("cached").cache(.cacheOnly).value(User.self).name == "kept")
        #expect(route.hitCount == 1)
    }

    @Test("a cancel ends a delayed stub at once; the callback runs once with cancelled")
    func cancelDuringDelay() async throws {
        let table = StubTable()
        table.on(.get, "/v1/slow", response: MockResponse(options: [.delay(600)]))
        let calls = Mutex(0)
        let error: NetworkError = await withCheckedContinuation { continuation in
            let task = configuration(table).url("slow").responseData { result in
                calls.withLock { $0 += 1 }
                if case .failure(let error) = result { continuation.resume(returning: error) }
            }
            task.cancel()
        }
        #expect(error.kind == .cancelled)
        #expect(calls.withLock { $0 } == 1)
    }

    @Test("faults give the errors a real server's faults give")
    func faultsMatchTheServer() async throws {
        let faults: [MockResponse.Option] = [.disconnectAfterRequest, .disconnectDuringBody, .noResponse]
        let server = try MockServer()
        let table = StubTable()
        var stubbed = configuration(table)
        stubbed.timeouts = Timeouts(idle: 0.3)
        var networked = ChainConfiguration(client: HTTPClient(configuration: .init()), timeouts: Timeouts(idle: 0.3))
        networked.cookieJar = nil
        networked.proxy = .none
        for fault in faults {
            let response = MockResponse(body: Data(repeating: 1, count: 4096), options: [fault])
            table.on(.get, "/v1/fault", response: response)
            server.enqueue(response)
            let fromTable = await #expect(throws: NetworkError.self) { try await stubbed.url("fault").data() }
            let fromServer = await #expect(throws: NetworkError.self) {
                try await networked.url(server.url("/fault").absoluteString).data()
            }
            #expect(fromTable?.kind == fromServer?.kind, "\(fault)")
        }
    }

    @Test("a throwing route and a route without responses fail with typed errors")
    func failingRoutes() async throws {
        struct Broken: Error {}
        let table = StubTable()
        table.on(.get, "/v1/throws") { _ in throw Broken() }
        table.on(.get, "/v1/empty", responses: [])
        let api = configuration(table)
        let thrown = await #expect(throws: NetworkError.self) { try await api.url("throws").data() }
        guard case .handlerFailed? = thrown?.underlyingError as? StubTableError else {
            Issue.record("expected handlerFailed, got \(String(describing: thrown))")
            return
        }
        let empty = await #expect(throws: NetworkError.self) { try await api.url("empty").data() }
        #expect(empty?.underlyingError as? StubTableError == .noResponses(method: "GET", url: "https://api.example.test/v1/empty"))
    }

    @Test("HEAD gets the GET route's headers without its body")
    func head() async throws {
        let table = StubTable()
        table.on(.get, "/v1/doc", response: .text("body", headers: ["ETag": "\"1\""]))
        let data = try await configuration(table).url("doc").method(.head).data()
        #expect(data.isEmpty)
    }

    @Test("AFStyle: manager.stubs answers GET and POST through success and failure")
    func afStyle() async throws {
        let table = StubTable()
        table.on(.get, "/v1/user/:id") { request in .json(#"{"id":\#(request.parameters["id"] ?? "0"),"name":"af"}"#) }
        let manager = HTTPSessionManager(baseURL: URL(string: "https://api.example.test/v1/"))
        manager.stubs = table
        #expect(manager.stubs === table)
        let name: String? = await withCheckedContinuation { continuation in
            _ = manager.GET("user/3", success: { _, object in
                continuation.resume(returning: (object as? [String: Any])?["name"] as? String)
            }, failure: { _, _ in continuation.resume(returning: nil) })
        }
        #expect(name == "af")
        let error: NetworkError? = await withCheckedContinuation { continuation in
            _ = manager.POST("nothing", parameters: ["a": 1], success: { _, _ in continuation.resume(returning: nil) },
                             failure: { _, error in continuation.resume(returning: error) })
        }
        #expect(error?.underlyingError as? StubTableError == .unmatched(method: "POST", url: "https://api.example.test/v1/nothing"))
        manager.stubs = nil
        #expect(manager.responders.isEmpty)
    }
}

@Suite("StubTable: edges")
struct StubTableEdgeTests {
    private func configuration(_ table: StubTable, idle: TimeInterval = 60) -> ChainConfiguration {
        var configuration = ChainConfiguration(baseURL: URL(string: "https://api.example.test/"),
                                               client: HTTPClient(configuration: .init()), timeouts: Timeouts(idle: idle))
        configuration.cookieJar = nil
        configuration.stubs = table
        return configuration
    }

    @Test("`+` in a query reads as a space, as the mock server reads it; a pattern's own query must match")
    func queries() async throws {
        let table = StubTable()
        table.on(.get, "/search?kind=user") { request in .text(request.queryValue("q") ?? "none") }
        let api = configuration(table)
        #expect(try await api.url("search?kind=user&q=x+y").string() == "x y")
        let unmatched = await #expect(throws: NetworkError.self) { try await api.url("search?kind=group&q=x").data() }
        #expect(unmatched?.underlyingError is StubTableError)
    }

    @Test("a header with CR/LF or a status that is no code is refused, not sent")
    func unsendable() async throws {
        let table = StubTable()
        table.on(.get, "/injected", response: MockResponse(headers: ["X-A": "1\r\nX-Injected: yes"]))
        table.on(.get, "/status", response: MockResponse(status: 20))
        let api = configuration(table)
        for path in ["injected", "status"] {
            let error = await #expect(throws: NetworkError.self) { try await api.url(path).data() }
            #expect(error?.kind == .invalidRequest, "\(path)")
        }
        let server = try MockServer()
        server.enqueue(MockResponse(headers: ["X-A": "1\r\nX-Injected: yes"]))
        var networked = ChainConfiguration(client: HTTPClient(configuration: .init()))
        networked.proxy = .none
        let answered = await #expect(throws: NetworkError.self) { try await networked.url(server.url("/injected")).data() }
        #expect(answered?.statusCode == 500)
        #expect(answered?.response?.headers["X-Injected"] == nil)
    }

    @Test("a delay as long as the idle timeout times out, as it does against a server")
    func delayBeyondIdle() async throws {
        let table = StubTable()
        table.on(.get, "/slow", response: MockResponse(options: [.delay(120)]))
        let clock = ContinuousClock()
        let start = clock.now
        let error = await #expect(throws: NetworkError.self) { try await configuration(table, idle: 0.2).url("slow").data() }
        #expect(error?.kind == .timedOut)
        #expect(clock.now - start < .seconds(30))
    }

    @Test("a body fault on a HEAD leaves a complete head, from the table and from the server")
    func headWithBodyFault() async throws {
        let response = MockResponse(headers: ["X-Head": "1"], body: Data(repeating: 2, count: 100), options: [.disconnectDuringBody])
        let table = StubTable()
        table.on(.get, "/doc", response: response)
        #expect(try await configuration(table).url("doc").method(.head).data().isEmpty)
    }
}
