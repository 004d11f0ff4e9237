import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import SampleServer
import Synchronization
import Testing

/// Records hook events in order, with the thread they arrived on.
final class EventRecorder: HTTPHook {
    enum Event: Equatable, Sendable {
        case willSend(UInt64)
        case progress(UInt64)
        case finished(UInt64, ResponseSource)
        case failed(UInt64, NetworkError.Kind)
    }

    private let storage = Mutex<(events: [Event], onLoopThread: Bool)>(([], false))

    func willSend(_ context: HookContext) { record(.willSend(context.id)) }
    func didProgress(_ context: HookContext, progress: TransferProgress) { record(.progress(context.id)) }
    func didFinish(_ context: HookContext, response: HTTPResponse) { record(.finished(context.id, response.source)) }
    func didFail(_ context: HookContext, error: NetworkError) { record(.failed(context.id, error.kind)) }

    private func record(_ event: Event) {
        let onLoop = Thread.current.name == "chain.curl-loop"
        storage.withLock {
            $0.events.append(event)
            $0.onLoopThread = $0.onLoopThread || onLoop
        }
    }

    var events: [Event] { storage.withLock { $0.events } }
    var sawLoopThread: Bool { storage.withLock { $0.onLoopThread } }

    /// Every will-send is followed by exactly one end event with its id, and nothing ends unopened.
    var isBalanced: Bool {
        var open: Set<UInt64> = []
        var closed: Set<UInt64> = []
        for event in events {
            switch event {
            case .willSend(let id):
                guard !open.contains(id), !closed.contains(id) else { return false }
                open.insert(id)
            case .progress(let id):
                guard open.contains(id) else { return false }
            case .finished(let id, _), .failed(let id, _):
                guard open.remove(id) != nil else { return false }
                closed.insert(id)
            }
        }
        return open.isEmpty
    }
}

extension HTTPClient {
    /// `perform` with a status-validating plan, awaited.
    func deliveries(_ request: HTTPRequest, options: CallOptions,
                    plan: ResponsePlan<HTTPResponse> = .response()) async -> Delivery<HTTPResponse> {
        await withCheckedContinuation { continuation in
            perform(request, plan: plan, options: options) { continuation.resume(returning: $0) }
        }
    }
}

/// An interceptor made of closures, for tests.
struct ClosureInterceptor: RequestInterceptor {
    var adaptRequest: @Sendable (HTTPRequest) -> Result<HTTPRequest, NetworkError> = { .success($0) }

    func adapt(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPRequest, NetworkError>) -> Void) {
        completion(adaptRequest(request))
    }
}

@Suite("Pipeline", .timeLimit(.minutes(2)))
struct PipelineTests {
    let client = HTTPClient.shared

    // MARK: Hooks

    @Test func hookEventsAreBalancedAndNeverOnTheLoopThread() async throws {
        let recorder = EventRecorder()
        let options = CallOptions(progress: { _ in }, hooks: [recorder], usesGlobalHooks: false)

        let ok = await client.deliveries(HTTPRequest(url: try TestServer.endpoint("/bytes/200000")), options: options)
        #expect(ok.result.success?.statusCode == 200)
        let notFound = await client.deliveries(HTTPRequest(url: try TestServer.endpoint("/status/404")), options: options)
        #expect(notFound.result.failure?.kind == .unacceptableStatus(404))
        var slow = HTTPRequest(url: try TestServer.endpoint("/delay/5"))
        slow.timeouts.total = 0.2
        #expect(await client.deliveries(slow, options: options).result.failure?.kind == .timedOut)

        let cancelled = await withCheckedContinuation { (continuation: CheckedContinuation<Delivery<HTTPResponse>, Never>) in
            let url = (try? TestServer.endpoint("/delay/5")) ?? URL(fileURLWithPath: "/")
            let task = client.perform(HTTPRequest(url: url), plan: .response(), options: options) {
                continuation.resume(returning: $0)
            }
            task.cancel()
        }
        #expect(cancelled.result.failure?.kind == .cancelled)

        #expect(recorder.isBalanced, "\(recorder.events)")
        let ends = recorder.events.filter { if case .willSend = $0 { false } else if case .progress = $0 { false } else { true } }
        #expect(ends.count == 4)
        #expect(recorder.events.contains { if case .progress = $0 { true } else { false } })
        #expect(!recorder.sawLoopThread)
    }

