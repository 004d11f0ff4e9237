import CurlTransport
import Foundation
import HTTPCore
import Synchronization
import Testing

/// A request that could not be built goes through the pipeline's one entry point for it: the
/// hooks see it, the delivery comes once on the callback queue, nothing is adapted or sent.
@Suite("Calls whose request could not be built")
struct UnbuildableCallTests {
    /// Counts `adapt` calls, so the test sees that nothing was adapted.
    final class CountingInterceptor: RequestInterceptor {
        let adapts = Mutex(0)
        func adapt(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPRequest, NetworkError>) -> Void) {
            adapts.withLock { $0 += 1 }
            completion(.success(request))
        }
    }

    @Test("the hooks see willSend and didFail with the build error; one delivery, on the queue")
    func reportedToHooks() async throws {
        let client = HTTPClient()
        let hook = EventRecorder()
        let interceptor = CountingInterceptor()
        let queue = DispatchQueue(label: "test.unbuildable")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "mine")
        let error = NetworkError(.invalidRequest, "the URL \"::\" has no scheme")
        let request = HTTPRequest(url: URL(fileURLWithPath: "/placeholder"), method: .post)
        let deliveries = Recorder<String>()
        let task = client.perform(unbuildable: error, request: request, plan: .response(),
                                  options: CallOptions(queue: queue, hooks: [hook], usesGlobalHooks: false,
                                                       interceptors: [interceptor], origin: "Test")) { delivery in
            let onQueue = DispatchQueue.getSpecific(key: key) == "mine"
            deliveries.append("\(delivery.result.failure?.kind == .invalidRequest) \(delivery.isFinal) \(onQueue) \(delivery.request.method)")
        }
        #expect(await deliveries.wait(for: 1) == ["true true true POST"])
        #expect(task.originalRequest == request)
        task.cancel()
        // Nothing more arrives: wait for a block queued behind anything the call could still post.
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        #expect(deliveries.values.count == 1)
        let events = hook.events
        #expect(events.count == 2)
        #expect(hook.isBalanced)
        if case .failed(_, let kind) = events.last { #expect(kind == .invalidRequest) } else { Issue.record("no didFail: \(events)") }
        #expect(interceptor.adapts.withLock { $0 } == 0)
        #expect(task.state == .completed)
    }

    @Test("without a request, the task shows a placeholder")
    func withoutRequest() async {
        let client = HTTPClient()
        let deliveries = Recorder<NetworkError.Kind?>()
        let task = client.perform(unbuildable: NetworkError(.fileIO, "no such file"), request: nil,
                                  plan: .response(), options: CallOptions(usesGlobalHooks: false)) { delivery in
            deliveries.append(delivery.result.failure?.kind)
        }
        #expect(await deliveries.wait(for: 1) == [.fileIO])
        #expect(task.originalRequest.url.isFileURL)
    }
}
