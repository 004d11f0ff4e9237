import Chain
import Foundation
import Testing

/// The blocking form for scripts.
@Suite("Blocking", .timeLimit(.minutes(2)))
struct BlockingTests {
    @Test func blockingValueReturnsTheModel() throws {
        let user = try Request.url(try TestServer.url("/user/103")).blockingValue(User.self)
        #expect(user.name == "bob")
    }

    @Test func blockingFormsThrowAndReturnEveryKindOfBody() throws {
        let url = try TestServer.url("/user/101")
        #expect(try Request.url(url).blockingData().count > 0)
        #expect(try Request.url(url).blockingString().contains("wiki"))
        #expect((try Request.url(url).blockingJSON() as? [String: Any])?["name"] as? String == "wiki")
        try Request.url(url).blockingResponse()
        let error = #expect(throws: NetworkError.self) {
            try Request.url(try TestServer.url("/user/999")).blockingValue(User.self)
        }
        #expect(error?.kind == .unacceptableStatus(404))
        #expect(Request.url("").configuration(ChainConfiguration()).blockingDelivery(User.self).error?.kind == .invalidURL)
    }

    @Test func blockingOnTheCallbackQueueItselfDoesNotDeadlock() throws {
        let queue = DispatchQueue(label: "chain.tests.blocking")
        let request = Request.url(try TestServer.url("/user/102")).queue(queue)
        let name = try queue.sync { try request.blockingValue(User.self).name }
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
