import CurlTransport
import Digest
import Foundation
import HTTPCore
import HTTPFeatures
import SampleServer
import Testing

/// Files, multipart bodies and progress through the engine against the real sample server on
/// 127.0.0.1: bytes arrive identical and progress is monotonic.
@Suite("Engine: files, multipart and progress", .timeLimit(.minutes(2)))
struct EngineFileTransferTests {
    let client = HTTPClient.shared

    // MARK: Files, multipart, progress

    @Test func a64MiBDownloadToAFileIsByteIdentical() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("download.bin")
        let size = 64 * 1024 * 1024
        var request = HTTPRequest(url: try TestServer.endpoint("/bytes/\(size)?seed=7"))
        request.download = DownloadOptions(destination: destination)
        let response = try await client.result(request).get()
        #expect(response.fileURL == destination)
        #expect(response.body.isEmpty)
        try expectFile(destination, equalsDeterministicBytes: size, seed: 7)
    }

    @Test func aPartialDownloadResumesWithRange() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("resume.bin")
        let size = 300_000
        try Data(SampleServer.deterministicBytes(count: 100_000, seed: 3)).write(to: destination)
        var request = HTTPRequest(url: try TestServer.endpoint("/bytes/\(size)?seed=3"))
        request.download = DownloadOptions(destination: destination, resumesPartialFile: true)
        let response = try await client.result(request).get()
        #expect(response.statusCode == 206)
        try expectFile(destination, equalsDeterministicBytes: size, seed: 3)
    }

    @Test func aFileUploadStreamsFromDisk() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("upload.bin")
        let bytes = Data(SampleServer.deterministicBytes(count: 3_000_000, seed: 9))
        try bytes.write(to: file)
        var request = HTTPRequest(url: try TestServer.endpoint("/anything"), method: .put)
        request.body = .file(file)
        let response = try await client.result(request).get()
        let echo = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(echo["method"] as? String == "PUT")
        #expect(echo["bodyLength"] as? Int == bytes.count)
        #expect(echo["bodySHA256"] as? String == SHA256.hexDigest(bytes))
    }

    @Test func multipartChecksumsMatch() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("photo.jpg")
        let fileBytes = Data(SampleServer.deterministicBytes(count: 2_500_000, seed: 5))
        try fileBytes.write(to: file)
        let note = Data("hello, 世界".utf8)

        var form = MultipartFormData()
        form.append("wiki", name: "username")
        form.append(note, name: "note", fileName: "note.txt", mimeType: "text/plain")
        form.append(fileURL: file, name: "photo", mimeType: "image/jpeg")
        var request = HTTPRequest(url: try TestServer.endpoint("/upload"), method: .post)
        request.body = .multipart(form)
        let uploads = Recorder<TransferProgress>()
        let response = try await client.result(request, progress: { if $0.direction == .upload { uploads.append($0) } }).get()
        #expect(response.statusCode == 200)

        let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        let parts = try #require(object["parts"] as? [[String: Any]])
        #expect(parts.count == 3)
        #expect(parts[0]["name"] as? String == "username")
        #expect(parts[0]["sha256"] as? String == SHA256.hexDigest(Data("wiki".utf8)))
        #expect(parts[1]["filename"] as? String == "note.txt")
        #expect(parts[1]["sha256"] as? String == SHA256.hexDigest(note))
        #expect(parts[2]["filename"] as? String == "photo.jpg")
        #expect(parts[2]["contentType"] as? String == "image/jpeg")
        #expect(parts[2]["size"] as? Int == fileBytes.count)
        #expect(parts[2]["sha256"] as? String == SHA256.hexDigest(fileBytes))

        let sent = uploads.values.map(\.completedBytes)
        #expect(sent == sent.sorted())
        #expect((sent.last ?? 0) > Int64(fileBytes.count))
    }

    @Test func downloadProgressIsMonotonicAndEndsAtTheSize() async throws {
        let size = 5_000_000
        let reports = Recorder<TransferProgress>()
        let response = try await client.result(HTTPRequest(url: TestServer.endpoint("/bytes/\(size)")),
                                               progress: { reports.append($0) }).get()
        #expect(response.body.count == size)
        let downloads = reports.values.filter { $0.direction == .download }
        let counts = downloads.map(\.completedBytes)
        #expect(!counts.isEmpty)
        #expect(counts == counts.sorted())
        #expect(Set(counts).count == counts.count)
        #expect(downloads.last?.completedBytes == Int64(size))
        #expect(downloads.last?.totalBytes == Int64(size))
    }

    /// The first report waits 50 ms from the start, so a short transfer reports once — the
    /// final report, which travels in the completion's block instead of a block of its own —
    /// although its body arrives in many chunks (reporting the first chunk at once gave two).
    /// The count is only checked when the whole call took under 50 ms, as it does on loopback.
    @Test func aShortTransferReportsOnceAtTheEnd() async throws {
        let reports = Recorder<TransferProgress>()
        let started = ContinuousClock.now
        let response = try await client.result(HTTPRequest(url: TestServer.endpoint("/bytes/300000")),
                                               progress: { reports.append($0) }).get()
        let elapsed = ContinuousClock.now - started
        let downloads = reports.values.filter { $0.direction == .download }
        #expect(downloads.last?.completedBytes == Int64(response.body.count))
        if elapsed < .milliseconds(50) {
            #expect(downloads.count == 1, "reports: \(downloads)")
        }
    }

    private func expectFile(_ url: URL, equalsDeterministicBytes size: Int, seed: UInt64) throws {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var offset = 0
        let chunk = 4 * 1024 * 1024
        while offset < size {
            let expected = SampleServer.deterministicBytes(count: min(chunk, size - offset), seed: seed, offset: offset)
            let actual = try handle.read(upToCount: expected.count) ?? Data()
            guard actual == Data(expected) else {
                Issue.record("bytes differ in the chunk at offset \(offset)")
                return
            }
            offset += expected.count
        }
        #expect(try handle.read(upToCount: 1)?.isEmpty ?? true, "the file is longer than \(size)")
    }
}
