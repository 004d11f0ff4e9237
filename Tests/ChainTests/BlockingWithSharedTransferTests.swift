import Chain
import Foundation
import Testing

/// The blocking forms stay safe when an identical `GET` is already in flight on the queue the
/// caller holds (the transfer sharing must not make the blocked call wait for that queue).
@Suite("Blocking with an identical request in flight", .timeLimit(.minutes(1)))
struct BlockingWithSharedTransferTests {
    /// Inside a completion on the callback queue, block for a URL an earlier request on that
    /// queue has in flight: the earlier one's delivery needs the very queue this call holds.
    @Test func blockingInsideACompletionOnTheCallbackQueue() async throws {
        let queue = HTTPClient.makeCallbackQueue(label: "chain.tests.blocking-shared")
        let slow = try TestServer.url("/delay/1?case=completion")
        let earlier = Request.url(slow).queue(queue)
        let other = Request.url(try TestServer.url("/user/101")).queue(queue)
        let outcome = Recorder<Result<Int, NetworkError>>()
        earlier.responseData { _ in }
        other.responseData { _ in
            outcome.append(Result { () throws(NetworkError) in try earlier.blockingData().count })
        }
        let result = try #require(await outcome.wait(for: 1, timeout: 15).first,
                                  "the blocking call inside the completion never returned")
        #expect(try result.get() > 0)
    }

    /// On the main queue with `.queue(.main)`, block for a URL an earlier `.queue(.main)`
    /// request has in flight.
    @Test func blockingOnTheMainQueueWithAnIdenticalMainQueueRequestInFlight() async throws {
        let slow = try TestServer.url("/delay/1?case=main")
        let outcome = Recorder<Result<Int, NetworkError>>()
        DispatchQueue.main.async {
            Request.url(slow).queue(.main).responseData { _ in }
            outcome.append(Result { () throws(NetworkError) in try Request.url(slow).queue(.main).blockingData().count })
        }
        let result = try #require(await outcome.wait(for: 1, timeout: 15).first,
                                  "the blocking call on the main queue never returned")
        #expect(try result.get() > 0)
    }

    /// Identical requests on one queue still share one transfer.
    @Test func identicalRequestsOnOneQueueStillShareATransfer() async throws {
        try await withPrivateServer { server in
            let url = server.baseURL.absoluteString + "/delay/0.5"
            let queue = HTTPClient.makeCallbackQueue(label: "chain.tests.shared")
            let recorder = Recorder<Bool>()
            for _ in 0..<3 {
                Request.url(url).queue(queue).responseData { recorder.append((try? $0.get()) != nil) }
            }
            let results = await recorder.wait(for: 3, timeout: 15)
            #expect(results == [true, true, true])
            #expect(server.requestCount == 1)
        }
    }
}
