import CCurl
@testable import CurlTransport
import Foundation
@testable import HTTPCore
@testable import HTTPFeatures
import Testing

/// libcurl codes that a server's bytes and a caller's own request can both cause are read as a
/// server fault only when the server's bytes caused them; a combination that cannot work is
/// refused before anything is sent.
@Suite("Local misuse is no server fault", .timeLimit(.minutes(1)))
struct LocalMisuseErrorTests {
    private let request = HTTPRequest(url: URL(fileURLWithPath: "/"))

    /// libcurl's refusal of an option combination (43) is not "an invalid trailer section".
    @Test func aBadArgumentNotAboutTheChunkedStreamIsATransportError() {
        let error = CurlError.makeError(code: CURLE_BAD_FUNCTION_ARGUMENT, message: "cannot mix POSTFIELDS with RESUME_FROM",
                                        request: request, response: nil, responseArrived: true)
        #expect(error.kind == .transport, "\(error.debugDescription)")
        #expect(error.curlCode == 43)
        let trailer = CurlError.makeError(code: CURLE_BAD_FUNCTION_ARGUMENT, message: "Failed reading the chunked-encoded stream",
                                          request: request, response: nil, responseArrived: true)
        #expect(trailer.kind == .invalidResponse)
    }

    /// An out-of-memory before any byte of a response arrived is a real one, not a long head line.
    @Test func outOfMemoryBeforeAnyResponseIsATransportError() {
        let error = CurlError.makeError(code: CURLE_OUT_OF_MEMORY, message: "Out of memory",
                                        request: request, response: nil, responseArrived: false)
        #expect(error.kind == .transport)
        let line = CurlError.makeError(code: CURLE_OUT_OF_MEMORY, message: "Out of memory",
                                       request: request, response: nil, responseArrived: true)
        #expect(line.kind == .responseTooLarge)
    }

    /// Range is defined for GET only (RFC 9110 §14.2): a resumed POST or PUT download would
    /// splice one action's answer onto another's, so it is refused before it is sent.
    @Test(arguments: [HTTPMethod.post, .put])
    func aResumedDownloadWithAnotherMethodThanGETIsRefused(method: HTTPMethod) async throws {
        guard let peer = await ParsePeer.shared else { throw TestFailure("the hostile peer did not start") }
        let directory = try temporaryDirectory("resume-method")
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("file.bin")
        try Data("01234".utf8).write(to: destination)
        let token = UUID().uuidString
        var request = HTTPRequest(url: peer.url("/parse2/resumable?token=\(token)"), method: method)
        request.body = .data(Data("payload".utf8))
        request.download = DownloadOptions(destination: destination, resumesPartialFile: true)
        let result = await Clients.faults.result(request)
        #expect(result.failure?.kind == .invalidRequest, "\(method.rawValue): \(result.failure?.debugDescription ?? "succeeded")")
        #expect(!peer.recordedRequests().contains { $0.target.contains(token) })
        #expect(try Data(contentsOf: destination) == Data("01234".utf8))
    }
}
