import Chain
import Foundation
import Testing

/// The blocking form for scripts.
@Suite("Blocking", .timeLimit(.minutes(2)))
struct BlockingTests {
    @Test func blockingValueReturnsTheModel() async throws {
        let url = try TestServer.url("/user/103")
        let name = try await blocking { try Request.url(url).blockingValue(User.self).name }
        #expect(name == "bob")
    }

    @Test func blockingFormsThrowAndReturnEveryKindOfBody() async throws {
        let url = try TestServer.url("/user/101")
        #expect(try await blocking { try Request.url(url).blockingData().count } > 0)
        #expect(try await blocking { try Request.url(url).blockingString() }.contains("wiki"))
        #expect(try await blocking { (try Request.url(url).blockingJSON() as? [String: Any])?["name"] as? String } == "wiki")
        try await blocking { try Request.url(url).blockingResponse() }
        let missing = try TestServer.url("/user/999")
        let error = await #expect(throws: NetworkError.self) {
            try await blocking { try Request.url(missing).blockingValue(User.self) }
        }
        #expect(error?.kind == .unacceptableStatus(404))
        let unbuildable = try await blocking { Request.url("").configuration(ChainConfiguration()).blockingDelivery(User.self).error?.kind }
        #expect(unbuildable == .invalidURL)
    }

    @Test func blockingOnTheCallbackQueueItselfDoesNotDeadlock() async throws {
        let queue = DispatchQueue(label: "chain.tests.blocking")
        let request = Request.url(try TestServer.url("/user/102")).queue(queue)
        let name = try await blocking { try queue.sync { try request.blockingValue(User.self).name } }
        #expect(name == "alice")
    }

    /// The main actor runs on the main queue, so delivering on `.main` while it blocks would
    /// deadlock without the probe. (Under the test runner on Linux the main queue is not
    /// drained by the main thread, so this covers the "on the callback queue" half of the
    /// check; a command-line program's main thread takes the other half.)
    @Test @MainActor func blockingOnTheMainQueueWithTheMainQueueAsCallbackQueueDoesNotDeadlock() throws {
        let user = try Request.url(try TestServer.url("/user/101")).queue(.main).blockingValue(User.self)
        #expect(user.id == "101")
    }
}

/// Runs a blocking call on a thread of its own (see `offPool`): blocking the concurrency pool,
/// shared by every suite, stalls the others' timers and awaits.
private func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await offPool { Result { try body() } }.get()
}
