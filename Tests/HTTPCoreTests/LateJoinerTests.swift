@testable import CurlTransport
import Dispatch
import Foundation
@testable import HTTPCore
@testable import HTTPFeatures
import Testing

/// Issue 21, item 1 (related): a shared transfer stops taking joiners the moment its response is
/// in, not when its starter's callback queue gets round to the completion, so a request made
/// after the response arrived never receives it.
@Suite("Late joiners", .timeLimit(.minutes(1)))
struct LateJoinerTests {
    @Test func aRequestMadeAfterTheResponseArrivedGetsATransferOfItsOwn() async throws {
        try await withPrivateServer { server in
            let client = HTTPClient()
            let queue = DispatchQueue(label: "test.late-joiner")
            let url = server.baseURL.appendingPathComponent("get")
            // The queue is held, so the first completion waits there after its result is posted.
            let release = DispatchSemaphore(value: 0)
            queue.async { release.wait() }
            let results = Recorder<Int>()
            client.send(HTTPRequest(url: url), queue: queue) { results.append(($0.success?.statusCode) ?? -1) }
            // The engine posted the first completion: the response is in.
            let handoff = try #require(client.deliveryScheduler)
            let deadline = ContinuousClock.now + .seconds(20)
            while handoff.postedCompletions.load(ordering: .relaxed) == 0, ContinuousClock.now < deadline {
                await Task.yield()
            }
            try #require(handoff.postedCompletions.load(ordering: .relaxed) > 0, "the first response never arrived")
            client.send(HTTPRequest(url: url), queue: queue) { results.append(($0.success?.statusCode) ?? -1) }
            release.signal()
            #expect(await results.wait(for: 2, timeout: 20) == [200, 200])
            #expect(server.requestCount == 2)
        }
    }
}
