import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

@Suite("Hooks: logger", .timeLimit(.minutes(1)))
struct LoggerHookTests {
    /// Runs one request through a logger of `level` and returns what it wrote.
    static func log(_ request: HTTPRequest, level: LoggerHook.Level, prettyPrintsJSON: Bool = false,
                    maximumBodyLength: Int = 4096) async -> (String, Delivery<HTTPResponse>) {
        let captured = CapturedOutput()
        let logger = LoggerHook(level: level, prettyPrintsJSON: prettyPrintsJSON, maximumBodyLength: maximumBodyLength,
                                output: captured.output)
        let delivery = await HTTPClient.shared.delivery(request, hooks: [logger])
        return (captured.text, delivery)
    }

    /// A POST carrying every kind of secret: a bearer token, a cookie, a password in the query and in the form.
    static func secretRequest() throws -> HTTPRequest {
        var request = HTTPRequest(url: try TestServer.endpoint("/anything/login?user=bob&password=query-pass"), method: .post)
        request.headers["Authorization"] = "Bearer secret-token"
        request.headers["Cookie"] = "session=cookie-value; theme=dark"
        request.headers["Content-Type"] = "application/x-www-form-urlencoded"
        request.body = .data(Data("user=bob&password=form-pass".utf8))
        return request
    }

    static let secrets = ["secret-token", "cookie-value", "query-pass", "form-pass"]

    @Test func offWritesNothing() async throws {
        let (ok, _) = await Self.log(HTTPRequest(url: try TestServer.endpoint("/get")), level: .off)
        let (failed, _) = await Self.log(HTTPRequest(url: try TestServer.endpoint("/status/500")), level: .off)
        #expect(ok.isEmpty && failed.isEmpty)
    }

    @Test func errorLevelWritesOnlyFailures() async throws {
        let (ok, _) = await Self.log(HTTPRequest(url: try TestServer.endpoint("/get")), level: .error)
        #expect(ok.isEmpty)
        let (failed, delivery) = await Self.log(HTTPRequest(url: try TestServer.endpoint("/status/500")), level: .error)
        let error = try #require(delivery.result.failure)
        let url = try TestServer.endpoint("/status/500").absoluteString
        #expect(failed.hasPrefix("✗ #") && failed.hasSuffix(" GET \(url): \(error.description)\n"))
        #expect(failed.filter { $0 == "\n" }.count == 1)
    }

    @Test func infoLevelWritesOneLineOutAndOneBackWithStatusTimeSizeAndSource() async throws {
        let url = try TestServer.endpoint("/bytes/1500")
        let (text, delivery) = await Self.log(HTTPRequest(url: url), level: .info)
        let response = try #require(delivery.result.success)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.hasPrefix("→ #") == true && lines.first?.hasSuffix(" GET \(url.absoluteString)") == true)
        let back = try #require(lines.last)
        #expect(back.hasPrefix("← #") && back.contains(" 200 GET \(url.absoluteString)  "))
        #expect(back.hasSuffix("  1.5 kB  network"))
        #expect(back.contains(" ms  ") || back.contains(" s  "))
        #expect(response.timings.total > 0)
        // Both lines name the same call.
        let ids = lines.map { $0.split(separator: " ")[1] }
        #expect(ids[0] == ids[1])
    }

    @Test func infoLevelRedactsTheURL() async throws {
        let (text, _) = await Self.log(try Self.secretRequest(), level: .info)
        #expect(text.contains("?user=bob&password=***"))
        for secret in Self.secrets { #expect(!text.contains(secret), "\(secret) leaked: \(text)") }
    }

    @Test func debugLevelWritesACurlCommandAndTheResponseWithSecretsRedacted() async throws {
        let (text, delivery) = await Self.log(try Self.secretRequest(), level: .debug)
        #expect(delivery.result.success?.statusCode == 200)
        #expect(text.contains("\ncurl "))
        #expect(text.contains("Authorization: Bearer ***"))
        #expect(text.contains("Cookie: session=***; theme=***"))
        #expect(text.contains("    Content-Type: application/json"))  // response headers
        #expect(text.contains(#""method":"POST""#))                     // the echoed body
        for secret in Self.secrets { #expect(!text.contains(secret), "\(secret) leaked: \(text)") }
    }

    @Test func setCookieInResponseHeadersIsRedacted() async throws {
        let url = try TestServer.endpoint("/response-headers?Set-Cookie=a%3Db")
        let (text, delivery) = await Self.log(HTTPRequest(url: url), level: .debug)
        #expect(delivery.response?.headers["Set-Cookie"] == "a=b")
        #expect(text.contains("    Set-Cookie: a=***"))
        #expect(text.contains(#"    {"Set-Cookie":"***"}"#))  // the body echoing it too
        #expect(!text.contains("a=b"), "\(text)")
    }

    @Test func jsonIsPrettyPrintedOnlyWhenAsked() async throws {
        let url = try TestServer.endpoint("/get?x=1")
        let (compact, _) = await Self.log(HTTPRequest(url: url), level: .debug)
        #expect(compact.contains(#"{"args":{"x":"1"},"#))
        let (pretty, _) = await Self.log(HTTPRequest(url: url), level: .debug, prettyPrintsJSON: true)
        #expect(pretty.contains("\n    {\n"))
        #expect(pretty.contains(#"    "method" : "GET","#))
        #expect(pretty.contains(#"      "x" : "1""#))
    }

    @Test func bodiesAreCappedAndBinaryIsSummarised() async throws {
        let (capped, _) = await Self.log(HTTPRequest(url: try TestServer.endpoint("/get")), level: .debug, maximumBodyLength: 20)
        #expect(capped.contains(#"    {"args":{},"bodyLeng… ("#) && capped.contains(" B more)\n"), "\(capped)")
        let (binary, _) = await Self.log(HTTPRequest(url: try TestServer.endpoint("/bytes/2048")), level: .debug)
        #expect(binary.contains("    (2.0 kB of application/octet-stream)"))
    }

    @Test func failuresAtDebugShowTheResponseThatArrived() async throws {
        let (text, delivery) = await Self.log(HTTPRequest(url: try TestServer.endpoint("/status/418")), level: .debug)
        #expect(delivery.result.failure?.kind == .unacceptableStatus(418))
        #expect(text.contains("✗ #"))
        #expect(text.contains(#"    {"message":"#))
    }
}
