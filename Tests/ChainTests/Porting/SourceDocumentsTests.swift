import ChainTesting
import Foundation
import Testing

/// The source documents' own model and call code, as written there, against their JSON.
@Suite("Source documents: BaseData<T>")
struct SourceDocumentsTests {
    /// The WeChat-style wrapper of the documents, decoded as a whole.
    struct BaseData<T: Codable>: Codable {
        var errcode: Int
        var errmsg: String
        var data: T?
    }

    struct User: Codable, Sendable, Equatable {
        var id: String
        var name: String
        var age: Int
    }

    static let userBody = #"{"errcode":0,"errmsg":"ok","data":{"id":"101","name":"wiki","age":18}}"#
    static let failedBody = #"{"errcode":40001,"errmsg":"invalid token","data":null}"#

    /// The documents' generic helper: one call site for every model.
    static func mapModel<T: Codable & Sendable>(_ type: T.Type, _ request: Request) async throws(NetworkError) -> BaseData<T> {
        try await request.value(BaseData<T>.self)
    }

    @Test("BaseData<User> decodes whole, and a failure is a value the caller checks")
    func wholeWrapper() async throws {
        let server = try MockServer()
        server.enqueue(.json(Self.userBody))
        server.enqueue(.json(Self.failedBody))
        let ok = try await Self.mapModel(User.self, Request.url(server.url("/user/101")))
        #expect(ok.errcode == 0 && ok.data == User(id: "101", name: "wiki", age: 18))
        let failed = try await Self.mapModel(User.self, Request.url(server.url("/user/101")))
        #expect(failed.errcode == 40001 && failed.errmsg == "invalid token" && failed.data == nil)
    }

    @Test("the same API through the errcode envelope: the payload is the model, the failure a typed error")
    func throughEnvelope() async throws {
        let server = try MockServer()
        server.enqueue(.json(Self.userBody))
        server.enqueue(.json(Self.failedBody))
        let api = Request.url(server.url("/user/101")).envelope(.errcode)
        #expect(try await api.value(User.self) == User(id: "101", name: "wiki", age: 18))
        let error = await #expect(throws: NetworkError.self) { try await api.value(User.self) }
        #expect(error?.kind == .business(code: "40001", message: "invalid token"))
    }
}

// The one line a port adds: the typed calls hand the model from the decoding thread to the
// callback queue, so they require `Sendable`, which a generic struct gets only when declared.
extension SourceDocumentsTests.BaseData: Sendable where T: Sendable {}
