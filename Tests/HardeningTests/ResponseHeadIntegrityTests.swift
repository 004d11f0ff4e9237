import Chain
@testable import CurlTransport
import Foundation
@testable import HTTPCore
@testable import HTTPFeatures
import Testing

/// One hostile peer for the response-head suites (`Tests/HostilePeer/scenarios_parse.py`).
enum ParsePeer {
    /// Started once, off the concurrency pool: a lazy `static let` would hold every suite that
    /// asks for it in a blocked thread of the pool until python printed its port.
    private static let starting = Task { try? await HostilePeer.start() }

    /// The peer, or `nil` when it could not start.
    static var shared: HostilePeer? {
        get async { await starting.value }
    }

    /// The URL of `/parse/<route>` on the shared peer.
    static func url(_ route: String) async throws -> URL {
        guard let peer = await shared else { throw TestFailure("the hostile peer did not start") }
        return peer.url("/parse/\(route)")
    }

    /// `route` through the engine, with `configure` applied to the request.
    static func result(_ route: String, configure: (inout HTTPRequest) -> Void = { _ in }) async throws
        -> Result<HTTPResponse, NetworkError> {
        var request = HTTPRequest(url: try await url(route))
        configure(&request)
        return await Clients.faults.result(request)
    }
}

/// Only a response libcurl itself begins starts a new head; conflicting framing and CR, LF or
/// NUL inside a value never reach the caller as the server meant them to.
@Suite("Response head integrity", .timeLimit(.minutes(1)))
struct ResponseHeadIntegrityTests {
    /// The three routes a status-like line (`HTTP/1.1 200 OK: x`) takes into a response, with
    /// the real status a success must not replace.
    static let fakeStatusRoutes = ["fake-status-head", "fake-status-lf", "fake-status-trailer", "fake-status-empty-chunked"]

    @Test(arguments: fakeStatusRoutes, [500, 403])
    func aFakeStatusLineIsRefusedAndTheRealStatusKept(route: String, status: Int) async throws {
        let result = try await ParsePeer.result("\(route)?status=\(status)")
        #expect(result.success == nil, "\(route): a \(status) was delivered as \(result.success?.statusCode ?? 0)")
        #expect(result.failure?.kind == .invalidResponse)
        #expect(result.failure?.statusCode == status)
        #expect(result.failure?.response?.headers.fields.contains { $0.name.hasPrefix("HTTP/") } == false)
    }

    /// A 3xx libcurl does not follow (it has no Location) is final: a status-like trailer
    /// after its empty chunked body is no new response.
    @Test func anUnfollowedRedirectsTrailersBeginNoResponse() async throws {
        let result = try await ParsePeer.result("redirect-no-location")
        #expect(result.failure?.kind == .invalidResponse)
        #expect(result.failure?.statusCode == 302)
    }

    @Test(arguments: fakeStatusRoutes)
    func aDownloadWithAFakeStatusLineMovesNothingIntoPlace(route: String) async throws {
        let directory = try temporaryDirectory("parse-download")
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("file.bin")
        let configuration = chainConfiguration(queue: DispatchQueue(label: "parse-download"))
        let url = try await ParsePeer.url("\(route)?status=500").absoluteString
        let result = await withCheckedContinuation { continuation in
            Request.url(url).configuration(configuration).download(to: destination) { continuation.resume(returning: $0) }
        }
        #expect(result.success == nil, "\(route): a 500 was downloaded as a success")
        #expect(result.failure?.statusCode == 500)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect((try FileManager.default.contentsOfDirectory(atPath: directory.path)).isEmpty)
    }

