import ChainTesting
import Foundation
import SampleServer
import Testing
import TestSupport

/// The `cassette` property of both front ends, and AFStyle replaying.
@Suite("Cassette: front ends", .timeLimit(.minutes(2)))
struct CassetteFrontEndTests {
    /// A responder that only hands requests on, to stand before the cassette.
    struct PassingResponder: TransferResponder {
        func respond(to request: HTTPRequest, chain: TransferChain,
                     completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) {
            chain.proceed(request, completion: completion)
        }
    }

    @Test func theConfigurationsCassetteIsTheLastResponder() throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        var configuration = ChainConfiguration()
        #expect(configuration.cassette == nil)
        configuration.responders = [PassingResponder()]

        let first = try Cassette(fileURL: scratch.file("first.json"))
        configuration.cassette = first
        #expect(configuration.cassette === first)
        #expect(configuration.responders.count == 2)
        #expect(configuration.responders.first is PassingResponder)

        let second = try Cassette(fileURL: scratch.file("second.json"))
        configuration.cassette = second
        #expect(configuration.cassette === second)
        #expect(configuration.responders.count == 2)
        #expect(configuration.responders.last as? Cassette === second)

        configuration.cassette = nil
        #expect(configuration.cassette == nil)
        #expect(configuration.responders.count == 1)
    }

    @Test func theManagersCassetteIsTheLastResponder() throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let manager = HTTPSessionManager(baseURL: nil)
        #expect(manager.cassette == nil)
        manager.responders = [PassingResponder()]
        let first = try Cassette(fileURL: scratch.file("first.json"))
        manager.cassette = first
        let second = try Cassette(fileURL: scratch.file("second.json"))
        manager.cassette = second
        #expect(manager.cassette === second)
        #expect(manager.responders.count == 2)
        #expect(manager.responders.first is PassingResponder)
        manager.cassette = nil
        #expect(manager.responders.count == 1)
    }

    @Test func aResponderBeforeTheCassetteSeesTheRequestFirst() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let server = try SampleServer()
        defer { server.stop() }
        var configuration = cassetteConfiguration(server.baseURL, nil)
        configuration.responders = [PassingResponder()]
        let cassette = try Cassette(fileURL: scratch.file(), mode: .record)
        configuration.cassette = cassette
        #expect(try await configuration.url("/user/101").value(CassetteUser.self).name == "wiki")
        #expect(cassette.interactionCount == 1)
    }

    @Test func anAFStyleManagerRecordsAndReplays() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let server = try SampleServer()
        defer { server.stop() }
        let file = scratch.file()

        let recording = HTTPSessionManager(baseURL: server.baseURL)
        recording.cookieJar = nil
        recording.cassette = try Cassette(fileURL: file, mode: .record)
        let recorded = await Self.get(recording, "user/102")
        #expect(recorded.value?.name == "alice")
        #expect(recorded.source == .network)
        server.stop()

        let replaying = HTTPSessionManager(baseURL: server.baseURL)
        replaying.cookieJar = nil
        replaying.cassette = try Cassette(fileURL: file, mode: .replay)
        let replayed = await Self.get(replaying, "user/102")
        #expect(replayed.value == recorded.value)
        #expect(replayed.source == .stub)
        let missing = await Self.get(replaying, "user/103")
        #expect(missing.error?.kind == .invalidRequest)
        #expect(missing.error?.cassetteError
            == .notRecorded(method: "GET", url: server.baseURL.absoluteString + "/user/103", path: file.path))
    }

    /// One typed `GET` through `manager`: the user or the error, and the task's response source.
    private static func get(_ manager: HTTPSessionManager, _ path: String)
        async -> (value: CassetteUser?, error: NetworkError?, source: ResponseSource?) {
        await withCheckedContinuation { continuation in
            manager.GET(path, as: CassetteUser.self, success: { task, user in
                continuation.resume(returning: (user, nil, task.response?.source))
            }, failure: { task, error in
                continuation.resume(returning: (nil, error, task?.response?.source))
            })
        }
    }
}
