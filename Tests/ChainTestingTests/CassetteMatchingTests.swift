import ChainTesting
import Foundation
import SampleServer
import Testing
import TestSupport

/// What a replayed request must share with its recording, and what the file hides.
@Suite("Cassette: matching and redaction", .timeLimit(.minutes(2)))
struct CassetteMatchingTests {
    @Test func secretsAreHiddenInTheFileAndTheReplayStillMatches() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let server = try SampleServer()
        defer { server.stop() }
        let file = scratch.file()

        let recording = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .record))
        let form = try await recording.url("/account/login").method(.post).header("Authorization", "Bearer abc123")
            .params(["username": "wiki", "password": "secret"]).value(CassetteUser.self)
        let json = try await recording.url("/account/login").method(.post).encoding(.json)
            .params(["username": "bob", "password": "builder"]).value(CassetteUser.self)
        let cookie = await recording.url("/cookies/set-header").query(["h": "sid=s3ss10n; Path=/"]).cassetteDataDelivery()
        #expect(cookie.response?.headers["Set-Cookie"] == "sid=s3ss10n; Path=/")
        server.stop()

        let text = try String(contentsOf: file, encoding: .utf8)
        for secret in ["secret", "abc123", "builder"] { #expect(!text.contains(secret), "\(secret) is in the file") }
        let contents = try CassetteFileContents(file)
        let formBody = try #require(contents.request(0)["body"] as? String)
        #expect(formBody.contains("password=***"))
        #expect(formBody.contains("username=wiki"))
        #expect(CassetteFileContents.headers(contents.request(0)).contains { $0 == ("Authorization", "Bearer ***") })
        let jsonBody = try #require(contents.request(1)["body"] as? String)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(jsonBody.utf8)) as? [String: String])
        #expect(parsed == ["username": "bob", "password": "***"])
        #expect(CassetteFileContents.headers(contents.response(2)).contains { $0 == ("Set-Cookie", "sid=***; Path=/") })

        // Other secrets, the same redacted forms: the recordings answer.
        let replaying = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .replay))
        #expect(try await replaying.url("/account/login").method(.post).header("Authorization", "Bearer zzz")
            .params(["username": "wiki", "password": "another"]).value(CassetteUser.self) == form)
        #expect(try await replaying.url("/account/login").method(.post).encoding(.json)
            .params(["username": "bob", "password": "another"]).value(CassetteUser.self) == json)
        // What is not a secret still counts.
        let otherUser = await replaying.url("/account/login").method(.post)
            .params(["username": "alice", "password": "secret"]).delivery(CassetteUser.self)
        #expect(otherUser.result.failure?.cassetteError != nil)
        // The response's headers replay as the file has them.
        let replayedCookie = await replaying.url("/cookies/set-header").query(["h": "sid=s3ss10n; Path=/"]).cassetteDataDelivery()
        #expect(replayedCookie.response?.headers["Set-Cookie"] == "sid=***; Path=/")
    }

    @Test func bodiesAreComparedUnlessTheMatchingSaysNot() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let server = try SampleServer()
        defer { server.stop() }
        let file = scratch.file()

        let recording = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .record))
        _ = try await recording.url("/post").method(.post).body(Data("alpha".utf8), contentType: "text/plain")
            .value(CassetteEcho.self)
        _ = try await recording.url("/put").method(.put).body(Data(#"{"a":1,"b":[1,2]}"#.utf8), contentType: "application/json")
            .value(CassetteEcho.self)
        server.stop()

        let strict = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .replay))
        #expect(try await strict.url("/post").method(.post).body(Data("alpha".utf8)).value(CassetteEcho.self).data == "alpha")
        let other = await strict.url("/post").method(.post).body(Data("beta".utf8)).delivery(CassetteEcho.self)
        #expect(other.result.failure?.cassetteError
            == .notRecorded(method: "POST", url: server.baseURL.absoluteString + "/post", path: file.path))
        // JSON compares as JSON: key order and white space do not count, values do.
        let reordered = Data(#"{ "b": [1, 2], "a": 1 }"#.utf8)
        #expect(try await strict.url("/put").method(.put).body(reordered).value(CassetteEcho.self).data == #"{"a":1,"b":[1,2]}"#)
        let changed = await strict.url("/put").method(.put).body(Data(#"{"a":2,"b":[1,2]}"#.utf8)).delivery(CassetteEcho.self)
        #expect(changed.result.failure?.cassetteError != nil)

        let lenient = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .replay,
                                                                         matching: .default.ignoringBody()))
        #expect(try await lenient.url("/post").method(.post).body(Data("beta".utf8)).value(CassetteEcho.self).data == "alpha")
    }

    @Test func queryItemsCompareSortedAndIgnoredOnesNotAtAll() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let server = try SampleServer()
        defer { server.stop() }
        let file = scratch.file()
        let base = server.baseURL.absoluteString

        let recording = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .record))
        let recorded = try await recording.url("/get?q=1&ts=100").value(CassetteEcho.self)
        #expect(recorded.args == ["q": "1", "ts": "100"])
        server.stop()

        let strict = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .replay))
        #expect(try await strict.url("/get?ts=100&q=1").value(CassetteEcho.self) == recorded)
        let later = await strict.url("/get?q=1&ts=200").delivery(CassetteEcho.self)
        #expect(later.result.failure?.cassetteError == .notRecorded(method: "GET", url: base + "/get?q=1&ts=200", path: file.path))

        let ignoring = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .replay,
                                                                          matching: .default.ignoringQueryParameters("ts")))
        #expect(try await ignoring.url("/get?ts=200&q=1").value(CassetteEcho.self) == recorded)
        #expect(try await ignoring.url("/get?q=1").value(CassetteEcho.self) == recorded)
        let otherQuery = await ignoring.url("/get?q=2&ts=100").delivery(CassetteEcho.self)
        #expect(otherQuery.result.failure?.cassetteError != nil)
    }

    @Test func namedHeadersAreComparedWhenAsked() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let server = try SampleServer()
        defer { server.stop() }
        let file = scratch.file()

        let recording = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .record))
        let recorded = try await recording.url("/get").header("X-Variant", "a").value(CassetteEcho.self)
        server.stop()

        let byDefault = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .replay))
        #expect(try await byDefault.url("/get").header("X-Variant", "b").value(CassetteEcho.self) == recorded)

        let byHeader = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .replay,
                                                                          matching: .default.comparingHeaders("x-variant")))
        #expect(try await byHeader.url("/get").header("X-Variant", "a").value(CassetteEcho.self) == recorded)
        let other = await byHeader.url("/get").header("X-Variant", "b").delivery(CassetteEcho.self)
        #expect(other.result.failure?.cassetteError != nil)
        let missing = await byHeader.url("/get").delivery(CassetteEcho.self)
        #expect(missing.result.failure?.cassetteError != nil)
    }
}
