import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Synchronization
import Testing

/// Checks each call's events against the documented order — willSend, progress…, then one
/// didFinish or didFail, then the completion — keyed by the call's URL (unique per call).
/// `willSend` takes a few microseconds, as a logging hook would, and counts as done only when
/// it returns: an end event that runs alongside it is out of order too.
private final class OrderChecker: HTTPHook {
    private struct State {
        var open: Set<String> = []
        var ended: Set<String> = []
        var violations: [String] = []
    }

    private let state = Mutex(State())

    func willSend(_ context: HookContext) {
        let key = context.request.url.absoluteString
        let busyUntil = DispatchTime.now().uptimeNanoseconds + 20_000
        while DispatchTime.now().uptimeNanoseconds < busyUntil {}
        state.withLock { state in
            if state.open.contains(key) || state.ended.contains(key) { state.violations.append("second willSend \(key)") }
            state.open.insert(key)
        }
    }

    func didProgress(_ context: HookContext, progress: TransferProgress) {
        let key = context.request.url.absoluteString
        state.withLock { state in
            if !state.open.contains(key) { state.violations.append("progress outside willSend…end \(key)") }
        }
    }

    func didFinish(_ context: HookContext, response: HTTPResponse) { end(context) }
    func didFail(_ context: HookContext, error: NetworkError) { end(context) }

    private func end(_ context: HookContext) {
        let key = context.request.url.absoluteString
        state.withLock { state in
            if state.open.remove(key) == nil { state.violations.append("end before willSend \(key)") }
            state.ended.insert(key)
        }
    }

    /// Called from the completion: the call must have ended in the hooks already.
    func completed(_ url: URL) {
        let key = url.absoluteString
        state.withLock { state in
            if !state.ended.contains(key) { state.violations.append("completion before the end event \(key)") }
        }
    }

    var violations: [String] { state.withLock { $0.violations } }
}

@Suite("Hook order on concurrent callback queues", .timeLimit(.minutes(2)))
struct HookOrderOnConcurrentQueuesTests {
    /// 20,000 stubbed calls in 8 lanes, each call started from the completion of the one
    /// before, so the queue is never backlogged and a call's blocks run close together.
    @Test func stubbedCallsKeepTheDocumentedOrderOnAConcurrentQueue() async throws {
        let queue = DispatchQueue(label: "chain.tests.concurrent-hooks", attributes: .concurrent)
        let checker = OrderChecker()
        let done = Recorder<Bool>()
        let lanes = 8
        let callsPerLane = 2_500
        @Sendable func call(lane: Int, index: Int) {
            guard index < callsPerLane, let url = URL(string: "http://127.0.0.1:9/stub?lane=\(lane)&n=\(index)") else { return }
            let stub = index.isMultiple(of: 2) ? Stub(body: Data("{}".utf8))
                : Stub(body: Data(), error: NetworkError(.connectionLost, "stubbed"))
            HTTPClient.shared.perform(HTTPRequest(url: url), plan: .response(),
                                      options: CallOptions(queue: queue, hooks: [checker], usesGlobalHooks: false,
                                                           stub: stub)) { delivery in
                checker.completed(url)
                done.append(delivery.isFinal)
                call(lane: lane, index: index + 1)
            }
        }
        for lane in 0..<lanes { call(lane: lane, index: 0) }
        let finished = await done.wait(for: lanes * callsPerLane, timeout: 90)
        #expect(finished.count == lanes * callsPerLane)
        let violations = checker.violations
        #expect(violations.isEmpty, "\(violations.count) calls out of order, first: \(violations.prefix(3))")
    }

    @Test func realCallsWithProgressKeepTheDocumentedOrderOnAConcurrentQueue() async throws {
        let queue = DispatchQueue(label: "chain.tests.concurrent-hooks-real", attributes: .concurrent)
        let checker = OrderChecker()
        let done = Recorder<Bool>()
        let count = 300
        for index in 0..<count {
            // Half succeed with a body big enough for progress reports, half fail their validation.
            let path = index.isMultiple(of: 2) ? "/bytes/200000?n=\(index)" : "/status/500?n=\(index)"
            let url = try TestServer.endpoint(path)
            HTTPClient.shared.perform(HTTPRequest(url: url), plan: .response(),
                                      options: CallOptions(queue: queue, progress: { _ in }, hooks: [checker],
                                                           usesGlobalHooks: false)) { delivery in
                checker.completed(url)
                done.append(delivery.isFinal)
            }
        }
        let finished = await done.wait(for: count, timeout: 60)
        #expect(finished.count == count)
        let violations = checker.violations
        #expect(violations.isEmpty, "\(violations.count) calls out of order, first: \(violations.prefix(3))")
    }
}
