import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Synchronization
import Testing

/// Answers every attempt's retry question with one fixed decision, a limited number of times.
private final class FixedRetry: RequestInterceptor {
    let decision: RetryDecision
    let times: Int
    let asked = Mutex(0)

    init(_ decision: RetryDecision, times: Int = 1) {
        self.decision = decision
        self.times = times
    }

    func retry(_ request: HTTPRequest, result: Result<HTTPResponse, NetworkError>, context: RetryContext,
               completion: @escaping @Sendable (RetryDecision) -> Void) {
        let count = asked.withLock { value -> Int in
            value += 1
            return value
        }
        completion(count <= times ? decision : .doNotRetry)
    }
}

/// Caller numbers in the pipeline (retry delays and counts, `Retry-After`, stub delays, total
/// timeouts) never trap: NaN and negatives read as 0 or "no limit", infinite or huge values
/// as no limit or a clamp, and each interceptor's count is its own.
@Suite("Caller numbers in the pipeline", .timeLimit(.minutes(1)))
struct CallerNumbersInThePipelineTests {
    let url = URL(string: "http://h/x")!
    let now = Date(timeIntervalSince1970: 1_000_000_000)

    private func status(_ code: Int, _ headers: HTTPHeaders = [:]) -> Result<HTTPResponse, NetworkError> {
        .success(HTTPResponse(statusCode: code, headers: headers, url: url))
    }

