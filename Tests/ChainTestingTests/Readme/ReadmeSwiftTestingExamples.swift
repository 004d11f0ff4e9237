import ChainTesting
import Foundation
import Testing

/// The README's Swift Testing examples of the kit, as written there (only the model is added),
/// so the README cannot drift from what compiles and passes.
@Suite("README: ChainTesting with Swift Testing")
struct ReadmeSwiftTestingExamples {
    struct User: Decodable, Sendable {
        let id: String
        let name: String
    }

    @Test func loginSendsTheFormAndDecodesTheUser() async throws {
        let server = try MockServer()
        server.enqueue(.json(#"{"id":"101","name":"wiki","age":18,"email":"wiki@example.com"}"#))
        let api = ChainConfiguration(baseURL: server.baseURL)

        let user = try await api.url("account/login").method(.post)
            .params(["username": "wiki", "password": "secret"]).value(User.self)

        #expect(user.name == "wiki")
        let sent = try await server.takeRequest()
        #expect(sent.method == .post && sent.path == "/account/login")
        #expect(sent.formItems.contains(URLQueryItem(name: "username", value: "wiki")))
    }

    @Test func aFlakyEndpointIsRetried() async throws {
        let stubs = StubTable()
        let route = stubs.on(.get, "/user/:id", responses: [MockResponse(status: 503), .json(#"{"id":"101","name":"wiki"}"#)])
        var api = ChainConfiguration(baseURL: URL(string: "https://api.example.test"))
        api.stubs = stubs

        let user = try await api.url("user/101").retry(RetryPolicy(baseDelay: 0.01)).value(User.self)

        #expect(user.name == "wiki" && route.hitCount == 2)
    }
}
