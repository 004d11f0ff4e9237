import CurlTransport
import Foundation
import HTTPCore
import SampleServer
import Synchronization
import Testing
import TestSupport

/// Records what a hook sees of redirects, in order, with the thread it ran on.
final class RedirectRecorder: HTTPHook {
    enum Event: Equatable, Sendable {
        case willSend(String)
        case redirect(from: Int, to: String, history: Int)
        case finished(Int)
        case failed(NetworkError.Kind)
    }

    private let storage = Mutex<(events: [Event], onLoopThread: Bool)>(([], false))

    func willSend(_ context: HookContext) { record(.willSend(context.request.url.path)) }
    func didRedirect(_ context: HookContext, hop: RedirectHop) {
        record(.redirect(from: hop.response.statusCode, to: hop.request.url.path, history: hop.history.count))
    }
    func didFinish(_ context: HookContext, response: HTTPResponse) { record(.finished(response.statusCode)) }
    func didFail(_ context: HookContext, error: NetworkError) { record(.failed(error.kind)) }

    private func record(_ event: Event) {
        let onLoop = Thread.current.name == "chain.curl-loop"
        storage.withLock {
            $0.events.append(event)
            $0.onLoopThread = $0.onLoopThread || onLoop
        }
    }

    var events: [Event] { storage.withLock { $0.events } }
    var sawLoopThread: Bool { storage.withLock { $0.onLoopThread } }
}

/// Redirects as a loop of the pipeline against the sample server: the handler of
/// `RedirectPolicy.custom`, the hooks and interceptors at each hop, the hop history of the
/// response, and the credential rule when a chain crosses to another origin (a second server
/// on another port).
@Suite("Redirects as a loop of the pipeline", .timeLimit(.minutes(1)))
struct RedirectLoopTests {
    let client = HTTPClient.shared

    /// The `headers` object of a sample server's `/get` echo.
    static func echoedHeaders(_ response: HTTPResponse?) -> [String: String] {
        guard let body = response?.body,
              let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let headers = object["headers"] as? [String: Any] else { return [:] }
        var result: [String: String] = [:]
        for (name, value) in headers { result[name.lowercased()] = "\(value)" }
        return result
    }

    @Test("the handler sees each hop's response, next request and history; the response carries the hops")
    func handlerSeesEveryHop() async throws {
        let seen = Recorder<(status: Int, next: String, method: HTTPMethod, history: [String])>()
        var request = HTTPRequest(url: try TestServer.endpoint("/redirect/2"))
        request.redirectPolicy = .custom { hop in
            seen.append((hop.response.statusCode, hop.request.url.path, hop.request.method, hop.history.map(\.url.path)))
            return .follow
        }
        let delivery = await client.deliveries(request, options: CallOptions(usesGlobalHooks: false))
        let response = try #require(delivery.result.success)
        #expect(response.statusCode == 200)
        #expect(response.url.path == "/get")
        #expect(response.redirects.map(\.url.path) == ["/redirect/2", "/redirect/1"])
        #expect(response.redirects.map(\.statusCode) == [302, 302])
        #expect(response.timings.redirectCount == 2)
        #expect(response.timings.total >= response.timings.redirect)
        let hops = seen.values
        #expect(hops.map(\.status) == [302, 302])
        #expect(hops.map(\.next) == ["/redirect/1", "/get"])
        #expect(hops.map(\.method) == [.get, .get])
        #expect(hops.map(\.history) == [[], ["/redirect/2"]])
    }

    @Test("a handler may change the next request; .stop delivers the redirect with its body")
    func modifyAndStop() async throws {
        var modified = HTTPRequest(url: try TestServer.endpoint("/redirect/1"))
        modified.redirectPolicy = .custom { hop in
            var next = hop.request
            next.headers["X-Hop"] = "changed by the handler"
            return .followModified(next)
        }
        let changed = await client.deliveries(modified, options: CallOptions(usesGlobalHooks: false))
        #expect(Self.echoedHeaders(changed.result.success)["x-hop"] == "changed by the handler")

        var stopped = HTTPRequest(url: try TestServer.endpoint("/redirect/3"))
        let calls = Recorder<Int>()
        stopped.redirectPolicy = .custom { hop in
            calls.append(hop.history.count)
            return hop.history.count == 1 ? .stop : .follow
        }
        let delivery = await client.deliveries(stopped, options: CallOptions(usesGlobalHooks: false),
                                               plan: .response(acceptableStatusCodes: 200..<400))
        let response = try #require(delivery.result.success, "\(String(describing: delivery.result.failure))")
        #expect(response.statusCode == 302)
        #expect(response.url.path == "/redirect/2")
        #expect(response.redirects.map(\.url.path) == ["/redirect/3"])
        #expect(String(decoding: response.body, as: UTF8.self).contains("/redirect/1"), "a stopped redirect keeps its body")
        #expect(calls.values == [0, 1])
    }

