import Chain
import Dispatch
import Foundation
import SampleServer
import Synchronization
import Testing

/// Issue 8.3: many requests with random cancels from other threads and random timeouts; every
/// completion is called exactly once. Run under `--sanitize=thread` by `scripts/hardening/tsan`
/// with `CHAIN_STRESS_REQUESTS=10000`; the normal suite runs `CHAIN_STRESS_REQUESTS` or 2,000.
///
/// Defences covered: the engine's exactly-once completion (`CurlTransfer.complete`'s flag,
/// cancel as a command processed after the add, cancels of waiting transfers answered in
/// `stop`), `HTTPTask`'s cancel/attach protocol, the coalescer's sharing of identical GETs
/// (a group member cancelled must not cancel or double-complete the others), and the cache's
/// serial store under concurrent writes of one key.
@Suite("Stress", .serialized, .timeLimit(.minutes(20)))
struct StressTests {
    static var requestCount: Int {
        ProcessInfo.processInfo.environment["CHAIN_STRESS_REQUESTS"].flatMap(Int.init).map { max(1, $0) } ?? 2_000
    }

    /// What the test does with one request.
    enum Action: CaseIterable {
        case plain, cancelAtOnce, cancelSoon, cancelLater, timeout
    }

    @Test func everyCompletionIsCalledExactlyOnce() async throws {
        let total = StressTests.requestCount
        let server = try SampleServer(port: 0)
        defer { server.stop() }
        let base = server.baseURL.absoluteString
        let client = HTTPClient(configuration: HTTPClient.Configuration(
            maximumConnectionsPerHost: 16, maximumConcurrentRequestsPerHost: 16, maximumIdleConnections: 16))
        let store = try TemporaryCache()
        defer { store.remove() }
        let chain = chainConfiguration(cache: store.cache, client: client,
                                       queue: DispatchQueue(label: "hardening.stress.chain"))
        let callbackQueue = DispatchQueue(label: "hardening.stress.callbacks", attributes: .concurrent)
        let cancelQueue = DispatchQueue(label: "hardening.stress.cancel", attributes: .concurrent)

        let calls = Counters(count: total)
        let finished = Recorder<(index: Int, kind: NetworkError.Kind?)>()
        let started = ContinuousClock.now
        // Submitting thousands of requests is synchronous work: off the concurrency pool.
        let submitted = await offPool { () -> String? in
            do {
                var generator = SplitMix64(seed: UInt64(ProcessInfo.processInfo.environment["CHAIN_STRESS_SEED"].flatMap(UInt64.init) ?? 8))

                for index in 0..<total {
                    // A few URLs are shared by many requests, so identical GETs in flight coalesce.
                    let route: String
                    switch generator.next(below: 10) {
                    case 0: route = "/drip?numbytes=20&duration=0.2&i=\(index)"
                    case 1: route = "/delay/0.1?i=\(index)"
                    case 2, 3: route = "/get?shared=\(generator.next(below: 4))"
                    case 4: route = "/bytes/\(generator.next(below: 200_000))?i=\(index)"
                    default: route = "/get?i=\(index)"
                    }
                    let action = Action.allCases[Int(generator.next(below: UInt64(Action.allCases.count)))]
                    let delayMicroseconds = Int(generator.next(below: 20_000))
                    let viaChain = generator.next(below: 10) == 0
                    let record: @Sendable (NetworkError.Kind?) -> Void = { kind in
                        calls.increment(index)
                        finished.append((index, kind))
                    }

                    var request = try HTTPRequest(base + route)
                    if action == .timeout { request.timeouts.total = Double(50 + delayMicroseconds / 100) / 1_000 }
                    let task: HTTPTask
                    if viaChain {
                        task = Request.url(request.url).configuration(chain).cache(.networkOnly)
                            .interceptor(Limits(totalTimeout: action == .timeout ? request.timeouts.total : nil))
                            .responseData { result in record(result.failure?.kind) }
                    } else {
                        task = client.send(request, queue: callbackQueue) { result in record(result.failure?.kind) }
                    }
                    switch action {
                    case .plain, .timeout: break
                    case .cancelAtOnce: cancelQueue.async { task.cancel() }
                    case .cancelSoon: cancelQueue.asyncAfter(deadline: .now() + .microseconds(delayMicroseconds / 10)) { task.cancel() }
                    case .cancelLater:
                        cancelQueue.asyncAfter(deadline: .now() + .microseconds(delayMicroseconds * 5)) {
                            task.cancel()
                            task.cancel()  // twice, from another thread: still one completion
                        }
                    }
                }
            } catch {
                return "\(error)"
            }
            return nil
        }
        try #require(submitted == nil, "submitting failed: \(submitted ?? "")")

        let results = await finished.wait(for: total, timeout: 600)
        // Late duplicates would be queued behind the last completion: drain both queues.
        await withCheckedContinuation { continuation in callbackQueue.async(flags: .barrier) { continuation.resume() } }
        await settle(cache: store.cache, queue: chain.callbackQueue)
        let elapsed = ContinuousClock.now - started

        #expect(results.count == total, "\(results.count) of \(total) completions after \(elapsed)")
        let counts = calls.values
        let wrong = counts.indices.filter { counts[$0] != 1 }
        #expect(wrong.isEmpty, "\(wrong.count) requests completed other than once, e.g. \(wrong.prefix(5).map { ($0, counts[$0]) })")
        let unexpected = results.compactMap(\.kind).filter { $0 != .cancelled && $0 != .timedOut }
        #expect(unexpected.isEmpty, "unexpected failures: \(unexpected.prefix(10))")
        let cancelled = results.filter { $0.kind == .cancelled }.count
        let timedOut = results.filter { $0.kind == .timedOut }.count
        print("stress: \(total) requests in \(elapsed): \(total - cancelled - timedOut) succeeded, \(cancelled) cancelled, \(timedOut) timed out")
    }
}

/// One completion counter per request.
final class Counters: Sendable {
    private let storage: Mutex<[Int]>

    init(count: Int) { storage = Mutex([Int](repeating: 0, count: count)) }

    func increment(_ index: Int) { storage.withLock { $0[index] += 1 } }

    var values: [Int] { storage.withLock { $0 } }
}
