// The worked example of ChainTesting's Cassette: the login-and-users sample's own code recorded
// once against the real sample server (standing in for a staging backend), then replayed with
// that server stopped. This is how an app team keeps a suite offline after one recording.
import ChainTesting
import Foundation
@testable import SampleScenarios
import SampleServer
import Synchronization
import Testing
import TestSupport

@Suite("LoginAndUsers on a Cassette", .timeLimit(.minutes(2)))
struct LoginAndUsersCassetteTests {
    static let targetsTranscript = [
        "   logged in as wiki (id 101, 18 years, wiki@example.com)",
        "   user 102 is alice, alice@example.com",
        "   users whose name contains \"i\": wiki, alice",
        "   refused with HTTP 401, error_code 1001: invalid username or password",
    ]

    @Test("runWithTargets recorded against the sample server replays the same with the server gone")
    func targetsReplayOffline() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let file = scratch.file("login-and-users.json")
        let server = try SampleServer()
        let baseURL = server.baseURL

        let recorded = CassetteTranscript()
        try await LoginAndUsersSample.runWithTargets(
            Self.api(baseURL, try Cassette(fileURL: file, mode: .record)), baseURL: baseURL, output: recorded.output)
        server.stop()
        #expect(recorded.lines == Self.targetsTranscript)

        // The file holds what a reviewer expects: four calls, the password hidden.
        let contents = try CassetteFileContents(file)
        #expect(contents.interactions.count == 4)
        #expect(contents.request(0)["method"] as? String == "POST")
        #expect(contents.request(0)["url"] as? String == baseURL.absoluteString + "/account/login")
        #expect(contents.response(3)["status"] as? Int == 401)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains("secret"), "the login password is redacted in the file")

        let replayed = CassetteTranscript()
        try await LoginAndUsersSample.runWithTargets(
            Self.api(baseURL, try Cassette(fileURL: file, mode: .replay)), baseURL: baseURL, output: replayed.output)
        #expect(replayed.lines == Self.targetsTranscript)
    }

    @Test("a call the recording does not hold fails in replay with CassetteError naming it, and nothing is sent")
    func unrecordedCallFailsInReplay() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let file = scratch.file("login-and-users.json")
        let server = try SampleServer()
        let baseURL = server.baseURL
        try await LoginAndUsersSample.runWithTargets(
            Self.api(baseURL, try Cassette(fileURL: file, mode: .record)), baseURL: baseURL, output: CassetteTranscript().output)
        let before = try Data(contentsOf: file)

        // The server still runs: a replay that went to the network would succeed.
        defer { server.stop() }
        let replay = Self.api(baseURL, try Cassette(fileURL: file, mode: .replay))
        let delivery = await replay.url("user/103").cassetteDataDelivery()
        let error = try #require(delivery.result.failure)
        #expect(error.kind == .invalidRequest)
        #expect("\(error)".contains("/user/103"))
        #expect(try Data(contentsOf: file) == before, "a replay never writes the file")
    }

    @Test("runWithBuilder in .once mode records on the first run and replays on the second")
    func onceRecordsThenReplays() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let file = scratch.file("builder.json")
        let server = try SampleServer()
        let baseURL = server.baseURL

        let first = CassetteTranscript()
        try await LoginAndUsersSample.runWithBuilder(Self.api(baseURL, try Cassette(fileURL: file, mode: .once)), output: first.output)
        server.stop()
        let second = CassetteTranscript()
        try await LoginAndUsersSample.runWithBuilder(Self.api(baseURL, try Cassette(fileURL: file, mode: .once)), output: second.output)

        #expect(first.lines.count == 4)
        #expect(second.lines == first.lines)
        #expect(try CassetteFileContents(file).interactions.count == 4)
    }

    /// The sample's configuration (error bodies as `APIError`) with the cassette as its responder.
    static func api(_ baseURL: URL, _ cassette: Cassette) -> ChainConfiguration {
        var configuration = cassetteConfiguration(baseURL, cassette)
        configuration.errorBody = ErrorBodyDecoder(APIError.self)
        return configuration
    }
}

/// What the sample printed, in order.
private final class CassetteTranscript: Sendable {
    private let collected = Mutex<[String]>([])

    var lines: [String] { collected.withLock { $0 } }

    var output: SampleOutput {
        SampleOutput { line in self.collected.withLock { $0.append(line) } }
    }
}