    @Test func globalHooksSeeCallsUnlessTheCallOptsOut() async throws {
        let recorder = EventRecorder()
        let hooks = Hooks()
        hooks.add(recorder)
        #expect(hooks.all.count == 1)
        hooks.removeAll()
        #expect(hooks.all.isEmpty)
    }

    // MARK: Interceptors

    @Test func interceptorsAdaptInOrder() async throws {
        let first = ClosureInterceptor { request in
            var request = request
            request.headers["X-Order"] = "first"
            return .success(request)
        }
        let second = ClosureInterceptor { request in
            var request = request
            request.headers["X-Order"] = (request.headers["X-Order"] ?? "") + ",second"
            return .success(request)
        }
        let delivery = await client.deliveries(HTTPRequest(url: try TestServer.endpoint("/anything")),
                                               options: CallOptions(interceptors: [first, second]))
        let echo = try #require(try JSONSerialization.jsonObject(with: delivery.result.get().body) as? [String: Any])
        let headers = try #require(echo["headers"] as? [String: Any])
        let order = headers.first { $0.key.lowercased() == "x-order" }?.value as? String
        #expect(order == "first,second")
        #expect(delivery.request.headers["X-Order"] == "first,second")
    }

    @Test func aFailedAdaptationFailsTheCallWithoutSending() async throws {
        try await withPrivateServer { server in
            let refuse = ClosureInterceptor { _ in .failure(NetworkError(.invalidRequest, "no signature key")) }
            let delivery = await client.deliveries(HTTPRequest(url: server.baseURL.appendingPathComponent("get")),
                                                   options: CallOptions(interceptors: [refuse]))
            #expect(delivery.result.failure?.message == "no signature key")
            #expect(server.requestCount == 0)
        }
    }

    // MARK: Retry policy

    @Test func flakyEndpointsSucceedAfterRetries() async throws {
        let policy = RetryPolicy(baseDelay: 0.01)
        let key = UUID().uuidString
        let delivery = await client.deliveries(HTTPRequest(url: try TestServer.endpoint("/flaky/\(key)?failures=2&status=503")),
                                               options: CallOptions(interceptors: [policy]))
        let body = try #require(try JSONSerialization.jsonObject(with: delivery.result.get().body) as? [String: Any])
        #expect(body["attempt"] as? Int == 3)
    }

    @Test func retriesStopAfterTheMaximum() async throws {
        let policy = RetryPolicy(baseDelay: 0.01)
        let key = UUID().uuidString
        let delivery = await client.deliveries(HTTPRequest(url: try TestServer.endpoint("/flaky/\(key)?failures=5&status=502")),
                                               options: CallOptions(interceptors: [policy]))
        #expect(delivery.result.failure?.kind == .unacceptableStatus(502))
        let failedResponse = try #require(delivery.response)
        let body = try #require(try JSONSerialization.jsonObject(with: failedResponse.body) as? [String: Any])
        #expect(body["attempt"] as? Int == 3)
    }

    @Test func postIsNotRetriedUnlessOptedIn() async throws {
        let key = UUID().uuidString
        let url = try TestServer.endpoint("/flaky/\(key)?failures=1&status=503")
        let once = await client.deliveries(HTTPRequest(url: url, method: .post),
                                           options: CallOptions(interceptors: [RetryPolicy(baseDelay: 0.01)]))
        #expect(once.result.failure?.kind == .unacceptableStatus(503))
        let optedIn = await client.deliveries(HTTPRequest(url: url, method: .post), options: CallOptions(
            interceptors: [RetryPolicy(baseDelay: 0.01, retriesNonIdempotentMethods: true)]))
        #expect(optedIn.result.success?.statusCode == 200)
    }

    @Test func retryAfterIsHonoured() async throws {
        let start = ContinuousClock.now
        let delivery = await client.deliveries(HTTPRequest(url: try TestServer.endpoint("/retry-after?seconds=1&key=\(UUID().uuidString)")),
                                               options: CallOptions(interceptors: [RetryPolicy(baseDelay: 0.01)]))
        #expect(delivery.result.success?.statusCode == 200)
        #expect(ContinuousClock.now - start >= .milliseconds(950))
    }

