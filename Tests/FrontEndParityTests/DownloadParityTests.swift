import AFStyle
import Chain
import Foundation
import SampleServer
import TestSupport
import Testing

/// The same download through both front ends: the same bytes on success; on a rejected
/// status the same error and no file left behind (neither the destination nor a temporary one).
@Suite("Front-end parity: downloads", .timeLimit(.minutes(2)))
struct DownloadParityTests {
    private func afDownload(_ manager: HTTPSessionManager, _ path: String, to destination: URL) async
        -> Result<URL, NetworkError> {
        await withCheckedContinuation { continuation in
            manager.download(path, to: destination, success: { _, url in continuation.resume(returning: .success(url)) },
                             failure: { _, error in continuation.resume(returning: .failure(error)) })
        }
    }

    @Test func downloadsGiveTheSameFilesAndFailures() async throws {
        let server = try SampleServer(port: 0)
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chain-parity-dl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let manager = HTTPSessionManager(baseURL: server.baseURL)

        let chainFile = directory.appendingPathComponent("chain.bin")
        let afFile = directory.appendingPathComponent("af.bin")
        let chainResult = await Request.url(server.baseURL.appendingPathComponent("bytes/5000")).download(to: chainFile)
        let afResult = await afDownload(manager, "bytes/5000", to: afFile)
        #expect(try chainResult.get() == chainFile.standardizedFileURL)
        #expect(try afResult.get() == afFile.standardizedFileURL)
        #expect(try Data(contentsOf: chainFile) == Data(contentsOf: afFile))

        let chainMissing = directory.appendingPathComponent("chain-404.bin")
        let afMissing = directory.appendingPathComponent("af-404.bin")
        let chainFailure = await Request.url(server.baseURL.appendingPathComponent("status/404")).download(to: chainMissing)
        let afFailure = await afDownload(manager, "status/404", to: afMissing)
        #expect(chainFailure.failure?.kind == .unacceptableStatus(404))
        #expect(afFailure.failure?.kind == chainFailure.failure?.kind)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(left == ["af.bin", "chain.bin"])
    }
}

extension Request {
    fileprivate func download(to destination: URL) async -> Result<URL, NetworkError> {
        await withCheckedContinuation { continuation in
            download(to: destination) { continuation.resume(returning: $0) }
        }
    }
}
