import CurlTransport
import Dispatch
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

@Suite("Hooks: network activity", .timeLimit(.minutes(1)))
struct NetworkActivityHookTests {
    @Test func countsBeginsAndEndsAndIgnoresUnknownEnds() {
        let changes = Recorder<Int>()
        let activity = NetworkActivityHook { changes.append($0) }
        let a = hookContext(1, "/a"), b = hookContext(2, "/b")
        activity.willSend(a)
        activity.willSend(b)
        activity.willSend(b)  // a repeated begin counts once
        #expect(activity.activeCount == 2)
        activity.didFail(hookContext(99, "/never-began"), error: NetworkError(.cancelled, "the request was cancelled"))
        activity.didFinish(a, response: HTTPResponse(statusCode: 200, url: URL(fileURLWithPath: "/")))
        activity.didFail(b, error: NetworkError(.timedOut, "timed out"))
        activity.didFail(b, error: NetworkError(.timedOut, "timed out"))  // a repeated end too
        #expect(activity.activeCount == 0)
        #expect(changes.values == [1, 2, 1, 0])
    }

    @Test func balancedOverFiftyConcurrentRequestsWithCancelsAndTimeouts() async throws {
        let changes = Recorder<Int>()
        let activity = NetworkActivityHook { changes.append($0) }
        // Several callback queues, so the counter's callers really run in parallel.
        let queues = (0..<4).map { DispatchQueue(label: "activity-test-\($0)") }
        let fast = try TestServer.endpoint("/get")
        let slow = try TestServer.endpoint("/delay/3")

        let kinds = await withTaskGroup(of: NetworkError.Kind?.self) { group in
            for index in 0..<50 {
                group.addTask {
                    var request = HTTPRequest(url: index % 5 < 2 ? slow : fast)
                    if index % 5 == 0 { request.timeouts.total = 0.3 }
                    let delivery = await HTTPClient.shared.delivery(request, hooks: [activity], queue: queues[index % 4]) { task in
                        if index % 5 == 1 { DispatchQueue.global().async { task.cancel() } }
                    }
                    return delivery.result.failure?.kind
                }
            }
            var kinds: [NetworkError.Kind?] = []
            for await kind in group { kinds.append(kind) }
            return kinds
        }
        #expect(kinds.count == 50)
        #expect(kinds.filter { $0 == .timedOut }.count == 10)
        #expect(kinds.filter { $0 == .cancelled }.count == 10)
        #expect(kinds.filter { $0 == nil }.count == 30)

        // A change reported by another queue's hook call may still be on its way: drain every queue.
        for queue in queues {
            await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        }
        #expect(activity.activeCount == 0)
        let values = changes.values
        #expect(values.allSatisfy { $0 >= 0 && $0 <= 50 })
        #expect(values.last == 0)
        #expect((values.max() ?? 0) > 0)
    }
}
