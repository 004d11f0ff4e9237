@testable import CurlTransport
import Foundation
@testable import HTTPCore
@testable import HTTPFeatures
import Testing

/// What a caller sees of a response head agrees with how libcurl framed it: a status line
/// libcurl reads case-insensitively, a line starting with CR, whitespace before a colon,
/// Transfer-Encoding with Content-Length and a folded length (scenarios in
/// `Tests/HostilePeer/scenarios_parse2.py`).
@Suite("Response framing agreement", .timeLimit(.minutes(1)))
struct ResponseFramingAgreementTests {
    private func result(_ route: String) async throws -> Result<HTTPResponse, NetworkError> {
        guard let peer = await ParsePeer.shared else { throw TestFailure("the hostile peer did not start") }
        return await Clients.faults.result(HTTPRequest(url: peer.url("/parse2/\(route)")))
    }

    // MARK: Status lines libcurl reads case-insensitively

    /// libcurl takes `http/1.1 500` after a `100` as a new response (HTTP/1.0 200); the
    /// recorder must not file its lines, conflicting lengths included, under the 100 head.
    @Test func aLowercaseStatusLineAfterContinueIsRefused() async throws {
        let result = try await result("lowercase-after-continue")
        #expect(result.success == nil, "delivered as \(result.success?.statusCode ?? 0) with \(result.success?.body.count ?? 0) bytes")
        #expect(result.failure?.kind == .invalidResponse)
    }

    @Test(arguments: ["lowercase-status", "mixed-case-status"])
    func aStatusLineNotSpelledHTTPIsRefused(route: String) async throws {
        let result = try await result(route)
        #expect(result.success == nil, "\(route): delivered as \(result.success?.statusCode ?? 0)")
        #expect(result.failure?.kind == .invalidResponse)
    }

    /// libcurl reads 500 past the tab; the status the caller gets must be the one libcurl framed by.
    @Test func aStatusLibcurlReadsDifferentlyIsRefused() async throws {
        let result = try await result("tab-before-code")
        #expect(result.success == nil, "delivered as \(result.success?.statusCode ?? 0)")
        #expect(result.failure?.kind == .invalidResponse)
    }

    // MARK: A line starting with CR ends the head

    @Test func aLineStartingWithCREndsTheHeadAsInLibcurl() async throws {
        let response = try await result("cr-line-ends-head").get()
        #expect(response.statusCode == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "ok")
        #expect(response.headers.fields.map(\.name) == ["Content-Length"])
    }

    @Test func theRecorderAndParserEndAHeadAtALineStartingWithCROrLF() {
        for blank in ["\rjunk: 2\r\n", "\njunk\n", "\r\r\n"] {
            var recorder = CurlResponseHeadRecorder()
            let lines = ["HTTP/1.1 100 Continue\r\n", blank, "HTTP/1.1 200 OK\r\n", "A: 1\r\n", "\r\n"]
            for line in lines {
                #expect(Array(line.utf8).withUnsafeBytes { recorder.record($0) { .init(redirects: 0, bytes: 1) } },
                        "refused \(line.debugDescription) after \(blank.debugDescription)")
            }
            #expect(recorder.statusCode == 200)
            #expect(recorder.isHeadComplete)
            var parser = CurlResponseHeadParser()
            for line in ["HTTP/1.1 200 OK\r\n", "A: 1\r\n", blank, "B: 2\r\n"] {
                Array(line.utf8).withUnsafeBytes { parser.consume($0) }
            }
            #expect(parser.isHeadComplete)
            #expect(parser.headers.fields.map(\.name) == ["A", "B"], "\(blank.debugDescription)")
        }
    }

    // MARK: Framing fields

    /// libcurl frames by `Content-Length: 2`; the field with a space before its colon is
    /// no field to it, and callers must not see 99.
    @Test func aFieldWithWhitespaceBeforeItsColonIsDropped() async throws {
        let response = try await result("space-before-colon").get()
        #expect(String(decoding: response.body, as: UTF8.self) == "ok")
        #expect(response.headers["Content-Length"] == "2")
        #expect(response.headers.values(for: "Content-Length") == ["2"])
        #expect(response.headers["X-After"] == "yes")
    }

    @Test(arguments: ["chunked-and-length", "length-and-chunked"])
    func transferEncodingWithContentLengthIsRefused(route: String) async throws {
        let result = try await result(route)
        #expect(result.success == nil, "\(route): accepted with Content-Length \(result.success?.headers["Content-Length"] ?? "-")")
        #expect(result.failure?.kind == .invalidResponse)
    }

    @Test func aFoldedContentLengthIsRefused() async throws {
        let result = try await result("folded-length")
        #expect(result.success == nil, "accepted with Content-Length \(result.success?.headers["Content-Length"] ?? "-")")
        #expect(result.failure?.kind == .invalidResponse)
    }

    /// The recorder's rules, without I/O: where a line is refused, and where it is not.
    @Test func theRecorderRefusesWhatLibcurlWouldFrameOtherwise() {
        func violation(_ lines: [String]) -> CurlResponseHeadRecorder.Violation? {
            var recorder = CurlResponseHeadRecorder()
            for line in lines {
                guard Array(line.utf8).withUnsafeBytes({ recorder.record($0) { .init(redirects: 0, bytes: 1) } }) else {
                    return recorder.violation
                }
            }
            return nil
        }
        #expect(violation(["http/1.1 500 X\r\n"]) == .statusLineMisspelled)
        #expect(violation(["HTTP/1.1 100 Continue\r\n", "\r\n", "hTTP/1.1 500 X\r\n"]) == .statusLineMisspelled)
        #expect(violation(["HTTP/1.1 500 X\r\n", "http/1.1 200 OK\r\n"]) == .statusLineInsideResponse)
        #expect(violation(["HTTP/1.1 200 OK\r\n", "Transfer-Encoding: chunked\r\n", "Content-Length: 2\r\n"])
            == .lengthWithTransferEncoding)
        #expect(violation(["HTTP/1.1 200 OK\r\n", "Content-Length: 2\r\n", "TRANSFER-ENCODING: chunked\r\n"])
            == .lengthWithTransferEncoding)
        #expect(violation(["HTTP/1.1 200 OK\r\n", "Content-Length: 2\r\n", "\t3\r\n"]) == .conflictingContentLength)
        // No framing to libcurl: a space before the colon, a trailer, a fold of another field,
        // the fields of an earlier head.
        #expect(violation(["HTTP/1.1 200 OK\r\n", "Transfer-Encoding : chunked\r\n", "Content-Length: 2\r\n", "\r\n"]) == nil)
        #expect(violation(["HTTP/1.1 200 OK\r\n", "Transfer-Encoding: chunked\r\n", "\r\n", "Content-Length: 2\r\n"]) == nil)
        #expect(violation(["HTTP/1.1 200 OK\r\n", "X-A: 1\r\n", " 2\r\n", "Content-Length: 2\r\n", "\r\n"]) == nil)
        #expect(violation(["HTTP/1.1 100 Continue\r\n", "Transfer-Encoding: chunked\r\n", "\r\n", "HTTP/1.1 200 OK\r\n",
                           "Content-Length: 2\r\n", "\r\n"]) == nil)
    }

    /// Folding elsewhere is replaced by a space (RFC 9112 §5.2), as before.
    @Test func aFoldedOtherFieldIsJoinedWithASpace() async throws {
        let response = try await result("folded-other").get()
        #expect(response.headers["X-Folded"] == "a b")
        #expect(String(decoding: response.body, as: UTF8.self) == "ok")
    }
}
