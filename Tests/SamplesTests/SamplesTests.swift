import Foundation
import SampleScenarios
import SampleServer
import Synchronization
import Testing

/// Collects what a sample prints, so a test can check it says what it should.
final class Transcript: Sendable {
    private let lines = Mutex<[String]>([])

    var output: SampleOutput {
        SampleOutput { line in self.lines.withLock { $0.append(line) } }
    }

    var text: String { lines.withLock { $0.joined(separator: "\n") } }

    /// Whether some printed line contains every one of `fragments`.
    func hasLine(_ fragments: String...) -> Bool {
        lines.withLock { lines in lines.contains { line in fragments.allSatisfy { line.contains($0) } } }
    }
}

/// Each sample runs for real against a sample server on 127.0.0.1, and throws when an answer is
/// not what it expects; these tests run them so the samples cannot rot, and check the output.
@Suite struct SamplesTests {
    /// Runs one scenario against a fresh server and returns what it printed.
    private func run(_ scenario: Scenario) async throws -> Transcript {
        let server = try SampleServer(port: 0)
        defer { server.stop() }
        let transcript = Transcript()
        try await scenario.run(baseURL: server.baseURL, output: transcript.output)
        return transcript
    }

    @Test func loginAndUsers() async throws {
        let transcript = try await run(.loginAndUsers)
        #expect(transcript.hasLine("logged in as wiki"))
        #expect(transcript.hasLine("user 102 is alice"))
        #expect(transcript.hasLine("wiki, alice"))
        #expect(transcript.hasLine("HTTP 401", "error_code 1001", "invalid username or password"))
        #expect(transcript.hasLine("HTTP 404", "error_code 1004", "user not found"))
        // The logger hook's lines, with the password redacted.
        #expect(transcript.hasLine("[log]", "→", "POST", "/account/login"))
        #expect(transcript.hasLine("[log]", "← ", "200", "/user/103"))
        #expect(!transcript.text.contains("secret"), "\(transcript.text)")
    }

