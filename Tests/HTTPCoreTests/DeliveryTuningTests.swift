@testable import CurlTransport
import Dispatch
import Foundation
@testable import HTTPCore
import SampleServer
import Testing

/// `HTTPClient.Configuration.delivery`: `.automatic` (the default) tunes the hand-off from the
/// loop thread to the callback queues; `.off` leaves it to libdispatch — the same responses,
/// no thread held, no queue treated as the library's.
@Suite("Delivery tuning", .timeLimit(.minutes(2)))
struct DeliveryTuningTests {
    @Test("automatic is the default; off treats no queue as the library's and waits nowhere")
    func offTreatsNoQueueAsTheLibrarys() throws {
        #expect(HTTPClient.Configuration().delivery == .automatic)
        let automatic = HTTPClient()
        #expect(try #require(automatic.deliveryScheduler).tuning == .automatic)
        #expect(automatic.transport.isCallbackQueue(automatic.callbackQueue))

        let client = HTTPClient(configuration: HTTPClient.Configuration(delivery: .off))
        let scheduler = try #require(client.deliveryScheduler)
        #expect(scheduler.tuning == .off)
        #expect(!scheduler.waitsByYielding)
        #expect(!DeliveryScheduler.isMarked(client.callbackQueue))
        #expect(!client.transport.isCallbackQueue(client.callbackQueue))
        // A queue the library made for other clients (Chain's, AFStyle's) gets no treatment either.
        let marked = HTTPClient.makeCallbackQueue(label: "test.delivery.marked")
        #expect(DeliveryScheduler.isMarked(marked))
        #expect(!client.transport.isCallbackQueue(marked))
    }

    @Test("the same responses arrive with .off as with .automatic, one by one and all at once")
    func offDeliversTheSameResponses() async throws {
        try await withPrivateServer { server in
            let paths = ["get?a=1", "anything/one?b=2", "bytes/3000?seed=7", "status/404", "gzip", "redirect/2",
                         "response-headers?x-probe=yes", "user/101"]
            let requests = try paths.map { path -> HTTPRequest in
                HTTPRequest(url: try #require(URL(string: path, relativeTo: server.baseURL)?.absoluteURL))
            } + [HTTPRequest(url: server.baseURL.appendingPathComponent("post"), method: .post, body: .data(Data("payload".utf8)))]
            let automatic = HTTPClient()
            let off = HTTPClient(configuration: HTTPClient.Configuration(delivery: .off))
            let expected = try await DeliveryTuningTests.responses(to: requests, from: automatic)
            #expect(expected.map(\.status) == [200, 200, 200, 404, 200, 200, 200, 200, 200])
            #expect(try await DeliveryTuningTests.responses(to: requests, from: off) == expected)
            // Many in flight: several completions per loop pass, which `.automatic` batches.
            let many = Array(repeating: requests, count: 4).flatMap { $0 }
            let expectedMany = await DeliveryTuningTests.concurrentResponses(to: many, from: automatic)
            #expect(expectedMany == Array(repeating: expected, count: 4).flatMap { $0 })
            #expect(await DeliveryTuningTests.concurrentResponses(to: many, from: off) == expectedMany)
            let scheduler = try #require(off.deliveryScheduler)
            #expect(scheduler.transfersInFlight.load(ordering: .relaxed) == 0)
            #expect(scheduler.postedCompletions.load(ordering: .relaxed) == 0)
        }
    }

    @Test("with .off a chain of requests from completions on a library-made queue completes with no warm wait")
    func offChainsWithoutWaiting() async throws {
        try await withPrivateServer { server in
            let client = HTTPClient(configuration: HTTPClient.Configuration(delivery: .off))
            let queue = HTTPClient.makeCallbackQueue(label: "test.delivery.chain")
            let statuses = await sendChained(50, with: client, to: server, queue: queue)
            #expect(statuses == Array(repeating: 200, count: 50))
            #expect(server.acceptedConnections == 1)
            // `.automatic` times every chained wait (CallbackHandoffTests); `.off` never waits.
            let scheduler = try #require(client.deliveryScheduler)
            #expect(scheduler.lastChainedWait.load(ordering: .relaxed) == 0)
            #expect(scheduler.transfersInFlight.load(ordering: .relaxed) == 0)
            #expect(scheduler.postedCompletions.load(ordering: .relaxed) == 0)
        }
    }

    /// What a test compares of a response: status, body, and its content type.
    struct Answer: Equatable {
        var status: Int
        var body: Data
        var contentType: String?
    }

    private static func answer(_ result: Result<HTTPResponse, NetworkError>) -> Answer {
        switch result {
        case .success(let response):
            Answer(status: response.statusCode, body: response.body, contentType: response.headers["Content-Type"])
        case .failure(let error):
            Answer(status: -1, body: Data(error.message.utf8), contentType: nil)
        }
    }

    /// The answers to `requests`, sent one after the other.
    private static func responses(to requests: [HTTPRequest], from client: HTTPClient) async throws -> [Answer] {
        var answers: [Answer] = []
        for request in requests { answers.append(answer(await client.result(request))) }
        return answers
    }

    /// The answers to `requests`, all sent at once, in the order of `requests`.
    private static func concurrentResponses(to requests: [HTTPRequest], from client: HTTPClient) async -> [Answer] {
        await withTaskGroup(of: (Int, Answer).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask { (index, answer(await client.result(request))) }
            }
            var answers = [Answer?](repeating: nil, count: requests.count)
            for await (index, answer) in group { answers[index] = answer }
            return answers.compactMap { $0 }
        }
    }
}