    @Test("the default policy fails one hop past its maximum; .none delivers the first redirect")
    func limitsAndNone() async throws {
        var limited = HTTPRequest(url: try TestServer.endpoint("/redirect/3"))
        limited.redirectPolicy = .follow(maximum: 2)
        let failure = await client.deliveries(limited, options: CallOptions(usesGlobalHooks: false)).result.failure
        #expect(failure?.kind == .tooManyRedirects)
        #expect(failure?.response?.statusCode == 302)
        #expect(failure?.response?.redirects.count == 2)

        var none = HTTPRequest(url: try TestServer.endpoint("/redirect/3"))
        none.redirectPolicy = .none
        let delivery = await client.deliveries(none, options: CallOptions(usesGlobalHooks: false),
                                               plan: .response(acceptableStatusCodes: 200..<400))
        #expect(delivery.result.success?.statusCode == 302)
        #expect(delivery.result.success?.redirects.isEmpty == true)
    }

    @Test("hooks hear each hop between willSend and the end, on the callback queue")
    func hooksSeeEveryHop() async throws {
        let recorder = RedirectRecorder()
        let delivery = await client.delivery(HTTPRequest(url: try TestServer.endpoint("/redirect/2")), hooks: [recorder])
        #expect(delivery.result.success?.statusCode == 200)
        #expect(recorder.events == [
            .willSend("/redirect/2"),
            .redirect(from: 302, to: "/redirect/1", history: 0),
            .redirect(from: 302, to: "/get", history: 1),
            .finished(200),
        ])
        #expect(!recorder.sawLoopThread)
    }

    @Test("interceptors adapt every hop")
    func interceptorsAdaptEveryHop() async throws {
        let adapted = Recorder<String>()
        let interceptor = ClosureInterceptor { request in
            adapted.append(request.url.path)
            var request = request
            request.headers["X-Adapted"] = request.url.path
            return .success(request)
        }
        let delivery = await client.deliveries(HTTPRequest(url: try TestServer.endpoint("/redirect/2")),
                                               options: CallOptions(usesGlobalHooks: false, interceptors: [interceptor]))
        #expect(adapted.values == ["/redirect/2", "/redirect/1", "/get"])
        #expect(Self.echoedHeaders(delivery.result.success)["x-adapted"] == "/get")
    }

    @Test("after a hop to another origin no credentials are sent, whatever an interceptor or the handler adds")
    func credentialsStayWithTheFirstOrigin() async throws {
        try await withPrivateServer { other in
            let target = other.baseURL.absoluteString + "/get"
            let start = try TestServer.endpoint("/redirect-to?url=\(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")&status_code=307")
            let bearer = ClosureInterceptor { request in
                var request = request
                request.headers["Authorization"] = "Bearer secret-token"
                return .success(request)
            }
            var request = HTTPRequest(url: start)
            request.headers["Proxy-Authorization"] = "Basic c2VjcmV0"
            request.authentication = .basic(user: "me", password: "secret")
            request.redirectPolicy = .custom { hop in
                #expect(hop.request.headers["Authorization"] == nil)
                #expect(hop.request.authentication == nil)
                var next = hop.request
                next.headers["Authorization"] = "Bearer from-the-handler"
                return .followModified(next)
            }
            let delivery = await client.deliveries(request, options: CallOptions(usesGlobalHooks: false, interceptors: [bearer]))
            let response = try #require(delivery.result.success, "\(String(describing: delivery.result.failure))")
            #expect(response.url.port == other.baseURL.port)
            let headers = Self.echoedHeaders(response)
            #expect(headers["authorization"] == nil, "\(headers)")
            #expect(headers["proxy-authorization"] == nil)
        }
    }

    @Test("a cancel during a chain ends the call once, with cancelled")
    func cancelDuringAChain() async throws {
        let ends = Recorder<NetworkError.Kind?>()
        let delivery = await withCheckedContinuation { (continuation: CheckedContinuation<Delivery<HTTPResponse>, Never>) in
            var request = HTTPRequest(url: (try? TestServer.endpoint("/redirect/3")) ?? URL(fileURLWithPath: "/"))
            let task = Mutex<HTTPTask?>(nil)
            request.redirectPolicy = .custom { hop in
                if hop.history.count == 1 { task.withLock { $0?.cancel() } }
                return .follow
            }
            let started = client.perform(request, plan: .response(), options: CallOptions(usesGlobalHooks: false)) {
                ends.append($0.result.failure?.kind)
                continuation.resume(returning: $0)
            }
            task.withLock { $0 = started }
        }
        #expect(delivery.result.failure?.kind == .cancelled)
        #expect(ends.values.count == 1)
    }
}
