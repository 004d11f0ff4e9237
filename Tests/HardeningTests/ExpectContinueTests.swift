import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

/// Bodies go out without `Expect: 100-continue` (issue 21, "Also"): a server that never answers
/// `100 Continue` (`scenarios_redirect.py`, `redirect-no-continue`) would otherwise stall each
/// upload for libcurl's one-second wait. What is asserted is the header, not the time.
@Suite("Expect: 100-continue", .serialized, .timeLimit(.minutes(1)))
struct ExpectContinueTests {
    private let client = HTTPClient()

    private func send(_ body: HTTPBody, _ peer: HostilePeer, id: String) async throws -> HostilePeer.RecordedRequest {
        let request = HTTPRequest(url: peer.url("/redirect-no-continue/\(id)"), method: .post, body: body)
        let result = await client.result(request)
        #expect(result.success?.statusCode == 200, "\(id): \(String(describing: result.failure))")
        return try #require(peer.recordedRequests(pathPrefix: "/redirect-no-continue/\(id)").first)
    }

    @Test func noExpectForMultipartBodies() async throws {
        let peer = try await redirectScenarioPeer()
        defer { peer.stop() }
        var small = MultipartFormData()
        small.append("value", name: "field")
        #expect(try await send(.multipart(small), peer, id: "small-form").header("Expect") == nil)
        var large = MultipartFormData()
        large.append(Data(repeating: 0x61, count: 2 * 1024 * 1024), name: "blob", fileName: "blob.bin")
        let received = try await send(.multipart(large), peer, id: "large-form")
        #expect(received.header("Expect") == nil)
        #expect(received.bodyLength > 2 * 1024 * 1024)
    }

    @Test func noExpectForLargeInMemoryBodies() async throws {
        let peer = try await redirectScenarioPeer()
        defer { peer.stop() }
        let received = try await send(.data(Data(repeating: 0x62, count: 2 * 1024 * 1024)), peer, id: "large-data")
        #expect(received.header("Expect") == nil)
        #expect(received.bodyLength == 2 * 1024 * 1024)
    }

    @Test func aCallersOwnExpectIsKept() async throws {
        let peer = try await redirectScenarioPeer()
        defer { peer.stop() }
        var request = HTTPRequest(url: peer.url("/redirect-no-continue/own"), method: .post,
                                  body: .data(Data(repeating: 0x63, count: 2 * 1024 * 1024)))
        request.headers = ["Expect": "100-continue"]
        _ = await client.result(request)
        #expect(peer.recordedRequests(pathPrefix: "/redirect-no-continue/own").first?.header("Expect") == "100-continue")
    }
}
