import AFStyle
import Chain
import Dispatch
import Foundation
import SampleServer
import Synchronization
import Testing
import TestSupport

/// A request that cannot be built (a URL that does not parse, a parameter JSON cannot hold)
/// fails the same way through Chain and AFStyle: the same error, the same hook events, one
/// callback on the documented queue, and nothing sent.
@Suite("Front-end parity: build failures", .timeLimit(.minutes(2)), .serialized)
struct BuildFailureParityTests {
    /// What one front end reported for one call.
    struct Outcome: Equatable, Sendable {
        var kind: NetworkError.Kind?
        var message: String?
        var onQueue: Bool
    }

    private static let queueKey = DispatchSpecificKey<String>()

    private static func queue(_ label: String) -> DispatchQueue {
        let queue = DispatchQueue(label: label)
        queue.setSpecific(key: queueKey, value: label)
        return queue
    }

    private static func outcome(_ error: NetworkError?, label: String) -> Outcome {
        Outcome(kind: error?.kind, message: error?.message, onQueue: DispatchQueue.getSpecific(key: queueKey) == label)
    }

    @Test("an unresolvable URL and an unencodable parameter fail alike, through the hooks, unsent")
    func buildFailures() async throws {
        let server = try SampleServer(port: 0)
        defer { server.stop() }
        let marker = "build-failure-\(UUID().uuidString)"
        let base = server.baseURL.appendingPathComponent(marker + "/")
        let recorder = MarkedRecorder(marker: marker)
        Hooks.shared.add(recorder)
        defer { Hooks.shared.remove(recorder) }

        let chainQueue = Self.queue("parity.build.chain")
        let afQueue = Self.queue("parity.build.af")
        var configuration = ChainConfiguration(baseURL: base)
        configuration.callbackQueue = chainQueue
        let manager = HTTPSessionManager(baseURL: base)
        manager.completionQueue = afQueue
        manager.requestSerializer = .json
        let chainCount = Atomic(0)
        let afCount = Atomic(0)

        let chainRequests = [
            configuration.url("http://[::1"),
            configuration.url("items").method(.post).encoding(.json).params(["x": Double.nan]),
        ]
        var chainOutcomes: [Outcome] = []
        var chainEvents: [[MarkedRecorder.Event]] = []
        for request in chainRequests {
            let before = recorder.events.count
            let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                request.response { result in
                    chainCount.add(1, ordering: .relaxed)
                    continuation.resume(returning: Self.outcome(result.failure, label: "parity.build.chain"))
                }
            }
            chainOutcomes.append(outcome)
            chainEvents.append(Array(recorder.events.dropFirst(before)))
        }

        var afOutcomes: [Outcome] = []
        var afEvents: [[MarkedRecorder.Event]] = []
        let afCalls: [@Sendable (@escaping HTTPSessionManager.FailureHandler) -> SessionTask?] = [
            { manager.GET("http://[::1", failure: $0) },
            { manager.POST("items", parameters: ["x": Double.nan], failure: $0) },
        ]
        for call in afCalls {
            let before = recorder.events.count
            let result = await withCheckedContinuation { (continuation: CheckedContinuation<(Outcome, Bool), Never>) in
                let task = call { task, error in
                    afCount.add(1, ordering: .relaxed)
                    continuation.resume(returning: (Self.outcome(error, label: "parity.build.af"), task == nil))
                }
                #expect(task == nil, "AFStyle returns no task for a request it cannot build")
            }
            #expect(result.1, "AFStyle's failure gets a nil task")
            afOutcomes.append(result.0)
            afEvents.append(Array(recorder.events.dropFirst(before)))
        }

        #expect(chainOutcomes.map(\.kind) == [.invalidURL, .invalidParameters])
        #expect(chainOutcomes.map(\.onQueue) == [true, true])
        #expect(afOutcomes == chainOutcomes, "Chain: \(chainOutcomes)\nAFStyle: \(afOutcomes)")
        let path = base.path
        #expect(chainEvents == [
            [MarkedRecorder.Event(kind: "willSend", method: "GET", path: path, outcome: ""),
             MarkedRecorder.Event(kind: "failed", method: "GET", path: path, outcome: "invalidURL")],
            [MarkedRecorder.Event(kind: "willSend", method: "POST", path: path + "/items", outcome: ""),
             MarkedRecorder.Event(kind: "failed", method: "POST", path: path + "/items", outcome: "invalidParameters")],
        ])
        #expect(afEvents == chainEvents, "Chain: \(chainEvents)\nAFStyle: \(afEvents)")
        #expect(recorder.isBalanced)
        // Another call through each queue runs after any second callback would have.
        await withCheckedContinuation { continuation in chainQueue.async { afQueue.async { continuation.resume() } } }
        #expect(chainCount.load(ordering: .relaxed) == 2)
        #expect(afCount.load(ordering: .relaxed) == 2)
        #expect(server.acceptedConnections == 0)
    }
}
