import ChainTesting
import Foundation
import Testing
import TestSupport

/// Tags and targets for hooks and interceptors (Moya plugins get the target): a progress
/// display can skip silent calls. Never sent, kept across redirects and retries.
@Suite("Request tags")
struct RequestTagsTests {
    /// What hooks and interceptors saw of each request, by event.
    final class Observer: HTTPHook, RequestInterceptor {
        let seen = Recorder<String>()
        let targets = Recorder<String>()

        private func note(_ event: String, _ request: HTTPRequest) {
            seen.append("\(event):\(request.tags.sorted().joined(separator: ","))")
            if let target = request.target(as: API.self) { targets.append("\(event):\(target)") }
        }
        func willSend(_ context: HookContext) { note("willSend", context.request) }
        func didRedirect(_ context: HookContext, hop: RedirectHop) { note("didRedirect", context.request) }
        func didFinish(_ context: HookContext, response: HTTPResponse) { note("didFinish", context.request) }
        func didFail(_ context: HookContext, error: NetworkError) { note("didFail", context.request) }
        func adapt(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPRequest, NetworkError>) -> Void) {
            note("adapt", request)
            completion(.success(request))
        }
        func retry(_ request: HTTPRequest, result: Result<HTTPResponse, NetworkError>, context: RetryContext,
                   completion: @escaping @Sendable (RetryDecision) -> Void) {
            note("retry", request)
            if case .success(let response) = result, response.statusCode == 503, context.attempt < 2 {
                completion(.retry(after: 0))
            } else {
                completion(.doNotRetry)
            }
        }
    }

    enum API: TargetType, Sendable, CustomStringConvertible {
        case ping(URL), user(URL)
        var baseURL: URL { switch self { case .ping(let url), .user(let url): url } }
        var path: String { if case .ping = self { "ping" } else { "user" } }
        var tags: Set<String> { if case .ping = self { ["silent"] } else { [] } }
        var description: String { if case .ping = self { "ping" } else { "user" } }
    }

    @Test("hooks and interceptors see a request's tags; the server sees none of them")
    func tagsReachHooksNotTheWire() async throws {
        let server = try MockServer()
        server.enqueue(.text("ok"))
        let observer = Observer()
        _ = try await Request.url(server.url("/t")).tag("silent").tags(["batch", "silent"])
            .hook(observer).interceptor(observer).data()
        #expect(observer.seen.values == ["adapt:batch,silent", "willSend:batch,silent", "retry:batch,silent",
                                         "didFinish:batch,silent"])
        let recorded = try await server.takeRequest()
        let wire = recorded.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n") + recorded.target
        #expect(!wire.contains("silent") && !wire.contains("batch"))
    }

    @Test("a target's tags and the target itself reach the hooks")
    func targets() async throws {
        let server = try MockServer()
        server.enqueue(.text("pong"))
        server.enqueue(.text("user"))
        let observer = Observer()
        let base = server.url("/")
        _ = try await Request.target(API.ping(base)).hook(observer).data()
        _ = try await Request.target(API.user(base)).tag("profile").hook(observer).data()
        #expect(observer.seen.values == ["willSend:silent", "didFinish:silent", "willSend:profile", "didFinish:profile"])
        #expect(observer.targets.values == ["willSend:ping", "didFinish:ping", "willSend:user", "didFinish:user"])
        #expect(HTTPRequest(url: base).target(as: API.self) == nil)
    }

    @Test("tags survive a redirect and a retry")
    func redirectsAndRetries() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(status: 302, headers: ["Location": server.url("/moved").absoluteString]))
        server.enqueue(MockResponse(status: 503))
        server.enqueue(.text("finally"))
        let observer = Observer()
        let text = try await Request.url(server.url("/start")).tag("silent").hook(observer).interceptor(observer).string()
        #expect(text == "finally")
        let events = observer.seen.values
        #expect(events.allSatisfy { $0.hasSuffix(":silent") }, "\(events)")
        #expect(events.contains("didRedirect:silent"))
        #expect(events.filter { $0 == "retry:silent" }.count == 2)
        #expect(server.requestCount == 3)
    }

    @Test("a request that cannot be built still carries its tags to the hooks")
    func unbuildable() async throws {
        let observer = Observer()
        let error = await #expect(throws: NetworkError.self) {
            try await Request.url("http://127.0.0.1:1/a").timeout(-1).tag("silent").hook(observer).data()
        }
        #expect(error?.kind == .invalidRequest)
        #expect(observer.seen.values.contains("didFail:silent"))
    }

    @Test("tags are not part of a request's identity")
    func identity() throws {
        let url = try #require(URL(string: "http://127.0.0.1/x"))
        var tagged = HTTPRequest(url: url)
        tagged.tags = ["silent"]
        #expect(tagged == HTTPRequest(url: url))
        #expect(tagged.hashValue == HTTPRequest(url: url).hashValue)
        #expect(tagged.tags == ["silent"])
        tagged.tags = []
        #expect(tagged.tags.isEmpty)
    }
}
