import Chain
import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

/// `download(to:resumesPartialFile: true)` against servers that ignore `Range`, honour it, change
/// the resource between attempts, resume at the wrong offset, or find the file already complete
/// (issue 21, item 3; `Tests/HostilePeer/scenarios_redirect.py`, scenario `redirect-range`).
@Suite("Resumed downloads", .serialized, .timeLimit(.minutes(1)))
struct ResumedDownloadTests {
    /// The resource of `version` as the peer serves it.
    private func content(_ version: String) -> Data {
        Data(String(repeating: "\(version)-", count: 4000).utf8.prefix(4000))
    }

    private func download(_ url: URL, to destination: URL) async -> Result<URL, NetworkError> {
        await withCheckedContinuation { continuation in
            Request.url(url).download(to: destination, resumesPartialFile: true) { continuation.resume(returning: $0) }
        }
    }

    /// A download of `version` interrupted after `count` bytes, left at `destination`.
    private func interruptedDownload(_ peer: HostilePeer, version: String, count: Int, to destination: URL) async throws {
        let result = await download(peer.url("/redirect-range/\(version)?cut=\(count)"), to: destination)
        #expect(result.failure != nil)
        #expect(try Data(contentsOf: destination) == content(version).prefix(count))
    }

    private func scratch() throws -> (directory: URL, file: URL) {
        let directory = try temporaryDirectory("resume")
        return (directory, directory.appendingPathComponent("file.bin"))
    }

    @Test("a server that ignores Range: the 200 rewrites the partial file from the start")
    func serverIgnoresRange() async throws {
        let peer = try await redirectScenarioPeer()
        defer { peer.stop() }
        let (directory, file) = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("stale partial bytes".utf8).write(to: file)
        let result = await download(peer.url("/redirect-range/v1?ignore=1"), to: file)
        #expect(result.success == file.standardizedFileURL, "\(String(describing: result.failure))")
        #expect(try Data(contentsOf: file) == content("v1"))
        #expect(peer.recordedRequests(pathPrefix: "/redirect-range").first?.header("Range") == "bytes=19-")
    }

    @Test("resuming the same resource sends Range and If-Range with its ETag and appends")
    func resumeWithTheValidator() async throws {
        let peer = try await redirectScenarioPeer()
        defer { peer.stop() }
        let (directory, file) = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await interruptedDownload(peer, version: "v1", count: 1000, to: file)
        let result = await download(peer.url("/redirect-range/v1"), to: file)
        #expect(result.success == file.standardizedFileURL, "\(String(describing: result.failure))")
        #expect(try Data(contentsOf: file) == content("v1"))
        let resumed = try #require(peer.recordedRequests(pathPrefix: "/redirect-range").last)
        #expect(resumed.header("Range") == "bytes=1000-")
        #expect(resumed.header("If-Range") == "\"v1\"")
    }

    @Test("a resumed download through a redirect asks for the range on the final hop")
    func resumeThroughARedirect() async throws {
        let peer = try await redirectScenarioPeer()
        defer { peer.stop() }
        let (directory, file) = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await interruptedDownload(peer, version: "v1", count: 1500, to: file)
        let result = await download(peer.url("/redirect-hop/r?status=302&to=/redirect-range/v1"), to: file)
        #expect(result.success == file.standardizedFileURL, "\(String(describing: result.failure))")
        #expect(try Data(contentsOf: file) == content("v1"))
        let resumed = try #require(peer.recordedRequests(pathPrefix: "/redirect-range").last)
        #expect(resumed.header("Range") == "bytes=1500-")
        #expect(resumed.header("If-Range") == "\"v1\"")
    }

    @Test("a resource that changed between attempts is downloaded whole, never spliced")
    func changedResourceIsRewritten() async throws {
        let peer = try await redirectScenarioPeer()
        defer { peer.stop() }
        let (directory, file) = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await interruptedDownload(peer, version: "v1", count: 1000, to: file)
        // The resource is now v2 (its ETag changed): If-Range makes the server answer 200.
        let result = await download(peer.url("/redirect-range/v2"), to: file)
        #expect(result.success == file.standardizedFileURL, "\(String(describing: result.failure))")
        #expect(try Data(contentsOf: file) == content("v2"))
        // A third attempt resumes nothing (the file is complete) and keeps v2's validator.
        let again = await download(peer.url("/redirect-range/v2"), to: file)
        #expect(again.success == file.standardizedFileURL, "\(String(describing: again.failure))")
        #expect(peer.recordedRequests(pathPrefix: "/redirect-range").last?.header("If-Range") == "\"v2\"")
        #expect(try Data(contentsOf: file) == content("v2"))
    }

    @Test("a 206 that does not start at the partial length is not appended")
    func misplacedRangeIsRefused() async throws {
        let peer = try await redirectScenarioPeer()
        defer { peer.stop() }
        let (directory, file) = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await interruptedDownload(peer, version: "v1", count: 1000, to: file)
        let result = await download(peer.url("/redirect-range/v1?offset=10"), to: file)
        #expect(result.failure?.kind == .invalidResponse)
        #expect(try Data(contentsOf: file) == content("v1").prefix(1000))
    }

    @Test("a complete file: the 416 with Content-Range */length is a successful download, the file untouched")
    func completeFileIsASuccess() async throws {
        let peer = try await redirectScenarioPeer()
        defer { peer.stop() }
        let (directory, file) = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try content("v1").write(to: file)
        let result = await download(peer.url("/redirect-range/v1"), to: file)
        #expect(result.success == file.standardizedFileURL, "\(String(describing: result.failure))")
        #expect(try Data(contentsOf: file) == content("v1"))
        #expect(peer.recordedRequests(pathPrefix: "/redirect-range").last?.header("Range") == "bytes=4000-")
    }

    @Test("a 416 whose length is not the file's fails and leaves the file alone")
    func longerFileIsNotTouched() async throws {
        let peer = try await redirectScenarioPeer()
        defer { peer.stop() }
        let (directory, file) = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let longer = content("v1") + Data("extra".utf8)
        try longer.write(to: file)
        let result = await download(peer.url("/redirect-range/v1"), to: file)
        #expect(result.failure?.response?.statusCode == 416)
        #expect(try Data(contentsOf: file) == longer)
    }
}
