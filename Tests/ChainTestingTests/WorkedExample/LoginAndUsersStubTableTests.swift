// The worked example of ChainTesting's StubTable: the login-and-users sample's own code run
// with no network at all. The configuration's base URL is a host that does not exist; the
// table answers every call the code makes, and its `.fail` policy turns any call the test did
// not plan for into an error instead of a trip to the network.
import ChainTesting
import Foundation
@testable import SampleScenarios
import Synchronization
import Testing

@Suite("LoginAndUsers on a StubTable")
struct LoginAndUsersStubTableTests {
    /// Never reached: `.test` names resolve nowhere, and the table fails what it does not match.
    static let base = "https://api.example.test"

    // MARK: The whole sample, both ways

    @Test("runWithTargets is answered by the form, path-parameter and query routes")
    func targetsAreAnsweredByTheTable() async throws {
        let stubs = SampleAPIStubs()
        let baseURL = try Self.baseURL()
        let transcript = Transcript()

        try await LoginAndUsersSample.runWithTargets(Self.api(stubs.table), baseURL: baseURL, output: transcript.output)

        #expect(transcript.lines == [
            "   logged in as wiki (id 101, 18 years, wiki@example.com)",
            "   user 102 is alice, alice@example.com",
            "   users whose name contains \"i\": wiki, alice",
            "   refused with HTTP 401, error_code 1001: invalid username or password",
        ])
        #expect(stubs.wikiLogin.hitCount == 1)
        #expect(stubs.refusedLogin.hitCount == 1)
        #expect(stubs.user.hitCount == 1)
        #expect(stubs.namesWithI.hitCount == 1)
        #expect(stubs.everyone.hitCount == 0)
        #expect(stubs.aliceLogin.hitCount == 0)

        let seen = stubs.table.requests
        #expect(seen.map { "\($0.method.rawValue) \($0.url.absoluteString)" } == [
            "POST \(Self.base)/account/login",
            "GET \(Self.base)/user/102",
            "GET \(Self.base)/user/query?q=i",
            "POST \(Self.base)/account/login",
        ])
        #expect(seen.first?.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(seen.first?.bodyText == "password=secret&username=wiki")
        #expect(seen.last?.bodyText == "password=wrong&username=wiki")
    }

    @Test("runWithBuilder is answered by the same table, without the query filter")
    func builderIsAnsweredByTheTable() async throws {
        let stubs = SampleAPIStubs()
        let transcript = Transcript()

        try await LoginAndUsersSample.runWithBuilder(Self.api(stubs.table), output: transcript.output)

        #expect(transcript.lines == [
            "   logged in as alice (id 102)",
            "   user 103 is bob, 31 years",
            "   all users: wiki, alice, bob",
            "   refused with HTTP 404, error_code 1004: user not found",
        ])
        #expect(stubs.aliceLogin.hitCount == 1)
        #expect(stubs.user.hitCount == 2)            // 103, then the unknown 999
        #expect(stubs.everyone.hitCount == 1)
        #expect(stubs.namesWithI.hitCount == 0)
        #expect(stubs.table.requests.map(\.path) == ["/account/login", "/user/103", "/user/query", "/user/999"])
    }

    // MARK: What the table refuses

    @Test("a call no route matches fails with StubTableError.unmatched and goes nowhere")
    func unexpectedCallFails() async throws {
        let stubs = SampleAPIStubs()
        let api = try Self.api(stubs.table)

        do {
            let data = try await api.url("user/102/avatar").data()
            Issue.record("an unplanned call returned \(data.count) bytes")
        } catch {
            // Not a DNS failure: the request never left the table.
            #expect(error.kind == .invalidRequest)
            #expect(error.underlyingError as? StubTableError == .unmatched(method: "GET", url: "\(Self.base)/user/102/avatar"))
        }
        do {
            _ = try await api.url("account/login").method(.put).params(["username": "wiki"]).data()
            Issue.record("a PUT to the login succeeded")
        } catch {
            #expect(error.underlyingError as? StubTableError == .unmatched(method: "PUT", url: "\(Self.base)/account/login"))
        }
        #expect(stubs.table.requests.count == 2)
        #expect(stubs.user.hitCount == 0)
        #expect(stubs.refusedLogin.hitCount == 0)
    }

    // MARK: Sequences and retries

    @Test("a 503 then a 200: the retry policy asks again and the app gets the user")
    func retryPolicyRetriesTheSequence() async throws {
        let table = StubTable()
        let route = table.on(.get, "/user/:id", responses: [
            MockResponse(status: 503, headers: ["Retry-After": "0"]),
            .json(SampleAccount.alice.json),
        ])
        var api = try Self.api(table)
        api.interceptors = [RetryPolicy(maximumRetries: 2, baseDelay: 0, usesJitter: false)]

        let user = try await api.url("user/102").value(User.self)

        #expect(user == SampleAccount.alice.user)
        #expect(route.hitCount == 2)
        #expect(table.requests.map(\.path) == ["/user/102", "/user/102"])
    }

    @Test("the same sequence without a retry policy: the app sees the 503")
    func withoutRetryTheAppSeesTheFirstAnswer() async throws {
        let table = StubTable()
        let route = table.on(.get, "/user/:id", responses: [MockResponse(status: 503), .json(SampleAccount.alice.json)])
        let api = try Self.api(table)

        do {
            let user = try await api.url("user/102").value(User.self)
            Issue.record("the 503 was not delivered: got \(user)")
        } catch {
            #expect(error.kind == .unacceptableStatus(503))
            #expect(error.response?.source == .stub)
        }
        #expect(route.hitCount == 1)
        // Once the sequence is used up, its last answer stays.
        #expect(try await api.url("user/102").value(User.self) == SampleAccount.alice.user)
        #expect(try await api.url("user/102").value(User.self) == SampleAccount.alice.user)
        #expect(route.hitCount == 3)
    }

    // MARK: Hooks

    @Test("the configuration's hooks see stubbed calls as they see network calls")
    func hooksSeeStubbedCalls() async throws {
        let stubs = SampleAPIStubs()
        let hook = RecordingHook()
        var api = try Self.api(stubs.table)
        api.hooks = [hook]
        let baseURL = try Self.baseURL()

        let alice = try await api.url("user/102").value(User.self)
        #expect(alice == SampleAccount.alice.user)
        do {
            let target = LoginAndUsersSample.UserTarget(baseURL: baseURL, endpoint: .login(username: "wiki", password: "wrong"))
            let user = try await api.target(target).value(User.self)
            Issue.record("a wrong password logged in as \(user)")
        } catch {
            #expect((error.underlyingError as? APIError)?.errorCode == "1001")
        }

        let events = hook.events
        #expect(events.map(\.summary) == [
            "willSend GET \(Self.base)/user/102",
            "didFinish 200 from stub",
            "willSend POST \(Self.base)/account/login",
            "didFail 401 from stub",
        ])
        try #require(events.count == 4)
        #expect(events[0].id == events[1].id)
        #expect(events[2].id == events[3].id)
        #expect(events[0].id != events[2].id)
        // The hook sees the request as it was sent: the form body's header set by the encoding.
        #expect(events[2].contentType == "application/x-www-form-urlencoded; charset=utf-8")
    }

    // MARK: Moya's stub closure beside the table

    @Test("stubTargets: .immediate answers from the target's sampleData, .never leaves it to the table")
    func stubClosurePerTarget() async throws {
        let stubs = SampleAPIStubs()
        var api = try Self.api(stubs.table)
        api.stubTargets(LoginAndUsersSample.UserTarget.self) { target in
            if case .user = target.endpoint { return .immediate }
            return .never
        }
        let baseURL = try Self.baseURL()
        // `Request.target` on the concrete (Sendable) target type: the overload that lets the
        // configuration's stub closure decide.
        func call(_ endpoint: LoginAndUsersSample.UserAPI) -> Request {
            Request.target(LoginAndUsersSample.UserTarget(baseURL: baseURL, endpoint: endpoint)).configuration(api)
        }

        // The sample's UserTarget declares no sampleData, so its stub is an empty 200.
        let stubbed = await call(.user(id: "102")).delivery(User.self)
        #expect(stubbed.source == .stub)
        #expect(stubbed.response?.statusCode == 200)
        #expect(stubbed.response?.body.isEmpty == true)
        #expect(throws: NetworkError.self) { try stubbed.result.get() }
        if case .failure(let error) = stubbed.result { #expect(error.kind == .decodingFailed) }
        #expect(stubs.user.hitCount == 0)

        let found = try await call(.query(name: "i")).value([User].self)
        #expect(found.map(\.name) == ["wiki", "alice"])
        #expect(stubs.namesWithI.hitCount == 1)
        // The table was asked about the `.never` call only.
        #expect(stubs.table.requests.map(\.path) == ["/user/query"])
    }

    @Test("stubTargets through ChainConfiguration.target(_:), the form the sample uses")
    func stubClosureThroughConfigurationTarget() async throws {
        let stubs = SampleAPIStubs()
        var api = try Self.api(stubs.table)
        api.stubTargets(LoginAndUsersSample.UserTarget.self) { _ in .immediate }
        let target = LoginAndUsersSample.UserTarget(baseURL: try Self.baseURL(), endpoint: .user(id: "102"))

        let delivery = await api.target(target).delivery(User.self)

        // The `Sendable` overload of `ChainConfiguration.target(_:)` keeps the target, so the
        // closure is asked and the table is not.
        #expect(stubs.user.hitCount == 0)
        #expect(delivery.response?.body.isEmpty == true)
        #expect(delivery.source == .stub)
    }

    // MARK: Helpers

    static func baseURL() throws -> URL {
        try #require(URL(string: base))
    }

    /// The sample's configuration (error bodies as `APIError`) on a host that does not exist,
    /// answered by `table`.
    static func api(_ table: StubTable) throws -> ChainConfiguration {
        var configuration = ChainConfiguration(baseURL: try baseURL(), errorBody: ErrorBodyDecoder(APIError.self))
        configuration.cookieJar = nil
        configuration.stubs = table
        return configuration
    }
}