    @Test func blockingFormOffTheMainThread() async throws {
        let server = try SampleServer(port: 0)
        defer { server.stop() }
        let transcript = Transcript()
        let baseURL = server.baseURL
        // On a thread of its own: a blocked thread of the concurrency pool, which every suite
        // shares, would stall the others' timers and awaits.
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread {
                continuation.resume(with: Result { try LoginAndUsersSample.runBlocking(baseURL: baseURL, output: transcript.output) })
            }
        }
        #expect(transcript.hasLine("blockingValue", "user 101 is wiki"))
    }

    @Test func envelope() async throws {
        let transcript = try await run(.envelope)
        #expect(transcript.hasLine("User: wiki"))
        #expect(transcript.hasLine("result-only call: succeeded"))
        #expect(transcript.hasLine("errcode 40001", "invalid token", "HTTP status was 200"))
        #expect(transcript.hasLine("unknown user", "40004"))
    }

    @Test func offlineCache() async throws {
        let transcript = try await run(.offlineCache)
        let text = transcript.text
        // Online: the network; offline: the stored copy, then the failure — in that order.
        let offline = try #require(text.range(of: "The server is stopped"))
        let cached = try #require(text.range(of: "from the cache (the stored copy): wiki",
                                             range: offline.upperBound..<text.endIndex))
        #expect(text.range(of: "failed: cannotConnect", range: cached.upperBound..<text.endIndex) != nil, "\(text)")
        #expect(transcript.hasLine("from the network: wiki"))
        #expect(transcript.hasLine("user list from the cache: wiki, alice, bob"))
        #expect(transcript.hasLine("user 103 was never fetched: cacheMiss"))
        #expect(transcript.hasLine("2 entries"))
        #expect(transcript.hasLine(".meta"))
        #expect(transcript.hasLine("removed 2 entries, 0 left"))
    }

    @Test func rankList() async throws {
        let transcript = try await run(.rankList)
        #expect(transcript.hasLine("4 items"))
        #expect(transcript.hasLine("1. 畅销榜"))
        #expect(transcript.hasLine("2. 新作榜", "rankingType 2"))
        #expect(transcript.hasLine("business(code: \"0\", message: \"参数错误\")"))
        #expect(transcript.hasLine("HTTP 200", "33554432 bytes on disk"))
    }

    @Test func porting() async throws {
        let transcript = try await run(.porting)
        #expect(transcript.hasLine("[spinner] loading rankList"))
        #expect(!transcript.hasLine("loading ping"))
        #expect(transcript.hasLine("the indicator announced 1 of 2 calls"))
        #expect(transcript.hasLine("business(code: \"0\", message: \"参数错误\") at data.stateCode"))
        #expect(transcript.hasLine("data → wiki (101)"))
        #expect(transcript.hasLine("4 entries, argValue [1, 2, 3, 4]"))
        #expect(transcript.hasLine("alice, 24, level 1"))
    }

    @Test func afStyle() async throws {
        let transcript = try await run(.afStyle)
        #expect(transcript.hasLine("POST account/login → logged in as wiki"))
        #expect(transcript.hasLine("GET user/101 → wiki"))
        #expect(transcript.hasLine("wiki, alice"))
        #expect(transcript.hasLine("shared", "alice"))
        #expect(transcript.hasLine("HTTP 404", "error_code 1004"))
        #expect(transcript.hasLine("upload [", "%"))
        #expect(transcript.hasLine("album=8", "photo=8388608"))
    }

    @Test func unixSocket() async throws {
        let transcript = try await run(.unixSocket)
        #expect(transcript.hasLine("Unix socket", "docker.sock"))
        #expect(transcript.hasLine("GET http+unix://%2F", "%2Fdocker.sock/v1.43/info"))
        #expect(transcript.hasLine("Docker 24.0.7-sample on Chain sample", "2 of 3 containers running", "4 CPUs", "8.0 GiB"))
        #expect(transcript.hasLine("web", "nginx:1.25", "7c2dc43b3681", "Up 5 minutes", "8080→80/tcp"))
        #expect(transcript.hasLine("db", "postgres:16", "5432/tcp"))
        #expect(transcript.hasLine("web (running), db (running), migrate (exited)"))
        #expect(transcript.hasLine("/web is running"))
        #expect(transcript.hasLine("HTTP 404", "No such container: nope"))
        #expect(transcript.hasLine("HTTPSessionManager", "unixSocketPath"))
        #expect(transcript.hasLine("GET containers/json → web, db"))
        // The socket file lives in a directory the sample removes when it is done.
        let path = try #require(transcript.text.split(separator: " ").first { $0.hasSuffix("docker.sock,") })
        #expect(!FileManager.default.fileExists(atPath: String(path.dropLast())))
    }

    @Test func session() async throws {
        let transcript = try await run(.session)
        #expect(transcript.hasLine("1) login through 302 /cookies/set → /cookies", "session, theme"))
        #expect(transcript.hasLine("2) a later call sent session, theme", "Cookie: session=***; theme=***"))
        #expect(transcript.hasLine("3) Digest-protected call: HTTP 200", "authenticated"))
        #expect(transcript.hasLine("4) HTTPSessionManager with the same jar sent session, theme"))
        #expect(transcript.hasLine("5) the redirection block saw", "302 → /redirect/1", "302 → /get"))
        #expect(transcript.hasLine("6) after logout the jar holds 0 cookies"))
    }

    @Test func streaming() async throws {
        let transcript = try await run(.streaming)
        #expect(transcript.hasLine("1) text/event-stream — tokens as they arrive"))
        #expect(transcript.hasLine("assembled: Chain streams tokens as they arrive from the server"))
        #expect(transcript.hasLine("2) a dropping feed: events 1, 2, 3, 4, 5, 6 over 3 reconnections, then 204"))
        #expect(transcript.hasLine("3) NDJSON: item 1, item 2, item 3"))
        #expect(transcript.hasLine("4) HTTPSessionManager streamingDataTask: HTTP 200, 10240 bytes"))
        #expect(transcript.hasLine("5) a streamed upload: the server read 1048576 bytes, chunked: true"))
    }

    @Test func runnerNamesTheFailedSampleAndKeepsGoing() async throws {
        let server = try SampleServer(port: 0)
        defer { server.stop() }
        let transcript = Transcript()
        let broken = Scenario(name: "broken", title: "always fails") { _, _ in throw SampleFailure("on purpose") }
        let fine = Scenario(name: "fine", title: "always passes") { _, output in output.say("fine ran") }
        let failed = await SampleRunner.run([broken, fine], baseURL: server.baseURL, output: transcript.output)
        #expect(failed == ["broken"])
        #expect(transcript.hasLine("=== 1/2 broken"))
        #expect(transcript.hasLine("broken: FAILED: on purpose"))
        #expect(transcript.hasLine("fine ran"))
        #expect(SampleRunner.summary(failed, total: 2, output: transcript.output) == 1)
        #expect(transcript.hasLine("FAILED: broken (1 of 2)"))
        #expect(SampleRunner.summary([], total: 2, output: transcript.output) == 0)
    }

    @Test func everySampleHasACommand() {
        #expect(Scenario.all.map(\.name) == ["login-and-users", "envelope", "offline-cache", "rank-list", "afstyle-demo",
                                                "unix-socket", "session", "streaming", "porting"])
    }
}