    @Test func retryDecisionsArePure() throws {
        let policy = RetryPolicy()
        let url = try #require(URL(string: "http://h/x"))
        let get = HTTPRequest(url: url)
        let now = Date(timeIntervalSince1970: 1_000_000_000)
        func response(_ status: Int, _ headers: HTTPHeaders = [:]) -> Result<HTTPResponse, NetworkError> {
            .success(HTTPResponse(statusCode: status, headers: headers, url: url))
        }
        let first = RetryContext(attempt: 1, totalDelay: 0)
        #expect(policy.decision(for: get, result: response(503), context: first, now: now, random: { 1 }) == .retry(after: 0.5))
        #expect(policy.decision(for: get, result: response(503),
                                context: RetryContext(attempt: 2, totalDelay: 0.5, retriesRequested: 1),
                                now: now, random: { 0.5 }) == .retry(after: 0.5))
        #expect(policy.decision(for: get, result: response(503),
                                context: RetryContext(attempt: 3, totalDelay: 1, retriesRequested: 2),
                                now: now, random: { 1 }) == .doNotRetry)
        #expect(policy.decision(for: get, result: response(404), context: first, now: now, random: { 1 }) == .doNotRetry)
        #expect(policy.decision(for: get, result: response(429, ["Retry-After": "7"]), context: first, now: now,
                                random: { 1 }) == .retry(after: 7))
        let date = HTTPDate.format(now.addingTimeInterval(12))
        #expect(policy.decision(for: get, result: response(503, ["Retry-After": date]), context: first, now: now,
                                random: { 1 }) == .retry(after: 12))
        // A Retry-After beyond the remaining budget delivers the response instead of waiting.
        #expect(policy.decision(for: get, result: response(503, ["Retry-After": "120"]), context: first, now: now,
                                random: { 1 }) == .doNotRetry)
        #expect(policy.decision(for: get, result: .failure(NetworkError(.cannotConnect, "x")), context: first, now: now,
                                random: { 1 }) == .retry(after: 0.5))
        #expect(policy.decision(for: get, result: .failure(NetworkError(.tls, "x")), context: first, now: now,
                                random: { 1 }) == .doNotRetry)
        #expect(RetryPolicy.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 0)
        #expect(RetryPolicy.retryAfter("soon", now: now) == nil)
    }

    // MARK: Token refresh

    @Test func aStaleTokenIsRefreshedOnceForManyWaitingRequests() async throws {
        try await withPrivateServer { server in
            let refreshes = Mutex(0)
            let refreshURL = server.baseURL.appendingPathComponent("auth/refresh")
            let refresher = TokenRefresher(token: "stale") { completion in
                refreshes.withLock { $0 += 1 }
                HTTPClient.shared.send(HTTPRequest(url: refreshURL, method: .post)) { result in
                    completion(result.flatMap { response in
                        let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
                        guard let token = object?["token"] as? String else {
                            return .failure(NetworkError(.decodingFailed, "no token in the refresh answer"))
                        }
                        return .success(token)
                    })
                }
            }
            let url = server.baseURL.appendingPathComponent("auth/protected")
            let statuses = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        await HTTPClient.shared.deliveries(HTTPRequest(url: url), options: CallOptions(interceptors: [refresher]))
                            .result.success?.statusCode ?? -1
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 10))
            #expect(refreshes.withLock { $0 } == 1)
            #expect(refresher.token == "t-1")
        }
    }

    @Test func aFailedRefreshFailsEveryWaitingRequest() async throws {
        let refresher = TokenRefresher(token: "stale") { completion in
            completion(.failure(NetworkError(.unacceptableStatus(500), "the auth server answered 500")))
        }
        let url = try TestServer.endpoint("/auth/protected")
        let errors = await withTaskGroup(of: NetworkError?.self) { group in
            for _ in 0..<5 {
                group.addTask {
                    await HTTPClient.shared.deliveries(HTTPRequest(url: url), options: CallOptions(interceptors: [refresher]))
                        .result.failure
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(errors.count == 5)
        #expect(errors.allSatisfy { $0?.message.hasPrefix("the token refresh failed") == true })
    }

    // MARK: Stubs

    @Test func stubsAnswerWithoutTheNetwork() async throws {
        try await withPrivateServer { server in
            let stub = Stub(statusCode: 201, body: Data(#"{"id":"101"}"#.utf8), delay: 0.05)
            let recorder = EventRecorder()
            let delivery = await client.deliveries(HTTPRequest(url: server.baseURL.appendingPathComponent("user/101")),
                                                   options: CallOptions(hooks: [recorder], usesGlobalHooks: false, stub: stub))
            let response = try delivery.result.get()
            #expect(response.statusCode == 201)
            #expect(response.source == .stub)
            #expect(response.body == Data(#"{"id":"101"}"#.utf8))
            #expect(server.acceptedConnections == 0)
            #expect(recorder.isBalanced)

            let failing = Stub(body: Data(), error: NetworkError(.cannotConnect, "stubbed outage"))
            let failed = await client.deliveries(HTTPRequest(url: server.baseURL), options: CallOptions(stub: failing))
            #expect(failed.result.failure?.kind == .cannotConnect)
        }
    }
}

@Suite("Traffic control", .timeLimit(.minutes(2)))
struct TrafficControlTests {
    @Test func identicalGetsInFlightShareOneTransfer() async throws {
        try await withPrivateServer { server in
            let client = HTTPClient()
            let url = server.baseURL.appendingPathComponent("delay/0.3")
            let statuses = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<10 {
                    group.addTask { (try? await client.result(HTTPRequest(url: url)).get().statusCode) ?? -1 }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 10))
            #expect(server.requestCount == 1)
        }
    }

    @Test func coalescingCanBeTurnedOffPerCall() async throws {
        try await withPrivateServer { server in
            let client = HTTPClient()
            let url = server.baseURL.appendingPathComponent("delay/0.2")
            let options = CallOptions(coalescesIdenticalRequests: false)
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask { _ = await client.deliveries(HTTPRequest(url: url), options: options) }
                }
            }
            #expect(server.requestCount == 4)
        }
    }

    @Test func aSubscriberThatCancelsLeavesTheOthersTheirResponse() async throws {
        try await withPrivateServer { server in
            let client = HTTPClient()
            let url = server.baseURL.appendingPathComponent("delay/0.3")
            let kept = Task { await client.result(HTTPRequest(url: url)) }
            let leaving = await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPResponse, NetworkError>, Never>) in
                let task = client.send(HTTPRequest(url: url)) { continuation.resume(returning: $0) }
                task.cancel()
            }
            #expect(leaving.failure?.kind == .cancelled)
            #expect(await kept.value.success?.statusCode == 200)
        }
    }

    @Test func waitingRequestsStartByPriority() async throws {
        try await withPrivateServer { server in
            let queue = DispatchQueue(label: "test.priority")
            let client = HTTPClient(configuration: .init(maximumConcurrentRequestsPerHost: 1, callbackQueue: queue))
            let order = Recorder<String>()
            // The blocker takes the only slot; it is cancelled after the four others are sent,
            // and the engine handles commands in order, so all four are waiting by then.
            let blockerResult = Recorder<NetworkError.Kind?>()
            // A stall holds until the client closes: a slow machine cannot let it end on its own.
            let blocker = client.send(HTTPRequest(url: server.baseURL.appendingPathComponent("fault/stall"))) {
                blockerResult.append($0.failure?.kind)
            }
            while server.requestCount == 0 { await Task.yield() }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let remaining = Mutex(4)
                for (name, priority) in [("low", RequestPriority.low), ("normal", .normal), ("high", .high), ("normal2", .normal)] {
                    var request = HTTPRequest(url: server.baseURL.appendingPathComponent("anything/\(name)"))
                    request.priority = priority
                    client.send(request) { _ in
                        order.append(name)
                        if remaining.withLock({ $0 -= 1; return $0 }) == 0 { continuation.resume() }
                    }
                }
                blocker.cancel()
            }
            // The blocker must still have held the slot when the others were sent.
            #expect(blockerResult.values == [.cancelled])
            #expect(order.values == ["high", "normal", "normal2", "low"])
        }
    }

    @Test func thePerHostCapHoldsConcurrency() async throws {
        try await withPrivateServer { server in
            let client = HTTPClient(configuration: .init(maximumConnectionsPerHost: 8, maximumConcurrentRequestsPerHost: 2))
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<6 {
                    group.addTask {
                        _ = await client.result(HTTPRequest(url: server.baseURL.appendingPathComponent("delay/0.1").appending(queryItems: [URLQueryItem(name: "i", value: "\(index)")])))
                    }
                }
            }
            #expect(server.requestCount == 6)
            #expect(server.acceptedConnections <= 2)
        }
    }
}