/// A table that answers like the sample API (Sources/SampleServer/Routes/Router+SampleAPI.swift),
/// and its routes, to ask how often each answered.
private struct SampleAPIStubs {
    let table = StubTable()
    let user: StubRoute
    let everyone: StubRoute
    let namesWithI: StubRoute
    let refusedLogin: StubRoute
    let wikiLogin: StubRoute
    let aliceLogin: StubRoute

    init() {
        // Routes are tried newest first: the general ones go in before the specific ones.
        user = table.on(.get, "/user/:id") { request in
            guard let account = SampleAccount.all.first(where: { $0.id == request.parameters["id"] }) else {
                return SampleAccount.error("user not found", code: "1004", status: 404)
            }
            return .json(account.json)
        }
        everyone = table.on(.get, "/user/query", response: .json(SampleAccount.list(SampleAccount.all)))
        namesWithI = table.on(.get, "/user/query", query: ["q": "i"],
                              response: .json(SampleAccount.list([SampleAccount.wiki, SampleAccount.alice])))
        refusedLogin = table.on(.post, "/account/login",
                                response: SampleAccount.error("invalid username or password", code: "1001", status: 401))
        wikiLogin = table.on(.post, "/account/login", body: .form(["username": "wiki", "password": "secret"]),
                             response: .json(SampleAccount.wiki.json))
        aliceLogin = table.on(.post, "/account/login", body: .form(["username": "alice", "password": "wonderland"]),
                              response: .json(SampleAccount.alice.json))
    }
}

