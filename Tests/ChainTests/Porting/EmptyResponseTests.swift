import ChainTesting
import Foundation
import Testing

/// `Empty` through both front ends against a real server: 204, 205, HEAD, an ignored body, an
/// envelope, and the failures that stay failures.
@Suite("Empty responses in both front ends", .timeLimit(.minutes(2)))
struct EmptyResponseTests {
    /// The documents' generic helper, now callable where Swift code would want `Void`.
    static func mapModel<T: Decodable & Sendable>(_ type: T.Type, _ request: Request) async throws(NetworkError) -> T {
        try await request.value(T.self)
    }

    @Test("Chain: 204, 205, a HEAD and a 200 with an ignored JSON body all give Empty.value")
    func chain() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(status: 204))
        server.enqueue(MockResponse(status: 205))
        server.enqueue(MockResponse(status: 200, headers: ["Content-Type": "application/json", "Content-Length": "120"]))
        server.enqueue(.json(#"{"ok":true,"ignored":[1,2,3]}"#))
        server.enqueue(.json("null"))
        let url = server.url("/logout")
        #expect(try await Self.mapModel(Empty.self, Request.url(url).method(.post)) == Empty.value)
        #expect(try await Request.url(url).method(.put).value(Empty.self) == .value)
        #expect(try await Request.url(url).method(.head).value(Empty.self) == .value)
        #expect(try await Request.url(url).value(Empty.self) == .value)
        #expect(try await Request.url(url).value(Empty.self) == .value)
        #expect(try await server.takeRequest().method == .post)
    }

    @Test("Chain: the callback form delivers Empty once for a 204")
    func chainCallback() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(status: 204))
        let result: Result<Empty, NetworkError> = await withCheckedContinuation { continuation in
            Request.url(server.url("/item/7")).method(.delete).response(Empty.self) { continuation.resume(returning: $0) }
        }
        #expect(try result.get() == .value)
    }

    @Test("a body with content that is not JSON fails, and another type on a 204 fails naming the empty body")
    func failures() async throws {
        let server = try MockServer()
        server.enqueue(.text("<html>oops</html>"))
        server.enqueue(MockResponse(status: 204))
        let url = server.url("/x")
        let notJSON = await #expect(throws: NetworkError.self) { try await Request.url(url).value(Empty.self) }
        #expect(notJSON?.kind == .decodingFailed)
        struct User: Decodable, Sendable { var id: Int }
        let empty = await #expect(throws: NetworkError.self) { try await Request.url(url).value(User.self) }
        #expect(empty?.kind == .decodingFailed)
        #expect(empty?.message.contains("the body is empty (HTTP 204)") == true, "\(String(describing: empty))")
    }

    @Test("under an envelope the codes are checked; a missing or null payload is Empty")
    func envelope() async throws {
        let server = try MockServer()
        server.enqueue(.json(#"{"errcode":0,"errmsg":"ok"}"#))
        server.enqueue(.json(#"{"errcode":0,"errmsg":"ok","data":null}"#))
        server.enqueue(.json(#"{"errcode":40001,"errmsg":"invalid token"}"#))
        let api = Request.url(server.url("/session")).method(.delete).envelope(.errcode)
        #expect(try await api.value(Empty.self) == .value)
        #expect(try await api.value(Empty.self) == .value)
        let refused = await #expect(throws: NetworkError.self) { try await api.value(Empty.self) }
        #expect(refused?.kind == .business(code: "40001", message: "invalid token"))
    }

    @Test("AFStyle: typed verbs and HEAD give Empty for 204, 205 and HEAD; a refused status still fails")
    func afStyle() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(status: 204))
        server.enqueue(MockResponse(status: 205))
        server.enqueue(MockResponse(status: 200, headers: ["Content-Length": "42"]))
        server.enqueue(.json(#"{"error":"gone"}"#, status: 410))
        let manager = HTTPSessionManager(baseURL: server.baseURL)
        func call(_ method: HTTPMethod) async -> Result<Empty, NetworkError> {
            await withCheckedContinuation { continuation in
                manager.dataTask(method, "item/7", parameters: nil, as: Empty.self,
                                 success: { _, value in continuation.resume(returning: .success(value)) },
                                 failure: { _, error in continuation.resume(returning: .failure(error)) })
            }
        }
        #expect(try await call(.delete).get() == .value)
        #expect(try await call(.post).get() == .value)
        #expect(try await call(.head).get() == .value)
        guard case .failure(let error) = await call(.get) else {
            Issue.record("a 410 decoded as Empty")
            return
        }
        #expect(error.kind == .unacceptableStatus(410))
    }
}
