import AFStyle
import ChainTesting
import Foundation
import HTTPFeatures
import Testing

/// `Empty` end to end through the AFNetworking-style front end.
@Suite("Empty responses (AFStyle)")
struct AFEmptyResponseTests {
    static func get(_ manager: HTTPSessionManager, _ path: String) async throws -> Empty {
        try await withCheckedThrowingContinuation { continuation in
            manager.GET(path, as: Empty.self, success: { _, value in continuation.resume(returning: value) },
                        failure: { _, error in continuation.resume(throwing: error) })
        }
    }

    @Test("204 and 205 decode to Empty", arguments: [204, 205])
    func emptyStatuses(status: Int) async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(status: status))
        #expect(try await Self.get(HTTPSessionManager(baseURL: server.url("/")), "none") == .value)
    }

    @Test("an envelope's null payload gives Empty; HTML fails")
    func envelope() async throws {
        let server = try MockServer()
        server.enqueue(.json(#"{"errcode":0,"data":null}"#))
        server.enqueue(MockResponse(status: 200, body: Data("<html>".utf8)))
        let manager = HTTPSessionManager(baseURL: server.url("/"))
        manager.envelope = .errcode
        #expect(try await Self.get(manager, "e") == .value)
        manager.envelope = nil
        await #expect(throws: NetworkError.self) { try await Self.get(manager, "h") }
    }
}
