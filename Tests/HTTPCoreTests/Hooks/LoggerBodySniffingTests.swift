import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

/// The logger judges bodies by their bytes, not by their `Content-Type` (issue 21, item 21).
@Suite("Logger body sniffing")
struct LoggerBodySniffingTests {
    let url = URL(string: "http://127.0.0.1:8080/login")!

    @Test("A form request body under a JSON label is redacted in the debug log")
    func formRequestUnderJSONLabel() {
        let captured = CapturedOutput()
        var request = HTTPRequest(url: url, method: .post, headers: ["Content-Type": "application/json"])
        request.body = .data(Data("password=hunter2&username=wiki".utf8))
        LoggerHook(level: .debug, output: captured.output).willSend(HookContext(id: 1, request: request, origin: "test"))
        #expect(captured.text.contains("password=***&username=wiki"))
        #expect(!captured.text.contains("hunter2"))
    }

    @Test("A JSON response body under a text label is redacted as JSON")
    func jsonResponseUnderTextLabel() {
        let captured = CapturedOutput()
        let response = HTTPResponse(statusCode: 200, headers: ["Content-Type": "text/plain"],
                                    body: Data(#"{"access_token": "hunter2", "user": "wiki"}"#.utf8), url: url)
        LoggerHook(level: .debug, output: captured.output)
            .didFinish(HookContext(id: 2, request: HTTPRequest(url: url), origin: "test"), response: response)
        #expect(captured.text.contains(#""access_token":"***""#))
        #expect(!captured.text.contains("hunter2"))
        #expect(captured.text.contains("wiki"))
    }

    @Test("JSON keys that merely contain a credential fragment stay readable")
    func fragmentsOnlyInHeaderShapedKeys() {
        let captured = CapturedOutput()
        let response = HTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"],
                                    body: Data(#"{"author": "Tolkien", "X-Auth-Token": "hunter2"}"#.utf8), url: url)
        LoggerHook(level: .debug, output: captured.output)
            .didFinish(HookContext(id: 3, request: HTTPRequest(url: url), origin: "test"), response: response)
        #expect(captured.text.contains("Tolkien"))
        #expect(!captured.text.contains("hunter2"))
    }
}
