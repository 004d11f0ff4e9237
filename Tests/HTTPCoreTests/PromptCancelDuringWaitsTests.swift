import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Synchronization
import Testing

/// Passes everything to `inner`, records each retry decision once it passed it on, then runs `then`.
struct AfterRetryDecision: RequestInterceptor {
    let inner: any RequestInterceptor
    let decided: Recorder<RetryDecision>
    var then: @Sendable () -> Void = {}

    func adapt(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPRequest, NetworkError>) -> Void) {
        inner.adapt(request, completion: completion)
    }

    func retry(_ request: HTTPRequest, result: Result<HTTPResponse, NetworkError>, context: RetryContext,
               completion: @escaping @Sendable (RetryDecision) -> Void) {
        inner.retry(request, result: result, context: context) { decision in
            completion(decision)
            decided.append(decision)
            then()
        }
    }
}

/// A token refresh the test finishes when it chooses.
final class HeldRefresh: Sendable {
    let started = Recorder<Bool>()
    private let completion = Mutex<(@Sendable (Result<String, NetworkError>) -> Void)?>(nil)

    func refresh(_ done: @escaping @Sendable (Result<String, NetworkError>) -> Void) {
        completion.withLock { $0 = done }
        started.append(true)
    }

    func finish(with result: Result<String, NetworkError>) {
        completion.withLock { $0 }?(result)
    }
}

/// `cancel()` ends a call at once wherever it waits — a retry delay, a token refresh, a
/// stub's delay — with exactly one completion, and the wait's later end does nothing.
@Suite("Prompt cancel during waits", .timeLimit(.minutes(1)))
struct PromptCancelDuringWaitsTests {
    @Test func cancelDuringARetryAfterWaitEndsTheCallAtOnce() async throws {
        let decided = Recorder<RetryDecision>()
        // The cancel comes on the thread that passed the decision on: the call waits for its 20 s
        // delay by then, and the test's own task might only run again after the delay.
        let cancelAtDecision = Trigger()
        let url = try TestServer.endpoint("/retry-after?seconds=20&key=prompt-cancel-\(UUID().uuidString)")
        let completions = Recorder<(kind: NetworkError.Kind?, at: ContinuousClock.Instant)>()
        // A client of its own: other suites' long transfers must not hold its per-host slots.
        let task = HTTPClient().perform(HTTPRequest(url: url), plan: .response(),
                                        options: CallOptions(interceptors: [AfterRetryDecision(inner: RetryPolicy(), decided: decided,
                                                                                               then: cancelAtDecision.fire)])) {
            completions.append(($0.error?.kind, .now))
        }
        cancelAtDecision.set { task.cancel() }
        let ends = await completions.wait(for: 1, timeout: 60)
        #expect(decided.values == [.retry(after: 20)], "the 503 and its Retry-After never arrived")
        // Waiting for the delay, the call would end with the retry's 200 after 20 s.
        #expect(ends.map(\.kind) == [.cancelled])
        if let end = ends.first?.at, let cancelled = cancelAtDecision.firedAt {
            #expect(end - cancelled < .seconds(15))
        }
    }

    @Test func cancelWhileWaitingForATokenRefreshEndsTheCallAtOnceAndOnlyOnce() async throws {
        try await withPrivateServer { server in
            let held = HeldRefresh()
            let refresher = TokenRefresher(token: "stale") { held.refresh($0) }
            let client = HTTPClient(configuration: HTTPClient.Configuration(interceptors: [refresher]))
            let request = HTTPRequest(url: server.baseURL.appendingPathComponent("auth/protected"))
            // The first call's 401 starts the refresh and waits for it in its retry decision;
            // the second waits in its adaptation.
            let first = Recorder<NetworkError.Kind?>()
            let firstTask = client.perform(request, plan: .response(), options: CallOptions()) { first.append($0.error?.kind) }
            #expect(await held.started.wait(for: 1, timeout: 10).count == 1, "the refresh never started")
            let second = Recorder<NetworkError.Kind?>()
            let secondTask = client.perform(request, plan: .response(),
                                            options: CallOptions(coalescesIdenticalRequests: false)) {
                second.append($0.error?.kind)
            }
            firstTask.cancel()
            secondTask.cancel()
            // The refresh is held until after these waits: a call waiting for it cannot end here.
            #expect(await first.wait(for: 1, timeout: 10) == [.cancelled])
            #expect(await second.wait(for: 1, timeout: 10) == [.cancelled])
            // The refresh ends; the cancelled calls must not complete again, and a new call works.
            held.finish(with: .success("t-0"))
            let third = await client.deliveries(request, options: CallOptions())
            #expect(third.response?.statusCode == 200)
            #expect(first.count == 1)
            #expect(second.count == 1)
        }
    }

    @Test func cancelDuringAStubDelayEndsTheCallAtOnce() async throws {
        let url = try #require(URL(string: "http://127.0.0.1:9/stubbed"))
        let completions = Recorder<NetworkError.Kind?>()
        // A client of its own: other suites' long transfers must not hold its per-host slots.
        let task = HTTPClient().perform(HTTPRequest(url: url), plan: .response(),
                                             options: CallOptions(stub: Stub(body: Data(), delay: 30))) {
            completions.append($0.error?.kind)
        }
        task.cancel()
        // Waiting for the stub's delay, the call would end only after 30 s.
        #expect(await completions.wait(for: 1, timeout: 10) == [.cancelled])
    }
}
