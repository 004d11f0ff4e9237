@testable import CurlTransport
import Foundation
@testable import HTTPCore
@testable import HTTPFeatures
import SampleServer
import Testing

/// The `User-Agent` and `Accept-Encoding` lines the engine adds to every request, as the
/// sample server on 127.0.0.1 receives them.
@Suite("Default header lines", .timeLimit(.minutes(2)))
struct CurlDefaultHeadersTests {
    /// The request's header lines as the server saw them; repeated names are joined with ", ",
    /// so a line sent twice would show.
    private func echoedHeaders(_ request: HTTPRequest, client: HTTPClient = .shared) async throws -> [String: String] {
        let response = try await client.result(request).get()
        let echo = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        return try #require(echo["headers"] as? [String: String])
    }

    @Test func theEncodingsAreTheOnesThisLibcurlDecodes() throws {
        let encodings = CurlDefaultHeaders.decodableEncodings
        // Debian's libcurl always has zlib; brotli and zstd depend on the build.
        #expect(Array(encodings.prefix(2)) == ["deflate", "gzip"])
        #expect(Set(encodings).isSubset(of: ["deflate", "gzip", "br", "zstd"]))
        let lines = try CurlDefaultHeaders(userAgent: "Probe/1.0").fields.map(\.line)
        #expect(lines == ["User-Agent: Probe/1.0", "Accept-Encoding: \(encodings.joined(separator: ", "))"])
    }

    @Test func everyRequestSendsEachLineOnce() async throws {
        let client = HTTPClient(configuration: .init(userAgent: "Probe/1.0"))
        let encodings = CurlDefaultHeaders.decodableEncodings.joined(separator: ", ")

        // Without headers of its own, a request goes out with the engine's shared list.
        let headers = try await echoedHeaders(HTTPRequest(url: TestServer.endpoint("/anything")), client: client)
        #expect(headers["User-Agent"] == "Probe/1.0")
        #expect(headers["Accept-Encoding"] == encodings)

        // With its own headers and a file body (and so an "Expect:" line), it gets a list of its own.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("default-headers-\(UUID().uuidString)")
        try Data("body".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var upload = HTTPRequest(url: try TestServer.endpoint("/anything"), method: .put)
        upload.headers["X-Trace"] = "7"
        upload.body = .file(file)
        let uploadHeaders = try await echoedHeaders(upload, client: client)
        #expect(uploadHeaders["User-Agent"] == "Probe/1.0")
        #expect(uploadHeaders["Accept-Encoding"] == encodings)
        #expect(uploadHeaders["X-Trace"] == "7")
        #expect(uploadHeaders["Expect"] == nil)
    }

    @Test func aRequestsOwnLinesReplaceTheDefaults() async throws {
        let client = HTTPClient(configuration: .init(maximumConnectionsPerHost: 1))
        var request = HTTPRequest(url: try TestServer.endpoint("/anything"))
        request.headers["user-agent"] = "Mine/2"
        request.headers["Accept-Encoding"] = "identity"
        let headers = try await echoedHeaders(request, client: client)
        #expect(headers["User-Agent"] == "Mine/2")
        #expect(headers["Accept-Encoding"] == "identity")

        // The next request, on the handle the first one left, is back to the defaults.
        let plain = try await echoedHeaders(HTTPRequest(url: TestServer.endpoint("/anything")), client: client)
        #expect(plain["User-Agent"] == HTTPClient.defaultUserAgent)
        #expect(plain["Accept-Encoding"] == CurlDefaultHeaders.decodableEncodings.joined(separator: ", "))
    }

    /// A line break in the configured `User-Agent` would smuggle in header lines of its own:
    /// every request of that client fails with a clear error instead, and nothing is sent.
    @Test(arguments: ["Bad\r\nX-Injected: 1", "Bad\nX-Injected: 1", "Bad\u{0}tail"])
    func aUserAgentThatWouldBreakTheLineIsRefused(userAgent: String) async throws {
        try await withPrivateServer { server in
            let client = HTTPClient(configuration: .init(userAgent: userAgent))
            let result = await client.result(HTTPRequest(url: server.baseURL.appendingPathComponent("anything")))
            guard case .failure(let error) = result else {
                Issue.record("expected a refusal, got \(result)")
                return
            }
            #expect(error.kind == .invalidRequest)
            #expect(error.message.contains("User-Agent"))
            #expect(server.acceptedConnections == 0)
        }
    }

    @Test func gzipIsStillDecodedWhenTheRequestAsksForItItself() async throws {
        var request = HTTPRequest(url: try TestServer.endpoint("/gzip"))
        request.headers["Accept-Encoding"] = "gzip"
        let response = try await HTTPClient.shared.result(request).get()
        #expect(response.headers["Content-Encoding"] == "gzip")
        #expect(try JSONSerialization.jsonObject(with: response.body) is [String: Any])
    }
}
