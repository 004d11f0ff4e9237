import ChainTesting
import Foundation
import SampleServer
import Testing
import TestSupport

/// Recording against a real server, then replaying with the server stopped.
@Suite("Cassette: record and replay", .timeLimit(.minutes(2)))
struct CassetteRecordReplayTests {
    @Test func recordedCallsReplayOfflineWithTheSameValues() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let server = try SampleServer()
        defer { server.stop() }
        let file = scratch.file()

        let recording = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .record))
        let user = try await recording.url("/user/101").value(CassetteUser.self)
        let login = try await recording.url("/account/login").method(.post)
            .params(["username": "alice", "password": "wonderland"]).value(CassetteUser.self)
        let echo = try await recording.url("/post").method(.post).encoding(.json)
            .params(["name": "wiki", "count": 3]).value(CassetteEcho.self)
        #expect(user.name == "wiki")
        #expect(login.name == "alice")
        #expect(echo.method == "POST")
        let recordedRequests = server.requestCount
        #expect(recordedRequests == 3)
        server.stop()

        let replaying = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .replay))
        #expect(try await replaying.url("/user/101").value(CassetteUser.self) == user)
        #expect(try await replaying.url("/account/login").method(.post)
            .params(["username": "alice", "password": "wonderland"]).value(CassetteUser.self) == login)
        #expect(try await replaying.url("/post").method(.post).encoding(.json)
            .params(["name": "wiki", "count": 3]).value(CassetteEcho.self) == echo)
        let delivery = await replaying.url("/user/101").delivery(CassetteUser.self)
        #expect(delivery.source == .stub)
        #expect(delivery.response?.url.path == "/user/101")
        #expect(server.requestCount == recordedRequests)
    }

    @Test func onceRecordsOnlyWhatIsMissing() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let server = try SampleServer()
        defer { server.stop() }
        let file = scratch.file()

        let first = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file))
        #expect(try await first.url("/user/101").value(CassetteUser.self).name == "wiki")
        #expect(server.requestCount == 1)

        let cassette = try Cassette(fileURL: file, mode: .once)
        #expect(cassette.interactionCount == 1)
        let second = cassetteConfiguration(server.baseURL, cassette)
        #expect(try await second.url("/user/101").value(CassetteUser.self).name == "wiki")
        #expect(server.requestCount == 1)
        #expect(try await second.url("/user/102").value(CassetteUser.self).name == "alice")
        #expect(server.requestCount == 2)
        #expect(cassette.interactionCount == 2)

        let third = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .once))
        #expect(try await third.url("/user/102").value(CassetteUser.self).name == "alice")
        #expect(try await third.url("/user/101").value(CassetteUser.self).name == "wiki")
        #expect(server.requestCount == 2)
    }

    @Test func replayFailsARequestThatWasNotRecordedOnce() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let file = scratch.file()
        try Data(#"{"interactions": [], "version": 1}"#.utf8).write(to: file)
        let base = try #require(URL(string: "http://127.0.0.1:9"))
        let configuration = cassetteConfiguration(base, try Cassette(fileURL: file, mode: .replay))

        let calls = Recorder<Result<CassetteUser, NetworkError>>()
        configuration.url("/user/101").response(CassetteUser.self) { calls.append($0) }
        await calls.wait(for: 1)
        // Another call through the same serial callback queue: a second delivery of the first
        // would have been queued before this one's.
        _ = await configuration.url("/user/102").delivery(CassetteUser.self)
        #expect(calls.count == 1)

        let error = try #require(calls.values.first?.failure)
        #expect(error.kind == .invalidRequest)
        #expect(error.cassetteError == .notRecorded(method: "GET", url: "http://127.0.0.1:9/user/101", path: file.path))
        #expect(error.message.contains("GET http://127.0.0.1:9/user/101"))
        #expect(error.message.contains(file.path))
    }

    @Test func aRecordedServerErrorReplaysAsTheSameFailure() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let server = try SampleServer()
        defer { server.stop() }
        let file = scratch.file()

        let recording = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .record))
        let recorded = await recording.url("/status/500").delivery(CassetteUser.self)
        #expect(recorded.result.failure?.kind == .unacceptableStatus(500))
        server.stop()

        let replaying = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .replay))
        let replayed = await replaying.url("/status/500").delivery(CassetteUser.self)
        let error = try #require(replayed.result.failure)
        #expect(error.kind == .unacceptableStatus(500))
        #expect(error.statusCode == 500)
        #expect(replayed.response?.body == recorded.response?.body)
        // The same request, accepting any status: validation decides, not the cassette.
        let accepted = await replaying.url("/status/500").validate(statusCodes: 200..<600).cassetteDataDelivery()
        #expect(accepted.result.success == recorded.response?.body)
    }

    @Test func repeatedRequestsReplayTheirRecordingsInOrder() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let server = try SampleServer()
        defer { server.stop() }
        let file = scratch.file()

        let recording = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .record))
        var recorded: [String] = []
        for _ in 0..<3 {
            recorded.append(try await recording.url("/auth/refresh").method(.post).value(CassetteToken.self).token)
        }
        #expect(recorded == ["t-1", "t-2", "t-3"])
        let requests = server.requestCount

        let replaying = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .replay))
        var replayed: [String] = []
        for _ in 0..<4 {
            replayed.append(try await replaying.url("/auth/refresh").method(.post).value(CassetteToken.self).token)
        }
        // Once every recording was used, the last one comes again.
        #expect(replayed == ["t-1", "t-2", "t-3", "t-3"])
        #expect(server.requestCount == requests)
    }

    @Test func recordingAgainReplacesTheEarlierRecordings() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let server = try SampleServer()
        defer { server.stop() }
        let file = scratch.file()

        let first = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .record))
        for _ in 0..<2 { _ = try await first.url("/auth/refresh").method(.post).value(CassetteToken.self) }
        _ = try await first.url("/user/101").value(CassetteUser.self)

        let cassette = try Cassette(fileURL: file, mode: .record)
        #expect(cassette.interactionCount == 3)
        let second = cassetteConfiguration(server.baseURL, cassette)
        #expect(try await second.url("/auth/refresh").method(.post).value(CassetteToken.self).token == "t-3")
        // Both old recordings of the refresh gave way to the new one, which took the first's place.
        #expect(cassette.interactionCount == 2)
        let contents = try CassetteFileContents(file)
        #expect(contents.request(0)["url"] as? String == server.baseURL.absoluteString + "/auth/refresh")
        #expect(contents.request(1)["url"] as? String == server.baseURL.absoluteString + "/user/101")

        let replaying = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .replay))
        #expect(try await replaying.url("/auth/refresh").method(.post).value(CassetteToken.self).token == "t-3")
    }

    @Test func aDownloadIsRecordedWithTheFilesBytesAndReplayedToTheDestination() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let server = try SampleServer()
        defer { server.stop() }
        let file = scratch.file()
        let expected = Data(SampleServer.deterministicBytes(count: 3000, seed: 9))

        let recording = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .record))
        let recorded = scratch.file("recorded.bin")
        let first = await withCheckedContinuation { continuation in
            recording.url("/bytes/3000?seed=9").download(to: recorded) { continuation.resume(returning: $0) }
        }
        #expect(first.success == recorded)
        #expect(try Data(contentsOf: recorded) == expected)
        server.stop()

        let replaying = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .replay))
        let replayed = scratch.file("replayed.bin")
        let second = await withCheckedContinuation { continuation in
            replaying.url("/bytes/3000?seed=9").download(to: replayed) { continuation.resume(returning: $0) }
        }
        #expect(second.success == replayed)
        #expect(try Data(contentsOf: replayed) == expected)
    }

    @Test func aStreamedResponseIsNeverRecorded() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let server = try SampleServer()
        defer { server.stop() }
        let file = scratch.file()

        let once = try Cassette(fileURL: file, mode: .once)
        let passing = cassetteConfiguration(server.baseURL, once)
        var lines: [String] = []
        for try await line in passing.url("/stream/ndjson?count=3").lines() { lines.append(line) }
        #expect(lines.count == 3)
        #expect(server.requestCount == 1)
        #expect(once.interactionCount == 0)
        #expect(!FileManager.default.fileExists(atPath: file.path))

        try Data(#"{"interactions": [], "version": 1}"#.utf8).write(to: file)
        let replaying = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .replay))
        var thrown: NetworkError?
        do {
            for try await _ in replaying.url("/stream/ndjson?count=3").lines() {}
        } catch {
            thrown = error
        }
        #expect(thrown?.kind == .invalidRequest)
        #expect(thrown?.cassetteError == .streamedResponse(method: "GET", url: server.baseURL.absoluteString + "/stream/ndjson?count=3",
                                                           path: file.path))
        #expect(thrown?.message.contains("streams its response") == true)
        #expect(server.requestCount == 1)
    }

    @Test func aReplayedResponseGoesThroughTheCacheStep() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let server = try SampleServer()
        defer { server.stop() }
        let file = scratch.file()

        let recording = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .record))
        let recorded = try await recording.url("/cache/60").value(CassetteEcho.self)
        server.stop()

        let cache = ResponseCache(directory: scratch.directory.appendingPathComponent("cache", isDirectory: true))
        var replaying = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .replay))
        replaying.cache = cache
        #expect(try await replaying.url("/cache/60").cache(.networkOnly).value(CassetteEcho.self) == recorded)

        // No cassette and no server: only the store can answer.
        var offline = cassetteConfiguration(server.baseURL, nil)
        offline.cache = cache
        let stored = await offline.url("/cache/60").cache(.cacheOnly).delivery(CassetteEcho.self)
        #expect(stored.source == .cache)
        #expect(stored.result.success == recorded)
    }
}
