import AFStyle
import Foundation
import Testing

struct User: Decodable, Sendable, Equatable {
    let id: String
    let name: String
    let age: Int
}

struct RankItem: Decodable, Sendable {
    let title: String
    @Lenient var argValue: Int
    @Lenient var rankingType: Int
}

@Suite("Typed calls and envelopes", .timeLimit(.minutes(2)))
struct TypedTests {
    @Test("GET decodes into a model")
    func typedGet() async throws {
        let manager = try makeManager()
        let callbacks = Callbacks<User>()
        manager.GET("user/101", parameters: nil, as: User.self, success: callbacks.success, failure: callbacks.failure)
        #expect(try await callbacks.one().value == User(id: "101", name: "wiki", age: 18))

        let list = Callbacks<[User]>()
        manager.GET("user/query", parameters: ["q": "b"], as: [User].self, success: list.success, failure: list.failure)
        #expect(try await list.one().value?.map(\.name) == ["bob"])
    }

    @Test("POST decodes into a model; HTTP errors stay .unacceptableStatus")
    func typedPost() async throws {
        let manager = try makeManager()
        let callbacks = Callbacks<User>()
        manager.POST("account/login", parameters: ["username": "bob", "password": "builder"], as: User.self,
                     success: callbacks.success, failure: callbacks.failure)
        #expect(try await callbacks.one().value?.id == "103")

        let wrong = Callbacks<User>()
        manager.POST("account/login", parameters: ["username": "bob"], as: User.self, success: wrong.success,
                     failure: wrong.failure)
        #expect(try await wrong.one().error?.kind == .unacceptableStatus(400))
    }

    @Test("a model that does not match fails with .decodingFailed and the coding path")
    func decodingFailure() async throws {
        struct Wrong: Decodable, Sendable { let id: Int }
        let manager = try makeManager()
        let callbacks = Callbacks<Wrong>()
        manager.GET("user/101", parameters: nil, as: Wrong.self, success: callbacks.success, failure: callbacks.failure)
        let error = try #require(try await callbacks.one().error)
        #expect(error.kind == .decodingFailed)
        #expect(error.codingPath == "id")
    }

    @Test("the manager's envelope unwraps the payload for models and responseObject")
    func envelopeSuccess() async throws {
        let manager = try makeManager()
        manager.envelope = .errcode
        let typed = Callbacks<User>()
        manager.GET("envelope/user/102", parameters: nil, as: User.self, success: typed.success, failure: typed.failure)
        #expect(try await typed.one().value?.name == "alice")

        let untyped = Callbacks<Any?>()
        manager.GET("envelope/user/103", success: untyped.success, failure: untyped.failure)
        #expect(try await untyped.dictionary()["name"] as? String == "bob")
    }

    @Test("a non-success code, numeric or string, is .business with the server's code and message",
          arguments: ["envelope/fail", "envelope/fail-string-code", "envelope/user/999"])
    func envelopeFailure(_ path: String) async throws {
        let manager = try makeManager()
        manager.envelope = .errcode
        let typed = Callbacks<User>()
        manager.GET(path, parameters: nil, as: User.self, success: typed.success, failure: typed.failure)
        let error = try #require(try await typed.one().error)
        if path == "envelope/user/999" {
            #expect(error.kind == .business(code: "40004", message: "user not found"))
        } else {
            #expect(error.kind == .business(code: "40001", message: "invalid token"))
        }

        let untyped = Callbacks<Any?>()
        manager.GET(path, success: untyped.success, failure: untyped.failure)
        guard case .business = try #require(try await untyped.one().error).kind else {
            Issue.record("expected a business error")
            return
        }
    }

    @Test("a nested envelope with lenient fields (the ranking list)")
    func nestedEnvelope() async throws {
        let manager = try makeManager()
        manager.envelope = Envelope(codePath: "data.stateCode", messagePath: "data.message",
                                    payloadPath: "data.returnData.rankinglist", successCodes: [1])
        let callbacks = Callbacks<[RankItem]>()
        manager.GET("rank/list", parameters: nil, as: [RankItem].self, success: callbacks.success,
                    failure: callbacks.failure)
        let items = try #require(try await callbacks.one().value)
        #expect(items.map(\.argValue) == [1, 2, 3, 4])
        #expect(items.map(\.rankingType) == [1, 2, 3, 4])

        let failure = Callbacks<[RankItem]>()
        manager.GET("rank/fail", parameters: nil, as: [RankItem].self, success: failure.success, failure: failure.failure)
        #expect(try await failure.one().error?.kind == .business(code: "0", message: "参数错误"))
    }

    @Test("the data serializer ignores the envelope")
    func dataIgnoresEnvelope() async throws {
        let manager = try makeManager()
        manager.envelope = .errcode
        manager.responseSerializer = .data
        let callbacks = Callbacks<Any?>()
        manager.GET("envelope/fail", success: callbacks.success, failure: callbacks.failure)
        #expect(try await callbacks.one().value is Data)
    }
}