    /// The heads libcurl itself begins still replace the one before: `100 Continue`, and a
    /// redirect it follows; with redirects off, the 3xx is the response.
    @Test func theHeadsLibcurlBeginsStillStartANewHead() async throws {
        let continued = try await ParsePeer.result("continue")
        #expect(continued.success?.statusCode == 201)
        #expect((try? continued.success?.text()) == "after continue")
        let redirected = try await ParsePeer.result("redirect")
        #expect(redirected.success?.statusCode == 200)
        #expect(redirected.success?.headers["X-Target"] == "yes")
        #expect(redirected.success?.headers["Location"] == nil)
        let unfollowed = try await ParsePeer.result("redirect") { $0.redirectPolicy = .none }
        #expect(unfollowed.success?.statusCode == 302)
        #expect(unfollowed.success?.headers["Location"] == "/parse/redirect-target")
    }

    // MARK: Framing (item 17)

    @Test(arguments: ["content-length-conflict", "content-length-list"])
    func conflictingContentLengthsAreInvalid(route: String) async throws {
        let result = try await ParsePeer.result(route)
        #expect(result.success == nil, "\(route) was accepted with \(result.success?.body.count ?? 0) bytes")
        #expect(result.failure?.kind == .invalidResponse)
    }

    /// RFC 9110 §8.6 lets a recipient take one repeated value (as fields or as a list) as that value.
    @Test func aRepeatedIdenticalContentLengthIsAccepted() async throws {
        let result = try await ParsePeer.result("content-length-repeated")
        #expect(result.success.map { String(decoding: $0.body, as: UTF8.self) } == "01234")
    }

    @Test(arguments: [
        ("Content-Length: 5\r\n", Int64(5)), ("content-length:5, 5 ,5\r\n", 5), ("CONTENT-LENGTH: 0\r\n", 0),
        ("Content-Length: 5, 10\r\n", -1), ("Content-Length: \r\n", -1), ("Content-Length: 5,\r\n", -1),
        ("Content-Length: 1 2\r\n", -1), ("Content-Length: -1\r\n", -1), ("Content-Length: 99999999999999999999\r\n", -1),
        ("Content-Length: 0x10\r\n", -1),
    ])
    func contentLengthValuesAreReadAsLibcurlFramesThem(line: String, expected: Int64) {
        #expect(Array(line.utf8).withUnsafeBytes { CurlResponseHeadRecorder.contentLength($0) } == expected)
    }

    @Test(arguments: ["Content-Type: text/plain\r\n", "Content-Length : 5\r\n", "Content-Lengths: 5\r\n", "Cache-Control: x\r\n"])
    func otherFieldsAreNoContentLength(line: String) {
        #expect(Array(line.utf8).withUnsafeBytes { CurlResponseHeadRecorder.contentLength($0) } == nil)
    }

    // MARK: CR, LF and NUL in values (item 18)

    @Test func aBareCRInAValueBecomesASpace() async throws {
        let response = try await ParsePeer.result("bare-cr").get()
        #expect(response.headers["X-Note"] == "a Set-Cookie: injected=1")
        #expect(response.headers["Set-Cookie"] == nil)
        #expect(response.headers["X-Fold"] == "c")
        #expect(!response.headers.fields.contains { $0.value.contains("\r") || $0.name.contains("\r") })
    }

    /// NUL and CR inside names and values (libcurl refuses NUL in HTTP/1 heads; the parser does
    /// not rely on that).
    @Test func theParserReplacesCRLFAndNULInsideFields() {
        let lines: [[UInt8]] = [Array("HTTP/1.1 200 OK\r\n".utf8), Array("X-A: a\rb\u{0}c\r\n".utf8),
                                Array("X\rB: v\r\n".utf8), Array("\r\n".utf8)]
        var parser = CurlResponseHeadParser()
        for line in lines { line.withUnsafeBytes { parser.consume($0) } }
        #expect(parser.headers.fields.map(\.name) == ["X-A", "X B"])
        #expect(parser.headers.fields.map(\.value) == ["a b c", "v"])
    }

    // MARK: The recorder's rule, without I/O

