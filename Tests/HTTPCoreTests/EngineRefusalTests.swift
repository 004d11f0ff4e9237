import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

/// What the engine refuses or follows against the real sample server on 127.0.0.1: foreign
/// schemes, redirects and their limits, and input that must fail before anything is sent.
@Suite("Engine: schemes, redirects and refused input", .timeLimit(.minutes(2)))
struct EngineRefusalTests {
    let client = HTTPClient.shared

    // MARK: Schemes and redirects

    @Test func fileURLsAreRefused() async throws {
        let result = await client.result(HTTPRequest(url: URL(fileURLWithPath: "/etc/passwd")))
        #expect(result.failure?.kind == .unsupportedScheme)
        let ftp = await client.result(HTTPRequest(url: try #require(URL(string: "ftp://127.0.0.1/x"))))
        #expect(ftp.failure?.kind == .unsupportedScheme)
    }

    @Test func aRedirectToFileIsRefused() async throws {
        let url = try TestServer.endpoint("/redirect-to?url=file:///etc/passwd")
        let result = await client.result(HTTPRequest(url: url))
        #expect(result.failure?.kind == .unsupportedScheme)
        #expect(result.success == nil)
    }

    @Test func redirectsAreFollowedAndOnlyTheFinalHeadersKept() async throws {
        let response = try await client.result(HTTPRequest(url: TestServer.endpoint("/redirect/3"))).get()
        #expect(response.statusCode == 200)
        #expect(response.url.path == "/get")
        #expect(response.timings.redirectCount == 3)
        #expect(!response.headers.contains("Location"))
    }

    @Test func redirectLimitsAndPolicy() async throws {
        var limited = HTTPRequest(url: try TestServer.endpoint("/redirect/3"))
        limited.redirectPolicy = .follow(maximum: 2)
        #expect(await client.result(limited).failure?.kind == .tooManyRedirects)

        #expect(await client.result(HTTPRequest(url: try TestServer.endpoint("/redirect-loop"))).failure?.kind == .tooManyRedirects)

        var manual = HTTPRequest(url: try TestServer.endpoint("/redirect/1"))
        manual.redirectPolicy = .none
        let response = try await client.result(manual).get()
        #expect(response.statusCode == 302)
        #expect(response.headers.contains("Location"))
    }

    // MARK: Hostile input

    @Test func headerInjectionIsRejectedBeforeSending() async throws {
        for headers: HTTPHeaders in [["X-A": "1\r\nX-Injected: 1"], ["X-A\nB": "1"], ["": "v"], ["X-A": "a\0b"]] {
            var request = HTTPRequest(url: try TestServer.endpoint("/get"))
            request.headers = headers
            #expect(await client.result(request).failure?.kind == .invalidRequest)
        }
        var badMethod = HTTPRequest(url: try TestServer.endpoint("/get"))
        badMethod.method = "GET /x HTTP/1.1\r\n"
        #expect(await client.result(badMethod).failure?.kind == .invalidRequest)
    }

    @Test func invalidURLStringsAreTypedErrors() {
        #expect(throws: NetworkError.self) { try HTTPRequest("not a url") }
        #expect(throws: NetworkError.self) { try HTTPRequest("http://") }
    }

    @Test func missingUploadFilesFailBeforeSending() async throws {
        let missing = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString)")
        var request = HTTPRequest(url: try TestServer.endpoint("/upload"), method: .post)
        request.body = .file(missing)
        #expect(await client.result(request).failure?.kind == .fileIO)
        var form = MultipartFormData()
        form.append(fileURL: missing, name: "f")
        request.body = .multipart(form)
        #expect(await client.result(request).failure?.kind == .fileIO)
    }
}
