import AFStyle
import Digest
import Foundation
import SampleServer
import Testing

@Suite("Multipart, upload and download", .timeLimit(.minutes(2)))
struct TransferTests {
    @Test("multipart: parameters, a file streamed from disk, in-memory data and a field, checksummed per part")
    func multipart() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fileBytes = testBytes(300_000)
        let fileURL = directory.appendingPathComponent("photo.jpg")
        try fileBytes.write(to: fileURL)
        let dataBytes = testBytes(1_000, seed: 9)

        let manager = try makeManager()
        let callbacks = Callbacks<Any?>()
        let reports = Recorder<TransferProgress>()
        let task = manager.POST("upload", parameters: ["album": "holidays", "tags": ["a", "b"]], headers: nil,
                                constructingBodyWith: { formData in
            try formData.appendPart(withFileURL: fileURL, name: "photo", fileName: "beach.jpg", mimeType: "image/jpeg")
            formData.appendPart(withFileData: dataBytes, name: "blob", fileName: "blob.bin",
                                mimeType: "application/octet-stream")
            formData.appendPart(withFormData: Data("a caption".utf8), name: "caption")
            try formData.appendPart(withFileURL: fileURL, name: "again")
        }, progress: { reports.append($0) }, success: callbacks.success, failure: callbacks.failure)
        #expect(task != nil)
        let parts = try #require(try await callbacks.dictionary()["parts"] as? [[String: Any]])
        #expect(parts.map { $0["name"] as? String } == ["album", "tags[]", "tags[]", "photo", "blob", "caption", "again"])
        func part(_ index: Int) -> (size: Int?, sha: String?, file: String?, type: String?) {
            (parts[index]["size"] as? Int, parts[index]["sha256"] as? String, parts[index]["filename"] as? String,
             parts[index]["contentType"] as? String)
        }
        #expect(part(0).sha == SHA256.hexDigest(Data("holidays".utf8)))
        #expect(part(0).file == nil)
        #expect(part(3).size == 300_000)
        #expect(part(3).sha == SHA256.hexDigest(fileBytes))
        #expect(part(3).file == "beach.jpg")
        #expect(part(3).type == "image/jpeg")
        #expect(part(4).sha == SHA256.hexDigest(dataBytes))
        #expect(part(4).file == "blob.bin")
        #expect(part(5).sha == SHA256.hexDigest(Data("a caption".utf8)))
        #expect(part(6).file == "photo.jpg")
        #expect(part(6).type == "image/jpeg")
        #expect(reports.values.allSatisfy { $0.direction == .upload })
        #expect((reports.values.last?.completedBytes ?? 0) > 300_000)
    }

    @Test("multipart: a missing file fails with .fileIO through failure, even when the block used try?")
    func multipartMissingFile() async throws {
        // A server of its own, so its request count proves nothing was sent.
        let server = try SampleServer(port: 0)
        defer { server.stop() }
        let manager = HTTPSessionManager(baseURL: server.baseURL)
        let missing = URL(fileURLWithPath: "/nonexistent/afstyle/\(UUID().uuidString).txt")
        for swallow in [true, false] {
            let callbacks = Callbacks<Any?>()
            let task = manager.POST("upload", parameters: nil, headers: nil, constructingBodyWith: { formData in
                formData.appendPart(withFormData: Data("x".utf8), name: "field")
                if swallow {
                    try? formData.appendPart(withFileURL: missing, name: "file")
                } else {
                    try formData.appendPart(withFileURL: missing, name: "file")
                }
            }, success: callbacks.success, failure: callbacks.failure)
            #expect(task == nil)
            let callback = try await callbacks.one()
            #expect(callback.task == nil)
            #expect(callback.error?.kind == .fileIO)
            #expect(server.requestCount == 0)
        }
    }

    @Test("upload from a file streams it; upload from data; both with upload progress")
    func upload() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = testBytes(1_000_000)
        let fileURL = directory.appendingPathComponent("upload.bin")
        try bytes.write(to: fileURL)
        let manager = try makeManager()

        let reports = Recorder<TransferProgress>()
        let fromFile = Callbacks<Any?>()
        let task = manager.upload("post", fromFile: fileURL, progress: { reports.append($0) },
                                  success: fromFile.success, failure: fromFile.failure)
        let echo = try await fromFile.dictionary()
        #expect(echo["bodyLength"] as? Int == 1_000_000)
        #expect(echo["bodySHA256"] as? String == SHA256.hexDigest(bytes))
        #expect(((echo["headers"] as? [String: Any])?["Content-Type"] as? String) == "application/octet-stream")
        #expect(reports.values.last?.completedBytes == 1_000_000)
        #expect(reports.values.allSatisfy { $0.direction == .upload })
        #expect(task?.uploadProgress?.completedBytes == 1_000_000)

        let fromData = Callbacks<Any?>()
        manager.upload("put", method: .put, headers: ["Content-Type": "text/plain"], from: Data("hello".utf8),
                       success: fromData.success, failure: fromData.failure)
        let put = try await fromData.dictionary()
        #expect(put["method"] as? String == "PUT")
        #expect(put["data"] as? String == "hello")

        let missing = Callbacks<Any?>()
        manager.upload("post", fromFile: directory.appendingPathComponent("nope"), success: missing.success,
                       failure: missing.failure)
        #expect(try await missing.one().error?.kind == .fileIO)
    }

    @Test("download to a URL: byte-identical, progress to the end, no temporary file left, replaces the old file")
    func downloadToURL() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("file.bin")
        try Data("old".utf8).write(to: destination)
        let manager = try makeManager()
        let reports = Recorder<TransferProgress>()
        let callbacks = Callbacks<URL>()
        manager.download("bytes/2000000", parameters: ["seed": 5], to: destination, progress: { reports.append($0) },
                         success: callbacks.success, failure: callbacks.failure)
        let callback = try await callbacks.one()
        #expect(callback.value == destination.standardizedFileURL)
        #expect(try Data(contentsOf: destination) == Data(SampleServer.deterministicBytes(count: 2_000_000, seed: 5)))
        #expect(reports.values.last?.completedBytes == 2_000_000)
        #expect(reports.values.allSatisfy { $0.direction == .download })
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["file.bin"])
    }

    @Test("download failure: the destination is left alone and the temporary file removed")
    func downloadFailure() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("file.bin")
        let manager = try makeManager()
        let callbacks = Callbacks<URL>()
        manager.download("status/404", to: destination, success: callbacks.success, failure: callbacks.failure)
        #expect(try await callbacks.one().error?.kind == .unacceptableStatus(404))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)

        let noDirectory = Callbacks<URL>()
        manager.download("bytes/10", to: directory.appendingPathComponent("missing/file.bin"),
                         success: noDirectory.success, failure: noDirectory.failure)
        #expect(try await noDirectory.one().error?.kind == .fileIO)
    }

    @Test("download with AFNetworking's destination closure and completion handler")
    func downloadWithDestinationClosure() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manager = try makeManager()
        let outcome = Callbacks<URL>()
        let seen = Recorder<String>()
        manager.download("bytes/70000", progress: nil, destination: { targetPath, response in
            seen.append(targetPath.path)
            return directory.appendingPathComponent("named-\(response.statusCode).bin")
        }, completionHandler: { response, fileURL, error in
            if let fileURL { outcome.succeed(fileURL) }
            if let error { outcome.failure(nil, error) }
            #expect(response?.statusCode == 200)
        })
        let url = try #require(try await outcome.one().value)
        #expect(url.lastPathComponent == "named-200.bin")
        #expect(try Data(contentsOf: url) == Data(SampleServer.deterministicBytes(count: 70_000)))
        let temporary = try #require(seen.values.first)
        #expect(!FileManager.default.fileExists(atPath: temporary))

        let failed = Callbacks<URL>()
        manager.download("status/500", destination: { _, _ in directory.appendingPathComponent("never") },
                         completionHandler: { _, fileURL, error in
            if let error { failed.failure(nil, error) } else { failed.succeed(fileURL ?? directory) }
        })
        #expect(try await failed.one().error?.kind == .unacceptableStatus(500))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("never").path))

        let invalid = Callbacks<URL>()
        let task = manager.download("http://[::1", destination: { _, _ in directory }, completionHandler: { response, _, error in
            #expect(response == nil)
            if let error { invalid.failure(nil, error) }
        })
        #expect(task == nil)
        #expect(try await invalid.one().error?.kind == .invalidURL)
    }
}
