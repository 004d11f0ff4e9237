import CCurl
@testable import CurlTransport
import Foundation
@testable import HTTPCore
@testable import HTTPFeatures
import Testing

/// Every libcurl failure a server can cause on purpose ends in the kind that names it, with
/// libcurl's code and text kept in the error (scenarios in `Tests/HostilePeer/scenarios_parse.py`).
@Suite("libcurl error mapping", .timeLimit(.minutes(1)))
struct CurlErrorMappingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let route: String
        let kind: NetworkError.Kind
        let curlCode: Int
        /// A part of libcurl's text for this failure.
        let curlText: String
        var testDescription: String { route }
    }

    static let cases: [Case] = [
        // libcurl's status-line checks share code 1 with "unsupported protocol".
        Case(route: "status-code-long", kind: .invalidResponse, curlCode: 1, curlText: "Unsupported response code"),
        Case(route: "status-code-short", kind: .invalidResponse, curlCode: 1, curlText: "Unsupported response code"),
        Case(route: "no-status-line", kind: .invalidResponse, curlCode: 1, curlText: "HTTP/0.9"),
        Case(route: "bad-version", kind: .invalidResponse, curlCode: 1, curlText: "Unsupported HTTP version"),
        // A head line over libcurl's 100 KiB cap is its "Out of memory"; a head over 300 KiB, 56.
        Case(route: "long-header-line", kind: .responseTooLarge, curlCode: 27, curlText: "Out of memory"),
        Case(route: "many-header-lines", kind: .responseTooLarge, curlCode: 56, curlText: "Too large response headers"),
        // A trailer line without a colon is 43, "bad function argument".
        Case(route: "colon-less-trailer", kind: .invalidResponse, curlCode: 43, curlText: "chunked"),
        Case(route: "colon-less-header", kind: .invalidResponse, curlCode: 8, curlText: "Header without colon"),
        Case(route: "nul-in-header", kind: .invalidResponse, curlCode: 8, curlText: "Nul byte in header"),
        Case(route: "negative-length", kind: .invalidResponse, curlCode: 8, curlText: "Content-Length"),
        Case(route: "bad-chunk", kind: .invalidResponse, curlCode: 56, curlText: "chunked-encoding"),
        Case(route: "bad-gzip", kind: .invalidResponse, curlCode: 61, curlText: "unencoding"),
        Case(route: "nothing", kind: .connectionLost, curlCode: 52, curlText: "Empty reply"),
        Case(route: "truncated", kind: .truncatedResponse, curlCode: 18, curlText: "bytes remaining"),
        // Refused by our own header callback (23, "Failed writing header").
        Case(route: "fake-status-head", kind: .invalidResponse, curlCode: 23, curlText: "header"),
        Case(route: "content-length-conflict", kind: .invalidResponse, curlCode: 23, curlText: "header"),
    ]

    @Test(arguments: cases)
    func eachFailureHasItsKindAndKeepsLibcurlsCodeAndText(_ fault: Case) async throws {
        let result = try await ParsePeer.result(fault.route)
        let error = try #require(result.failure, "\(fault.route) succeeded")
        #expect(error.kind == fault.kind, "\(error.debugDescription)")
        #expect(error.curlCode == fault.curlCode)
        #expect(error.curlMessage?.contains(fault.curlText) == true, "\(error.curlMessage ?? "no text")")
    }

    /// Code 1 still means a scheme libcurl refuses when its text says so.
    @Test func anUnsupportedSchemeIsStillOne() {
        let request = HTTPRequest(url: URL(fileURLWithPath: "/"))
        let error = CurlError.makeError(code: CURLE_UNSUPPORTED_PROTOCOL,
                                        message: "Protocol \"ftp\" not supported or disabled in libcurl",
                                        request: request, response: nil, responseArrived: true)
        #expect(error.kind == .unsupportedScheme)
        let bare = CurlError.makeError(code: CURLE_UNSUPPORTED_PROTOCOL, message: "", request: request, response: nil)
        #expect(bare.kind == .unsupportedScheme)
    }

    /// 27 and 43 refusing an option (no transfer ran) stay what they are.
    @Test func outOfMemoryAndBadArgumentOutsideATransferAreTransportErrors() {
        let request = HTTPRequest(url: URL(fileURLWithPath: "/"))
        for code in [CURLE_OUT_OF_MEMORY, CURLE_BAD_FUNCTION_ARGUMENT] {
            #expect(CurlError.makeError(code: code, message: "", request: request, response: nil).kind == .transport)
        }
    }
}
