import CCurl
@testable import CurlTransport
import Dispatch
import Foundation
@testable import HTTPCore
@testable import HTTPFeatures
import SampleServer
import Testing

/// The warm hand-off between the engine and the library's callback queues: which queues may
/// be held, and that the counts it waits on always return to zero (a count left above zero
/// would make every later delivery wait its full time).
@Suite("Callback hand-off", .timeLimit(.minutes(2)))
struct CallbackHandoffTests {
    @Test("the default callback queues are marked; a queue the caller makes is not")
    func onlyLibraryQueuesAreMarked() {
        #expect(DeliveryScheduler.isMarked(HTTPClient().callbackQueue))
        #expect(DeliveryScheduler.isMarked(HTTPClient.makeCallbackQueue(label: "test.marked")))
        #expect(!DeliveryScheduler.isMarked(DispatchQueue(label: "test.plain")))
        #expect(!DeliveryScheduler.isMarked(DispatchQueue.main))
    }

    /// Waiting by yielding is off when the process may run on one processor only; the count
    /// comes from the affinity mask, checked here against the kernel's own list.
    @Test("yielding waits only with more than one usable processor")
    func yieldingNeedsTwoProcessors() throws {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") })
        // "0-1,4" lists processors 0, 1 and 4.
        let allowed = line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces)
            .split(separator: ",").reduce(0) { count, range in
                let ends = range.split(separator: "-").compactMap { Int($0) }
                return count + (ends.count == 2 ? ends[1] - ends[0] + 1 : 1)
            }
        #expect(Int(ccurl_usable_processor_count()) == allowed)
        #expect(DeliveryScheduler.isWaitingByYieldingUseful == (allowed > 1))
    }

    /// The wait after a delivery: 50 µs while several transfers share the processors or
    /// nothing was measured; 200 µs for a chain whose last round trip was short enough to
    /// bridge; none for a chain on a slow server.
    @Test("how long a delivering thread waits for the next completion")
    func warmthFollowsTheChain() {
        let shared = DeliveryScheduler.sharedWarmth, chain = DeliveryScheduler.chainWarmth
        let limit = DeliveryScheduler.chainedWaitLimit
        #expect(shared == 50_000 && chain == 200_000 && limit == 150_000)
        #expect(DeliveryScheduler.warmth(transfersInFlight: 32, lastChainedWait: 40_000) == shared)
        #expect(DeliveryScheduler.warmth(transfersInFlight: 2, lastChainedWait: 10_000_000) == shared)
        #expect(DeliveryScheduler.warmth(transfersInFlight: 1, lastChainedWait: 0) == shared)
        #expect(DeliveryScheduler.warmth(transfersInFlight: 1, lastChainedWait: 1) == chain)
        #expect(DeliveryScheduler.warmth(transfersInFlight: 1, lastChainedWait: limit) == chain)
        #expect(DeliveryScheduler.warmth(transfersInFlight: 1, lastChainedWait: limit + 1) == 0)
        #expect(DeliveryScheduler.warmth(transfersInFlight: 1, lastChainedWait: 20_000_000) == 0)
    }

    @Test("requests chained from completions on the default queue all complete, in order")
    func chainedRequestsComplete() async throws {
        try await withPrivateServer { server in
            let client = HTTPClient()
            let statuses = await sendChained(50, with: client, to: server)
            #expect(statuses == Array(repeating: 200, count: 50))
            #expect(server.acceptedConnections == 1)
            // Each step after the first waited with one transfer in flight; that wait is timed
            // (on one processor nothing waits, so nothing is timed).
            let scheduler = try #require(client.deliveryScheduler)
            #expect((scheduler.lastChainedWait.load(ordering: .relaxed) > 0) == DeliveryScheduler.isWaitingByYieldingUseful)
        }
    }

    @Test("the counts return to zero after successes, refusals, cancels and shared transfers")
    func countsReturnToZero() async throws {
        try await withPrivateServer { server in
            let client = HTTPClient()
            let scheduler = try #require(client.deliveryScheduler)
            let refused = try #require(URL(string: "http://127.0.0.1:9/nothing"))
            let slow = server.baseURL.appendingPathComponent("delay/30")
            let shared = server.baseURL.appendingPathComponent("anything/shared")
            let kinds = await withTaskGroup(of: NetworkError.Kind?.self) { group in
                for index in 0..<10 {
                    group.addTask {
                        let url = server.baseURL.appendingPathComponent("anything/\(index)")
                        return await client.result(HTTPRequest(url: url)).failure?.kind
                    }
                }
                for _ in 0..<3 {
                    group.addTask { await client.result(HTTPRequest(url: refused)).failure?.kind }
                }
                for _ in 0..<3 {
                    group.addTask {
                        await withCheckedContinuation { continuation in
                            let task = client.send(HTTPRequest(url: slow)) { continuation.resume(returning: $0.failure?.kind) }
                            task.cancel()
                        }
                    }
                }
                for _ in 0..<4 {
                    group.addTask {
                        await withCheckedContinuation { continuation in
                            client.perform(HTTPRequest(url: shared), plan: .response(acceptableStatusCodes: 200..<600),
                                           options: CallOptions(coalescesIdenticalRequests: true)) {
                                continuation.resume(returning: $0.result.failure?.kind)
                            }
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(kinds.filter { $0 == nil }.count == 14)
            #expect(kinds.filter { $0 == .cannotConnect }.count == 3)
            #expect(kinds.filter { $0 == .cancelled }.count == 3)
            #expect(scheduler.transfersInFlight.load(ordering: .relaxed) == 0)
            #expect(scheduler.postedCompletions.load(ordering: .relaxed) == 0)
        }
    }
}
