import Chain
import Foundation
import Testing

/// async/await forms, cancellation, streams, and the cache-then-network sequence.
@Suite("Async", .timeLimit(.minutes(2)))
struct AsyncTests {
    @Test func valueThrowsTheNetworkError() async throws {
        let request = Request.url(try TestServer.url("/user/999"))
        await #expect(throws: NetworkError.self) { try await request.value(User.self) }
        do {
            _ = try await request.value(User.self)
        } catch {
            #expect(error.kind == .unacceptableStatus(404))
        }
    }

    @Test func cancellingTheSwiftTaskCancelsTheTransfer() async throws {
        // Cancelled on the thread that announces the send: the test's own task may run again
        // only after the server's 30 s delay when the concurrency pool is busy.
        let cancelOnSend = Trigger()
        let request = Request.url(try TestServer.url("/delay/30")).hook(OnSend(cancelOnSend))
        let task = Task { try await request.value(Echo.self) }
        cancelOnSend.set { task.cancel() }
        let result = await task.result
        let error = try #require(result.failure as? NetworkError)
        #expect(error.kind == .cancelled)
        // No time bound: a transfer that was not cut short would end in a success after the
        // server's 30 s delay, so `.cancelled` is the proof (a bound fails under sanitizers).
    }

    @Test func aTaskCancelledBeforeItStartsNeverSends() async throws {
        let request = Request.url(try TestServer.url("/delay/10"))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await request.delivery(Echo.self)
        }
        let delivery = await task.value
        #expect(delivery.error?.kind == .cancelled)
    }

    @Test func fileFirstDeliversTheStoredCopyThenTheNetwork() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = try TestServer.configuration()
        configuration.cache = ResponseCache(directory: directory)

        // A miss: one delivery, from the network (and stored).
        var sources: [ResponseSource] = []
        for await delivery in configuration.url("/user/101").cache(.fileFirst).deliveries(User.self) {
            sources.append(delivery.source)
            #expect(delivery.value?.name == "wiki")
        }
        #expect(sources == [.network])

        // A hit: the stored copy first, then the network.
        sources = []
        var finals: [Bool] = []
        for await delivery in configuration.url("/user/101").cache(.fileFirst).deliveries(User.self) {
            sources.append(delivery.source)
            finals.append(delivery.isFinal)
            #expect(delivery.value?.name == "wiki")
        }
        #expect(sources == [.cache, .network])
        #expect(finals == [false, true])

        var names: [String] = []
        for try await user in configuration.url("/user/101").cache(.fileFirst).values(User.self) {
            names.append(user.name)
        }
        #expect(names == ["wiki", "wiki"])
    }

    @Test func fileFirstCallbackIsCalledTwiceOnAHit() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = try TestServer.configuration()
        configuration.cache = ResponseCache(directory: directory)
        configuration.cachePolicy = .fileFirst
        _ = try await configuration.url("/user/102").value(User.self)

        let results = Recorder<String>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            configuration.url("/user/102").responseDelivery(User.self) { delivery in
                results.append("\(delivery.source):\(delivery.value?.name ?? "-")")
                if delivery.isFinal { continuation.resume() }
            }
        }
        #expect(results.values == ["cache:alice", "network:alice"])
    }

    @Test func valuesStreamThrowsTheFailure() async throws {
        var thrown: NetworkError?
        do {
            for try await _ in Request.url(try TestServer.url("/status/500")).values(User.self) {}
        } catch let error as NetworkError {
            thrown = error
        }
        #expect(thrown?.kind == .unacceptableStatus(500))
    }

    @Test @MainActor func jsonCanBeUsedOnTheMainActor() async throws {
        let object = try await Request.url(try TestServer.url("/user/101")).json()
        #expect((object as? [String: Any])?["id"] as? String == "101")
    }
}
