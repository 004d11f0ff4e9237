import Chain
@testable import CurlTransport
import Foundation
@testable import HTTPCore
@testable import HTTPFeatures
import Testing

/// The size limits apply to bodies, not to what a head announces: a HEAD or a 304 for a large
/// resource succeeds, and a body announced larger than the limit is refused at its first chunk.
@Suite("Body size limit", .timeLimit(.minutes(1)))
struct BodySizeLimitTests {
    static let tenGiB: Int64 = 10 << 30

    @Test func aHEADOfAResourceLargerThanTheLimitSucceeds() async throws {
        let result = try await ParsePeer.result("large") { $0.method = .head }
        let response = try result.get()
        #expect(response.statusCode == 200)
        #expect(response.headers["Content-Length"] == "\(BodySizeLimitTests.tenGiB)")
        #expect(response.body.isEmpty)
    }

    @Test func aNotModifiedForAResourceLargerThanTheLimitSucceeds() async throws {
        let response = try await ParsePeer.result("large-not-modified").get()
        #expect(response.statusCode == 304)
        #expect(response.headers["ETag"] == "\"big\"")
    }

    /// The announced length is checked at the first chunk: nothing of the body is kept.
    @Test func aBodyAnnouncedLargerThanTheLimitIsRefusedAtItsFirstChunk() async throws {
        let result = try await ParsePeer.result("large")
        let error = try #require(result.failure)
        #expect(error.kind == .responseTooLarge)
        #expect(error.response?.statusCode == 200)
        #expect(error.response?.body.isEmpty == true)
    }

    /// Without a Content-Length the running count stops the body.
    @Test func aChunkedBodyOverTheLimitIsRefused() async throws {
        let result = try await ParsePeer.result("large-chunked") { $0.maximumResponseSize = 10_000 }
        #expect(result.failure?.kind == .responseTooLarge)
        let whole = try await ParsePeer.result("large-chunked")
        #expect(whole.success?.body.count == 65536)
    }

    @Test func aDownloadAnnouncedLargerThanItsMaximumIsRefusedAndNotMovedIntoPlace() async throws {
        let directory = try temporaryDirectory("parse-size")
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("big.bin")
        let configuration = chainConfiguration(queue: DispatchQueue(label: "parse-size"))
        let url = try await ParsePeer.url("large").absoluteString
        let result = await withCheckedContinuation { continuation in
            Request.url(url).configuration(configuration).download(to: destination, maximumSize: 100) {
                continuation.resume(returning: $0)
            }
        }
        #expect(result.failure?.kind == .responseTooLarge)
        #expect((try FileManager.default.contentsOfDirectory(atPath: directory.path)).isEmpty)
        // A HEAD through Chain, to learn the size before downloading.
        let head = await withCheckedContinuation { continuation in
            Request.url(url).configuration(configuration).method(.head).responseData { continuation.resume(returning: $0) }
        }
        #expect(head.success != nil, "\(head.failure?.debugDescription ?? "")")
    }
}
