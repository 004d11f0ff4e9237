import Chain
import ChainTesting
import Foundation
import Testing

/// `Empty` end to end through the fluent front end.
@Suite("Empty responses (Chain)")
struct EmptyResponseTests {
    struct User: Codable, Sendable { var id: Int }

    @Test("204, 205, a HEAD and an empty 200 decode to Empty", arguments: [204, 205, 200])
    func emptyBodies(status: Int) async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(status: status))
        server.enqueue(MockResponse(status: status))
        let value = try await Request.url(server.url("/none")).value(Empty.self)
        #expect(value == .value)
        let head = try await Request.url(server.url("/none")).method(.head).value(Empty.self)
        #expect(head == .value)
    }

    @Test("an envelope's missing payload and any JSON body give Empty; a body that is not JSON fails")
    func envelopes() async throws {
        let server = try MockServer()
        server.enqueue(.json(#"{"errcode":0,"errmsg":"ok"}"#))
        server.enqueue(.json(#"{"a":[1,2]}"#))
        server.enqueue(MockResponse(status: 200, body: Data("<html>".utf8)))
        #expect(try await Request.url(server.url("/e")).envelope(.errcode).value(Empty.self) == .value)
        #expect(try await Request.url(server.url("/j")).value(Empty.self) == .value)
        await #expect(throws: NetworkError.self) { try await Request.url(server.url("/h")).value(Empty.self) }
    }

    @Test("another type with an empty body says the body is empty")
    func otherTypes() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(status: 204))
        let error = await #expect(throws: NetworkError.self) { try await Request.url(server.url("/u")).value(User.self) }
        #expect(error?.kind == .decodingFailed)
        #expect(error?.message.contains("the body is empty (204)") == true)
    }
}