/// The sample API's users, as its routes answer them.
private struct SampleAccount {
    let id: String
    let name: String
    let age: Int
    let email: String

    var json: String { #"{"id":"\#(id)","name":"\#(name)","age":\#(age),"email":"\#(email)"}"# }
    var user: User { User(id: id, name: name, age: age, email: email) }

    static let wiki = SampleAccount(id: "101", name: "wiki", age: 18, email: "wiki@example.com")
    static let alice = SampleAccount(id: "102", name: "alice", age: 24, email: "alice@example.com")
    static let bob = SampleAccount(id: "103", name: "bob", age: 31, email: "bob@example.com")
    static let all = [wiki, alice, bob]

    static func list(_ accounts: [SampleAccount]) -> String {
        "[" + accounts.map(\.json).joined(separator: ",") + "]"
    }

    static func error(_ message: String, code: String, status: Int) -> MockResponse {
        .json(#"{"error":"\#(message)","error_code":"\#(code)"}"#, status: status)
    }
}

/// The lines a sample prints, collected for the test.
private final class Transcript: Sendable {
    private let collected = Mutex<[String]>([])

    var lines: [String] { collected.withLock { $0 } }

    var output: SampleOutput {
        SampleOutput { line in self.collected.withLock { $0.append(line) } }
    }
}

/// A hook of the test's: what it was told, in order.
private final class RecordingHook: HTTPHook {
    struct Event: Sendable {
        let id: UInt64
        let summary: String
        let contentType: String?
    }

    private let recorded = Mutex<[Event]>([])

    var events: [Event] { recorded.withLock { $0 } }

    func willSend(_ context: HookContext) {
        record(context, "willSend \(context.request.method.rawValue) \(context.request.url.absoluteString)")
    }

    func didFinish(_ context: HookContext, response: HTTPResponse) {
        record(context, "didFinish \(response.statusCode) from \(response.source)")
    }

    func didFail(_ context: HookContext, error: NetworkError) {
        record(context, "didFail \(error.statusCode ?? 0) from \(error.response.map { "\($0.source)" } ?? "nowhere")")
    }

    private func record(_ context: HookContext, _ summary: String) {
        let event = Event(id: context.id, summary: summary, contentType: context.request.headers["Content-Type"])
        recorded.withLock { $0.append(event) }
    }
}
