@testable import CurlTransport
import Dispatch
import Foundation
@testable import HTTPCore
@testable import HTTPFeatures
import TestSupport
import Testing

// Requests held back by the per-host cap are queued and cancelled in constant time, and start
// highest priority first, then in arrival order. Straight on the engine, so the 100,000
// requests cost the engine's work and little else. Two minutes: about a minute under
// ThreadSanitizer on two cores; a queue or cancel that is not constant time takes far longer.
@Suite("Per-host queue", .timeLimit(.minutes(2)))
struct PerHostQueueTests {
    @Test func oneHundredThousandWaitingRequestsQueueCancelAndKeepTheirOrder() async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let engine = try CurlEngine(limits: CurlEngine.Limits(connectionsPerHost: 1, concurrentRequestsPerHost: 1,
                                                              totalConnections: 0, cachedConnections: 4),
                                    userAgent: "queue-test", name: "test.per-host-queue", delivery: .automatic)
        defer { engine.shutDownWhenIdle() }
        let queue = HTTPClient.makeCallbackQueue(label: "test.per-host-queue.callbacks")
        func transfer(_ path: String, method: HTTPMethod = .get, priority: RequestPriority = .normal,
                      completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) throws -> CurlTransfer {
            let request = HTTPRequest(url: peer.url(path), method: method, priority: priority)
            return CurlTransfer(request: request, target: try TransferTarget(url: request.url), scheduler: engine.scheduler,
                                callbackQueue: queue, batchesCompletion: engine.scheduler.isCallbackQueue(queue), progress: nil, completion: completion)
        }
        let id = UUID().uuidString
        // Takes the host's one slot until released: everything after it waits in the queue.
        let held = Recorder<Int>()
        engine.add(try transfer("/conn-hold/\(id)?id=\(id)") { held.append($0.success?.statusCode ?? -1) })

        let count = 100_000
        let cancelled = Recorder<Bool>()
        let waiting = try (0..<count).map { index in
            try transfer("/conn-real/\(id)/cancelled?i=\(index)", method: .head) { cancelled.append($0.failure?.kind == .cancelled) }
        }
        await offPool { for transfer in waiting { engine.add(transfer) } }
        // The engine handles commands in order: once a request to another host (another
        // name for the peer, so not under the cap) is answered, every request above is queued.
        let marker = Recorder<Int>()
        let markerRequest = HTTPRequest(url: try #require(URL(string: "http://localhost:\(peer.port)/conn-real/\(id)-marker")))
        engine.add(CurlTransfer(request: markerRequest, target: try TransferTarget(url: markerRequest.url),
                                scheduler: engine.scheduler, callbackQueue: queue,
                                batchesCompletion: engine.scheduler.isCallbackQueue(queue), progress: nil) {
            marker.append($0.success?.statusCode ?? -1)
        })
        #expect(await marker.wait(for: 1, timeout: 50) == [200])
        let order = Recorder<Int>()
        let priorities: [(String, RequestPriority)] = [("low-1", .low), ("normal-1", .normal), ("high-1", .high),
                                                       ("low-2", .low), ("high-2", .high), ("normal-2", .normal)]
        for (name, priority) in priorities {
            engine.add(try transfer("/conn-real/\(id)/\(name)", priority: priority) { order.append($0.success?.statusCode ?? -1) })
        }
        await offPool { for transfer in waiting { engine.cancel(transfer) } }
        let outcomes = await cancelled.wait(for: count, timeout: 50)
        #expect(outcomes.count == count)
        #expect(outcomes.allSatisfy { $0 })

        let release = await HTTPClient().result(HTTPRequest(url: peer.url("/conn-release/\(id)?id=\(id)")))
        #expect(release.success?.statusCode == 200)
        #expect(await held.wait(for: 1) == [200])
        #expect(await order.wait(for: priorities.count) == Array(repeating: 200, count: priorities.count))
        let started = peer.recordedRequests(pathPrefix: "/conn-real/\(id)/").map(\.path)
        #expect(started == ["high-1", "high-2", "normal-1", "normal-2", "low-1", "low-2"].map { "/conn-real/\(id)/\($0)" })
    }
}
