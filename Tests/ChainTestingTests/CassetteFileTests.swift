import ChainTesting
import Foundation
import SampleServer
import Testing
import TestSupport

/// The file: its format, exact bodies, damaged files, saving.
@Suite("Cassette: the file", .timeLimit(.minutes(2)))
struct CassetteFileTests {
    @Test func theFileIsSortedPrettyJSONWithOrderedHeaderPairs() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let server = try SampleServer()
        defer { server.stop() }
        let file = scratch.file()

        let recording = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .record))
        let first = await recording.url("/user/101").cassetteDataDelivery()
        let second = await recording.url("/response-headers?X-One=1&X-Two=2").cassetteDataDelivery()

        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasPrefix("{\n"))
        #expect(text.hasSuffix("}\n"))
        #expect(text.contains("\"version\" : 1"))
        let interactionsAt = try #require(text.range(of: "\"interactions\""))
        let versionAt = try #require(text.range(of: "\"version\""))
        #expect(interactionsAt.lowerBound < versionAt.lowerBound)

        let contents = try CassetteFileContents(file)
        #expect(contents.root["version"] as? Int == 1)
        #expect(contents.interactions.count == 2)
        #expect(contents.request(0)["method"] as? String == "GET")
        #expect(contents.request(0)["url"] as? String == server.baseURL.absoluteString + "/user/101")
        #expect(contents.response(0)["status"] as? Int == 200)
        #expect(contents.response(0)["body"] as? String == String(decoding: try #require(first.result.success), as: UTF8.self))
        let recordedHeaders = try #require(second.response?.headers).fields.map { ($0.name, $0.value) }
        let written = CassetteFileContents.headers(contents.response(1))
        #expect(written.map(\.0) == recordedHeaders.map(\.0))
        #expect(written.map(\.1) == recordedHeaders.map(\.1))
    }

    @Test func bodiesAndHeadersReplayByteForByte() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let server = try SampleServer()
        defer { server.stop() }
        let file = scratch.file()
        let paths = ["/bytes/4096?seed=7", "/get?text=%C3%A9t%C3%A9%20%F0%9F%98%80%20%5Cn%22", "/gzip", "/status/204"]

        let recording = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .record))
        var recorded: [Delivery<Data>] = []
        for path in paths { recorded.append(await recording.url(path).cassetteDataDelivery()) }
        #expect(recorded[0].result.success == Data(SampleServer.deterministicBytes(count: 4096, seed: 7)))
        server.stop()

        let contents = try CassetteFileContents(file)
        #expect(contents.response(0)["bodyBase64"] is String)
        #expect(contents.response(0)["body"] == nil)
        #expect(contents.response(1)["body"] is String)
        #expect(contents.response(3)["body"] == nil && contents.response(3)["bodyBase64"] == nil)

        let replaying = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file, mode: .replay))
        for (path, original) in zip(paths, recorded) {
            let replayed = await replaying.url(path).cassetteDataDelivery()
            #expect(replayed.result.success == original.result.success, "\(path)")
            #expect(replayed.response?.statusCode == original.response?.statusCode, "\(path)")
            #expect(replayed.response?.headers == original.response?.headers, "\(path)")
            #expect(replayed.response?.httpVersion == original.response?.httpVersion, "\(path)")
        }
    }

    @Test(arguments: [
        ("truncated", #"{"interactions": [{"request": {"method": "GET", "#, "not JSON"),
        ("not JSON", "hello", "not JSON"),
        ("a top-level array", "[]", "expected an object at the top level"),
        ("no version", #"{"interactions": []}"#, "no \"version\""),
        ("an unknown version", #"{"interactions": [], "version": 2}"#, "version 2"),
        ("interactions of the wrong shape", #"{"interactions": {}, "version": 1}"#, "expected an array at interactions"),
        ("a missing response", #"{"interactions": [{"request": {"method": "GET", "url": "http://h/"}}], "version": 1}"#,
         "response"),
        ("a status that is text",
         #"{"interactions": [{"request": {"method": "GET", "url": "http://h/"}, "response": {"status": "200"}}], "version": 1}"#,
         "expected a number at interactions[0].response.status"),
        ("bad base64",
         #"{"interactions": [{"request": {"method": "GET", "url": "http://h/"}, "response": {"status": 200, "bodyBase64": "%%%"}}], "version": 1}"#,
         "base64"),
        ("both body fields",
         #"{"interactions": [{"request": {"method": "GET", "url": "http://h/", "body": "a", "bodyBase64": "YQ=="}, "response": {"status": 200}}], "version": 1}"#,
         "not both"),
    ])
    func aDamagedFileIsRefusedWhenOpened(_ damage: String, _ text: String, _ reasonFragment: String) throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let file = scratch.file()
        try Data(text.utf8).write(to: file)
        for mode in [Cassette.Mode.replay, .once, .record] {
            let error = #expect(throws: CassetteError.self, "\(damage)") { try Cassette(fileURL: file, mode: mode) }
            guard case .damaged(let path, let reason)? = error else {
                Issue.record("\(damage): \(String(describing: error))")
                continue
            }
            #expect(path == file.path)
            #expect(reason.contains(reasonFragment), "\(damage): \(reason)")
            #expect(error?.description.contains(file.path) == true)
        }
    }

    @Test func aMissingFileIsAnErrorOnlyForReplay() throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let file = scratch.file("fixtures/missing.json")
        #expect(throws: CassetteError.fileMissing(path: file.path)) { try Cassette(fileURL: file, mode: .replay) }
        #expect(try Cassette(fileURL: file, mode: .once).interactionCount == 0)
        #expect(try Cassette(fileURL: file, mode: .record).interactionCount == 0)
        // Opening writes nothing.
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func aFileInANewDirectoryIsMadeAtTheFirstRecording() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let server = try SampleServer()
        defer { server.stop() }
        let file = scratch.file("fixtures/nested/users.json")
        let configuration = cassetteConfiguration(server.baseURL, try Cassette(fileURL: file))
        _ = try await configuration.url("/user/101").value(CassetteUser.self)
        #expect(try Cassette(fileURL: file, mode: .replay).interactionCount == 1)
    }

    @Test func aFailedSaveFailsTheRequestAndKeepsNothing() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let server = try SampleServer()
        defer { server.stop() }
        // The cassette's directory would have to be where a plain file is.
        let blocker = scratch.file("not-a-directory")
        try Data("x".utf8).write(to: blocker)
        let file = blocker.appendingPathComponent("cassette.json")
        let cassette = try Cassette(fileURL: file, mode: .once)
        let configuration = cassetteConfiguration(server.baseURL, cassette)

        let delivery = await configuration.url("/user/101").delivery(CassetteUser.self)
        let error = try #require(delivery.result.failure)
        #expect(error.kind == .fileIO)
        guard case .writeFailed(let path, _)? = error.cassetteError else {
            Issue.record("expected writeFailed, got \(String(describing: error.underlyingError))")
            return
        }
        #expect(path == file.path)
        #expect(error.message.contains(file.path))
        #expect(error.statusCode == 200)
        #expect(cassette.interactionCount == 0)
        #expect(scratch.contents == ["not-a-directory"])
    }

    @Test func cassettesOnDifferentFilesDoNotInterfere() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let server = try SampleServer()
        defer { server.stop() }
        let names = ["a", "b"]
        let configurations = try names.map { name in
            cassetteConfiguration(server.baseURL, try Cassette(fileURL: scratch.file("\(name).json"), mode: .record))
        }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for (name, configuration) in zip(names, configurations) {
                for index in 0..<8 {
                    group.addTask {
                        _ = try await configuration.url("/anything/\(name)-\(index)").value(CassetteEcho.self)
                    }
                }
            }
            try await group.waitForAll()
        }

        // Each file holds its own eight, and no temporary file is left behind.
        #expect(scratch.contents == ["a.json", "b.json"])
        for name in names {
            let contents = try CassetteFileContents(scratch.file("\(name).json"))
            let urls = Set(contents.interactions.indices.compactMap { contents.request($0)["url"] as? String })
            #expect(urls == Set((0..<8).map { server.baseURL.absoluteString + "/anything/\(name)-\($0)" }))
            #expect(try Cassette(fileURL: scratch.file("\(name).json"), mode: .replay).interactionCount == 8)
        }
    }
}