    /// Feeds `lines` to a recorder; at the line of index `resentAt`, and after it, libcurl has
    /// sent one more request (`.redirect`: a redirect it followed; `.retry`: the same request
    /// again, as after a `417`). The index of the first refused line, or `nil`.
    private func firstRefused(_ lines: [String], resentAt: Int = .max, as resend: Resend = .redirect)
        -> (index: Int?, recorder: CurlResponseHeadRecorder) {
        var recorder = CurlResponseHeadRecorder()
        for (index, line) in lines.enumerated() {
            let sent = index >= resentAt
                ? CurlResponseHeadRecorder.RequestsSent(redirects: resend == .redirect ? 1 : 0, bytes: 200)
                : CurlResponseHeadRecorder.RequestsSent(redirects: 0, bytes: 100)
            let accepted = Array(line.utf8).withUnsafeBytes { recorder.record($0) { sent } }
            if !accepted { return (index, recorder) }
        }
        return (nil, recorder)
    }

    enum Resend { case redirect, retry }

    @Test func aStatusLineBeginsAHeadOnlyWhereLibcurlBeginsAResponse() {
        // 1xx, then the final head.
        #expect(firstRefused(["HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "\r\n"]).index == nil)
        // A followed 3xx, then the final head; a 417 libcurl sends again without Expect.
        #expect(firstRefused(["HTTP/1.1 302 Found\r\n", "Location: /x\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "\r\n"],
                             resentAt: 3).index == nil)
        #expect(firstRefused(["HTTP/1.1 417 Expectation Failed\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "\r\n"],
                             resentAt: 2, as: .retry).index == nil)
        // The same 3xx, not followed: the line is a trailer.
        #expect(firstRefused(["HTTP/1.1 302 Found\r\n", "\r\n", "HTTP/1.1 200 OK: x\r\n"]).index == 2)
        // Inside a head, and after a final 2xx head (libcurl never sends again after one).
        #expect(firstRefused(["HTTP/1.1 500 Oops\r\n", "HTTP/1.1 200 OK: x\r\n"]).index == 1)
        #expect(firstRefused(["HTTP/1.1 200 OK\r\n", "\r\n", "HTTP/1.1 200 OK\r\n"], resentAt: 2).index == 2)
        // A request sent while the head was still arriving is no new response for that head.
        #expect(firstRefused(["HTTP/1.1 500 Oops\r\n", "\r\n", "HTTP/1.1 200 OK: x\r\n"], resentAt: 1).index == 2)
        // Inside an unfinished 1xx head.
        #expect(firstRefused(["HTTP/1.1 100 Continue\r\n", "HTTP/1.1 200 OK\r\n"]).index == 1)
        let refused = firstRefused(["HTTP/1.1 500 Oops\r\n", "A: 1\r\n", "HTTP/1.1 200 OK: x\r\n", "B: 2\r\n"])
        #expect(refused.recorder.violation == .statusLineInsideResponse)
        #expect(refused.recorder.statusCode == 500)
        #expect(CurlResponseHeadRecorder.headers(in: refused.recorder.bytes).fields.map(\.name) == ["A"])
    }

    @Test func aContentLengthThatContradictsAnEarlierOneIsRefused() {
        #expect(firstRefused(["HTTP/1.1 200 OK\r\n", "Content-Length: 5\r\n", "Content-Length: 6\r\n"]).index == 2)
        #expect(firstRefused(["HTTP/1.1 200 OK\r\n", "Content-Length: 5\r\n", "content-length: 5\r\n", "\r\n"]).index == nil)
        // A new head (after 100 Continue) frames its own body.
        #expect(firstRefused(["HTTP/1.1 100 Continue\r\n", "Content-Length: 1\r\n", "\r\n", "HTTP/1.1 200 OK\r\n",
                              "Content-Length: 2\r\n", "\r\n"]).index == nil)
        // A trailer does not frame the body.
        #expect(firstRefused(["HTTP/1.1 200 OK\r\n", "Content-Length: 5\r\n", "\r\n", "Content-Length: 6\r\n"]).index == nil)
        #expect(firstRefused(["HTTP/1.1 200 OK\r\n", "Content-Length: 5, 6\r\n"]).recorder.violation == .conflictingContentLength)
    }
}
