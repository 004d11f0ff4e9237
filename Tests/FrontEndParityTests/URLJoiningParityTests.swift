import AFStyle
import Chain
import Foundation
import SampleServer
import TestSupport
import Testing

/// A target that is only a base URL and a path.
private struct PathTarget: TargetType {
    let baseURL: URL
    let path: String
}

/// The README's table: base URL with and without a trailing slash × path with and without a
/// leading slash, the same through `Request`, `TargetType` and `HTTPSessionManager`.
@Suite("Front-end parity: URL joining", .timeLimit(.minutes(2)))
struct URLJoiningParityTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let base: String
        let path: String
        let expected: String
        var testDescription: String { "\(base) + \"\(path)\"" }
    }

    static let table: [Case] = [
        Case(base: "https://h/api", path: "user/1", expected: "https://h/api/user/1"),
        Case(base: "https://h/api", path: "/user/1", expected: "https://h/user/1"),
        Case(base: "https://h/api", path: "", expected: "https://h/api/"),
        Case(base: "https://h/api/", path: "user/1", expected: "https://h/api/user/1"),
        Case(base: "https://h/api/", path: "/user/1", expected: "https://h/user/1"),
        Case(base: "https://h/api/", path: "", expected: "https://h/api/"),
        Case(base: "https://h", path: "user/1", expected: "https://h/user/1"),
        Case(base: "https://h", path: "/user/1", expected: "https://h/user/1"),
        Case(base: "https://h", path: "", expected: "https://h"),
        // Whitespace around the string is dropped by every front end.
        Case(base: "https://h/api", path: " user/1\n", expected: "https://h/api/user/1"),
        Case(base: "https://h/api", path: "https://o/x", expected: "https://o/x"),
    ]

    @Test("Request, TargetType and HTTPSessionManager join alike", arguments: table)
    func joining(_ item: Case) throws {
        let base = try #require(URL(string: item.base))
        let chain = try ChainConfiguration(baseURL: base).url(item.path).httpRequest().url.absoluteString
        let target = try Request.target(PathTarget(baseURL: base, path: item.path))
            .configuration(ChainConfiguration()).httpRequest().url.absoluteString
        let manager = try HTTPSessionManager(baseURL: base).url(for: item.path).absoluteString
        #expect(chain == item.expected)
        #expect(target == item.expected)
        #expect(manager == item.expected)
    }

    @Test("a relative string without a base fails alike")
    func relativeWithoutBase() {
        let chain = Result { try Request.url("user/1").configuration(ChainConfiguration()).httpRequest() }
        let manager = Result { try HTTPSessionManager(baseURL: nil).url(for: "user/1") }
        #expect((chain.failure as? NetworkError)?.kind == .invalidURL)
        #expect((manager.failure as? NetworkError)?.kind == .invalidURL)
    }

    @Test("the same strings reach the same server paths through both front ends")
    func serverPaths() async throws {
        let server = try SampleServer(port: 0)
        defer { server.stop() }
        let base = server.baseURL.appendingPathComponent("anything/api")
        let paths = ["v1/users", "/anything/root", "", server.baseURL.appendingPathComponent("anything/x").absoluteString]
        let manager = HTTPSessionManager(baseURL: base)
        for path in paths {
            let chainEcho = try await ChainConfiguration(baseURL: base).url(path).json()
            let afPath: String? = try await withCheckedThrowingContinuation { continuation in
                manager.GET(path, success: { _, object in
                    continuation.resume(returning: (object as? [String: Any])?["path"] as? String)
                }, failure: { _, error in continuation.resume(throwing: error) })
            }
            let chainPath = (chainEcho as? [String: Any])?["path"] as? String
            #expect(chainPath != nil)
            #expect(chainPath == afPath, "\"\(path)\"")
        }
    }
}