    @Test func retryPolicyCountsOnlyItsOwnRetries() {
        let policy = RetryPolicy(usesJitter: false)
        let get = HTTPRequest(url: url)
        // The fifth attempt, after two retries of another interceptor and two of its own: done.
        #expect(policy.decision(for: get, result: status(503), context: RetryContext(attempt: 5, totalDelay: 1, retriesRequested: 2),
                                now: now, random: { 1 }) == .doNotRetry)
        // The third attempt, after two replays by another interceptor: its first retry, base delay.
        #expect(policy.decision(for: get, result: status(503), context: RetryContext(attempt: 3, totalDelay: 0, retriesRequested: 0),
                                now: now, random: { 1 }) == .retry(after: 0.5))
        #expect(policy.decision(for: get, result: status(503), context: RetryContext(attempt: 3, totalDelay: 0.5, retriesRequested: 1),
                                now: now, random: { 1 }) == .retry(after: 1))
    }

    @Test func retryPolicyReadsNonFiniteAndNegativeSettingsSafely() {
        let get = HTTPRequest(url: url)
        let first = RetryContext(attempt: 1, totalDelay: 0)
        func decide(_ policy: RetryPolicy, _ result: Result<HTTPResponse, NetworkError>? = nil,
                    context: RetryContext? = nil, random: Double = 1) -> RetryDecision {
            policy.decision(for: get, result: result ?? status(503), context: context ?? first, now: now, random: { random })
        }
        #expect(decide(RetryPolicy(baseDelay: .nan, usesJitter: false)) == .retry(after: 0))
        #expect(decide(RetryPolicy(baseDelay: -3, usesJitter: false)) == .retry(after: 0))
        #expect(decide(RetryPolicy(baseDelay: .infinity, usesJitter: false)) == .retry(after: 30))
        #expect(decide(RetryPolicy(baseDelay: .infinity, maximumDelay: .nan, usesJitter: false)) == .retry(after: 0))
        #expect(decide(RetryPolicy(multiplier: 1e308, usesJitter: false),
                       context: RetryContext(attempt: 2, totalDelay: 0, retriesRequested: 1)) == .retry(after: 30))
        #expect(decide(RetryPolicy(multiplier: .nan, usesJitter: false),
                       context: RetryContext(attempt: 2, totalDelay: 0, retriesRequested: 1)) == .retry(after: 0))
        #expect(decide(RetryPolicy(maximumRetries: Int.max, usesJitter: false),
                       context: RetryContext(attempt: Int.max, totalDelay: 0, retriesRequested: Int.max - 1)) == .retry(after: 30))
        #expect(decide(RetryPolicy(maximumRetries: -1)) == .doNotRetry)
        #expect(decide(RetryPolicy(maximumTotalDelay: .nan)) == .retry(after: 0) || decide(RetryPolicy(maximumTotalDelay: .nan)) == .doNotRetry)
        #expect(decide(RetryPolicy(maximumTotalDelay: -1, usesJitter: false)) == .doNotRetry)
        #expect(decide(RetryPolicy(maximumRetries: .max, maximumDelay: .infinity, maximumTotalDelay: .infinity, usesJitter: false),
                       context: RetryContext(attempt: 2000, totalDelay: 0, retriesRequested: 1999)) == .retry(after: .infinity))
        #expect(decide(RetryPolicy(usesJitter: true), random: .nan) == .retry(after: 0))
        #expect(decide(RetryPolicy(usesJitter: true), random: -.infinity) == .retry(after: 0))
    }

    @Test func retryAfterValuesThatDoNotFitAreSafe() {
        #expect(RetryPolicy.retryAfter("99999999999999999999999999", now: now) == .infinity)
        #expect(RetryPolicy.retryAfter("-5", now: now) == nil)
        #expect(RetryPolicy.retryAfter("1.5", now: now) == nil)
        #expect(RetryPolicy.retryAfter("nan", now: now) == nil)
        #expect(RetryPolicy.retryAfter("7", now: now) == 7)
        // An absurd Retry-After is beyond any budget: the response is delivered, not waited on.
        let policy = RetryPolicy()
        #expect(policy.decision(for: HTTPRequest(url: url), result: status(503, ["Retry-After": "99999999999999999999999999"]),
                                context: RetryContext(attempt: 1, totalDelay: 0), now: now, random: { 1 }) == .doNotRetry)
    }

    @Test(arguments: [Double.nan, -1, -Double.infinity, 0])
    func aRetryAfterANaNOrNegativeDelayHappensAtOnce(delay: Double) async throws {
        let retry = FixedRetry(.retry(after: delay))
        let delivery = await HTTPClient.shared.deliveries(HTTPRequest(url: try TestServer.endpoint("/status/503?delay=\(delay)")),
                                                          options: CallOptions(interceptors: [retry]))
        #expect(delivery.response?.statusCode == 503)
        #expect(retry.asked.withLock { $0 } == 2)
    }

    @Test(arguments: [Double.infinity, 1e300, Double.greatestFiniteMagnitude])
    func anEndlessRetryDelayWaitsUntilCancelled(delay: Double) async throws {
        let retry = FixedRetry(.retry(after: delay))
        let completions = Recorder<NetworkError.Kind?>()
        let decided = Recorder<RetryDecision>()
        let task = HTTPClient.shared.perform(HTTPRequest(url: try TestServer.endpoint("/status/503?forever=\(delay)")),
                                             plan: .response(),
                                             options: CallOptions(interceptors: [AfterRetryDecision(inner: retry,
                                                                                                   decided: decided)])) {
            completions.append($0.error?.kind)
        }
        #expect(await decided.wait(for: 1, timeout: 10).count == 1)
        task.cancel()
        #expect(await completions.wait(for: 1, timeout: 10) == [.cancelled])
    }

    @Test(arguments: [Double.nan, -1, -Double.infinity])
    func aNaNOrNegativeStubDelayAnswersAtOnce(delay: Double) async throws {
        let stubURL = try #require(URL(string: "http://127.0.0.1:9/stub-delay"))
        let delivery = await HTTPClient.shared.deliveries(HTTPRequest(url: stubURL),
                                                          options: CallOptions(stub: Stub(body: Data(), delay: delay)))
        #expect(delivery.response?.statusCode == 200)
    }

    @Test(arguments: [Double.infinity, 1e300])
    func anEndlessStubDelayWaitsUntilCancelled(delay: Double) async throws {
        let stubURL = try #require(URL(string: "http://127.0.0.1:9/stub-forever"))
        let completions = Recorder<NetworkError.Kind?>()
        let task = HTTPClient.shared.perform(HTTPRequest(url: stubURL), plan: .response(),
                                             options: CallOptions(stub: Stub(body: Data(), delay: delay))) {
            completions.append($0.error?.kind)
        }
        task.cancel()
        #expect(await completions.wait(for: 1, timeout: 10) == [.cancelled])
    }

    @Test(arguments: [Double.infinity, 1e300, Double.nan, -1, 0])
    func anEndlessOrMeaninglessTotalTimeoutIsNoLimit(total: Double) async throws {
        let stubURL = try #require(URL(string: "http://127.0.0.1:9/total"))
        let delivery = await HTTPClient.shared.deliveries(HTTPRequest(url: stubURL, timeouts: Timeouts(total: total)),
                                                          options: CallOptions(stub: Stub(body: Data(), delay: 0.05)))
        #expect(delivery.response?.statusCode == 200)
    }
}
