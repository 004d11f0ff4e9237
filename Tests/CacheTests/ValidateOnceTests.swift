@testable import Cache
import CurlTransport
import Dispatch
import Foundation
import HTTPCore
import SampleServer
import Synchronization
import Testing

/// The plan validates each response once, on the callback queue — also a network response the
/// cache step stores: its store and its delivery share one verdict.
@Suite("Each response validated once")
struct ValidateOnceTests {
    /// A plan that counts its validations and notes whether each ran on the callback queue.
    final class CountingPlan: Sendable {
        let validations = Mutex<[Bool]>([])
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "test.validate-once")
        let accepts: Bool

        init(accepts: Bool) {
            self.accepts = accepts
            queue.setSpecific(key: key, value: "callback")
        }

        var plan: ResponsePlan<HTTPResponse> {
            ResponsePlan(validate: { [self] response throws(NetworkError) in
                validations.withLock { $0.append(DispatchQueue.getSpecific(key: key) == "callback") }
                guard accepts else { throw NetworkError(.business(code: "E1", message: "refused"), "refused", response: response) }
            }, decode: { $0 })
        }
    }

    func call(_ client: HTTPClient, _ cache: ResponseCache, _ policy: CachePolicy, _ url: URL, plan: CountingPlan,
              expected: Int = 1) async -> [Delivery<HTTPResponse>] {
        let deliveries = Recorder<Delivery<HTTPResponse>>()
        client.perform(HTTPRequest(url: url), plan: plan.plan,
                       options: CallOptions(queue: plan.queue, cache: cache.step(for: policy), usesGlobalHooks: false)) {
            deliveries.append($0)
        }
        return await deliveries.wait(for: expected, timeout: 20)
    }

    func withServer(_ body: (URL, ResponseCache) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            let server = try SampleServer(port: 0)
            defer { server.stop() }
            try await body(server.baseURL.appendingPathComponent("get"), ResponseCache(directory: directory))
        }
    }

    @Test("a cacheable response is validated once, on the callback queue, and stored")
    func cacheableOnce() async throws {
        let client = HTTPClient()
        try await withServer { url, cache in
            let plan = CountingPlan(accepts: true)
            let deliveries = await call(client, cache, .networkOnly, url, plan: plan)
            #expect(deliveries.map(\.source) == [.network])
            #expect(deliveries.first.map { (try? $0.result.get()) != nil } == true)
            #expect(plan.validations.withLock { $0 } == [true])
            // The verdict let the step store it: a cache-only call finds it.
            let stored = await call(client, cache, .cacheOnly, url, plan: CountingPlan(accepts: true))
            #expect(stored.map(\.source) == [.cache])
        }
    }

    @Test("a response the plan refuses is validated once, delivered as the plan's error, and not stored")
    func refusedOnce() async throws {
        let client = HTTPClient()
        try await withServer { url, cache in
            let plan = CountingPlan(accepts: false)
            let deliveries = await call(client, cache, .networkOnly, url, plan: plan)
            #expect(deliveries.map { $0.result.failure?.kind } == [.business(code: "E1", message: "refused")])
            #expect(plan.validations.withLock { $0 } == [true])
            let stored = await call(client, cache, .cacheOnly, url, plan: CountingPlan(accepts: true))
            #expect(stored.map { $0.result.failure?.kind } == [.cacheMiss])
        }
    }

    @Test("a .fileFirst hit validates its two responses once each")
    func fileFirstTwice() async throws {
        let client = HTTPClient()
        try await withServer { url, cache in
            _ = await call(client, cache, .networkOnly, url, plan: CountingPlan(accepts: true))
            let plan = CountingPlan(accepts: true)
            let deliveries = await call(client, cache, .fileFirst, url, plan: plan, expected: 2)
            #expect(deliveries.map(\.source) == [.cache, .network])
            #expect(plan.validations.withLock { $0 } == [true, true])
        }
    }
}
