import Chain
import Foundation
import SampleServer
import Testing

/// A Moya-style API definition, pointed at a base URL chosen at run time.
enum UserAPI: TargetType {
    case login(username: String, password: String, base: URL)
    case loginJSON(username: String, password: String, base: URL)
    case user(id: String, base: URL)
    case search(query: String, base: URL)

    var baseURL: URL {
        switch self {
        case .login(_, _, let base), .loginJSON(_, _, let base), .user(_, let base), .search(_, let base): base
        }
    }

    var path: String {
        switch self {
        case .login, .loginJSON: "/account/login"
        case .user(let id, _): "/user/\(id)"
        case .search: "/user/query"
        }
    }

    var method: HTTPMethod {
        switch self {
        case .login, .loginJSON: .post
        case .user, .search: .get
        }
    }

    var task: TargetTask {
        switch self {
        case .login(let username, let password, _):
            .requestParameters(parameters: ["username": username, "password": password], encoding: .form)
        case .loginJSON(let username, let password, _):
            .requestParameters(parameters: ["username": username, "password": password], encoding: .json)
        case .user:
            .requestPlain
        case .search(let query, _):
            .requestParameters(parameters: ["q": query], encoding: .query)
        }
    }

    var headers: [String: String]? { ["X-API": "users"] }

    var sampleData: Data {
        switch self {
        case .user(let id, _): Data(#"{"id":"\#(id)","name":"sample","age":1,"email":"s@example.com"}"#.utf8)
        case .login, .loginJSON: Data(#"{"error":"sample failure","error_code":"9"}"#.utf8)
        case .search: Data("[]".utf8)
        }
    }

    var sampleStatusCode: Int {
        switch self {
        case .login, .loginJSON: 401
        default: 200
        }
    }
}

/// Targets against the server, and stubbing without it.
@Suite("Targets and stubs", .timeLimit(.minutes(2)))
struct TargetTests {
    @Test func targetsReachTheServer() async throws {
        let base = try TestServer.baseURL
        let user = try await Request.target(UserAPI.user(id: "101", base: base)).value(User.self)
        #expect(user.name == "wiki")
        let login = try await Request.target(UserAPI.login(username: "bob", password: "builder", base: base)).value(User.self)
        #expect(login.id == "103")
        let loginJSON = try await Request.target(UserAPI.loginJSON(username: "bob", password: "builder", base: base))
            .value(User.self)
        #expect(loginJSON.id == "103")
        let found = try await Request.target(UserAPI.search(query: "ali", base: base)).value([User].self)
        #expect(found.map(\.name) == ["alice"])
    }

    @Test func targetHeadersAndValidationApply() async throws {
        let base = try TestServer.baseURL
        let missing = await Request.target(UserAPI.user(id: "999", base: base)).errorBody(APIError.self)
            .callbackResult(User.self)
        #expect(missing.failure?.kind == .unacceptableStatus(404))
        #expect((missing.failure?.underlyingError as? APIError)?.error_code == "1004")
        let request = try Request.target(UserAPI.user(id: "1", base: base)).configuration(ChainConfiguration()).httpRequest()
        #expect(request.headers["X-API"] == "users")
    }

    @Test func stubbedTargetNeverTouchesTheServer() async throws {
        try await withPrivateServer { server in
            let user = try await Request.target(UserAPI.user(id: "555", base: server.baseURL)).stub(.immediate).value(User.self)
            #expect(user == User(id: "555", name: "sample", age: 1, email: "s@example.com"))
            let failure = await Request.target(UserAPI.login(username: "a", password: "b", base: server.baseURL))
                .stub(.delayed(seconds: 0.05)).errorBody(APIError.self).delivery(User.self)
            #expect(failure.error?.kind == .unacceptableStatus(401))
            #expect((failure.error?.underlyingError as? APIError)?.error == "sample failure")
            #expect(failure.source == .stub)
            #expect(server.requestCount == 0)
            #expect(server.acceptedConnections == 0)
        }
    }

    @Test func configurationWideStubbing() async throws {
        try await withPrivateServer { server in
            var configuration = ChainConfiguration()
            configuration.stubBehavior = .immediate
            let user = try await configuration.target(UserAPI.user(id: "7", base: server.baseURL)).value(User.self)
            #expect(user.id == "7")
            let sampled = try await configuration.url(server.baseURL.absoluteString + "/user/101")
                .sampleData(Data(#"{"id":"x","name":"n","age":2,"email":"e"}"#.utf8)).value(User.self)
            #expect(sampled.id == "x")
            // Stubbing is on but there is nothing to answer with: an error, not the network.
            let nothing = await configuration.url(server.baseURL.absoluteString + "/user/101").callbackResult(User.self)
            #expect(nothing.failure?.kind == .invalidRequest)
            // A request can opt back in to the network.
            let real = try await configuration.url(server.baseURL.absoluteString + "/user/101").stub(.never).value(User.self)
            #expect(real.name == "wiki")
            #expect(server.requestCount == 1)
        }
    }

    @Test func explicitStubWithDelayStatusAndError() async throws {
        let start = Date()
        let delayed = await Request.url(unreachableURL)
            .stub(Stub(statusCode: 201, body: Data(#"{"result":"ok"}"#.utf8), delay: 0.2))
            .delivery(ResultPayload.self)
        #expect(delayed.value == ResultPayload(result: "ok"))
        #expect(delayed.statusCode == 201)
        #expect(Date().timeIntervalSince(start) >= 0.2)
        let failing = await Request.url(unreachableURL)
            .stub(Stub(body: Data(), error: NetworkError(.timedOut, "simulated"))).callbackVoidResult()
        #expect(failing.failure?.kind == .timedOut)
    }

    @Test func stubbedEnvelopeIsCheckedLikeARealResponse() async throws {
        let result = await Request.url(unreachableURL)
            .sampleData(Data(#"{"errcode":40001,"errmsg":"invalid token","data":null}"#.utf8))
            .stub()
            .envelope(.errcode)
            .callbackVoidResult()
        #expect(result.failure?.kind == .business(code: "40001", message: "invalid token"))
    }
}
