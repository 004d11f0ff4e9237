// The worked example of ChainTesting's MockServer: the login-and-users sample's own code
// (`runWithTargets`, `runWithBuilder`, and its calls one by one) run against a server in the
// test process that answers as the sample API does; then the test reads back what the code
// sent. This is how an app team tests its API layer without the real backend.
import ChainTesting
import Foundation
@testable import SampleScenarios
import Synchronization
import Testing

@Suite("LoginAndUsers on a MockServer")
struct LoginAndUsersMockServerTests {
    // MARK: The whole sample, both ways

    @Test("runWithTargets sends the login form, the user path and the query, on one connection")
    func targetsSendWhatTheAPIExpects() async throws {
        let server = try MockServer()
        server.dispatcher = FakeSampleAPI.answer
        let transcript = Transcript()

        try await LoginAndUsersSample.runWithTargets(Self.api(server), baseURL: server.baseURL, output: transcript.output)

        #expect(transcript.lines == [
            "   logged in as wiki (id 101, 18 years, wiki@example.com)",
            "   user 102 is alice, alice@example.com",
            "   users whose name contains \"i\": wiki, alice",
            "   refused with HTTP 401, error_code 1001: invalid username or password",
        ])

        let login = try await server.takeRequest()
        #expect(login.method == .post)
        #expect(login.target == "/account/login")
        #expect(login.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
        // Form parameters go out with their keys sorted.
        #expect(login.bodyText == "password=secret&username=wiki")
        #expect(login.formItems == [URLQueryItem(name: "password", value: "secret"), URLQueryItem(name: "username", value: "wiki")])
        #expect(!login.isConnectionReused)

        let user = try await server.takeRequest()
        #expect(user.method == .get)
        #expect(user.target == "/user/102")
        #expect(user.body.isEmpty)
        #expect(user.headers["Content-Type"] == nil)
        #expect(user.isConnectionReused)
        #expect(user.connectionNumber == login.connectionNumber)

        let query = try await server.takeRequest()
        #expect(query.method == .get)
        #expect(query.target == "/user/query?q=i")
        #expect(query.queryItems == [URLQueryItem(name: "q", value: "i")])
        #expect(query.connectionNumber == login.connectionNumber)
        #expect(query.indexOnConnection == 2)

        let refused = try await server.takeRequest()
        #expect(refused.method == .post)
        #expect(refused.path == "/account/login")
        #expect(refused.formItems == [URLQueryItem(name: "password", value: "wrong"), URLQueryItem(name: "username", value: "wiki")])
        // A 401 with a body keeps the connection open.
        #expect(refused.connectionNumber == login.connectionNumber)
        #expect(server.requestCount == 4)
    }

    @Test("runWithBuilder sends the callback login, the user lookups and the unfiltered query")
    func builderSendsWhatTheAPIExpects() async throws {
        let server = try MockServer()
        server.dispatcher = FakeSampleAPI.answer
        let transcript = Transcript()

        try await LoginAndUsersSample.runWithBuilder(Self.api(server), output: transcript.output)

        #expect(transcript.lines == [
            "   logged in as alice (id 102)",
            "   user 103 is bob, 31 years",
            "   all users: wiki, alice, bob",
            "   refused with HTTP 404, error_code 1004: user not found",
        ])

        let login = try await server.takeRequest()
        #expect(login.method == .post)
        #expect(login.target == "/account/login")
        #expect(login.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(login.bodyText == "password=wonderland&username=alice")

        let bob = try await server.takeRequest()
        #expect(bob.method == .get)
        #expect(bob.target == "/user/103")

        let everyone = try await server.takeRequest()
        #expect(everyone.target == "/user/query")
        #expect(everyone.queryItems.isEmpty)

        let missing = try await server.takeRequest()
        #expect(missing.target == "/user/999")
        #expect([bob, everyone, missing].allSatisfy { $0.isConnectionReused && $0.connectionNumber == login.connectionNumber })
        #expect(server.requestCount == 4)
    }

    // MARK: One call at a time, from a queue

    @Test("a 401 with {\"error\",\"error_code\"} becomes the typed APIError and keeps its status")
    func refusedLoginIsTheTypedError() async throws {
        let server = try MockServer()
        server.enqueue(.json(#"{"error":"invalid username or password","error_code":"1001"}"#, status: 401))
        let target = LoginAndUsersSample.UserTarget(baseURL: server.baseURL,
                                                    endpoint: .login(username: "wiki", password: "wrong"))

        do {
            let user = try await Self.api(server).target(target).value(User.self)
            Issue.record("a refused login returned \(user)")
        } catch {
            #expect(error.kind == .unacceptableStatus(401))
            #expect(error.statusCode == 401)
            let body = try #require(error.underlyingError as? APIError)
            #expect(body.error == "invalid username or password")
            #expect(body.errorCode == "1001")
        }

        let sent = try await server.takeRequest()
        #expect(sent.method == .post)
        #expect(sent.path == "/account/login")
        #expect(sent.formItems.first { $0.name == "password" }?.value == "wrong")
        #expect(server.queuedResponseCount == 0)
    }

    @Test("a body cut off half-way is a truncatedResponse; the next call gets a new connection")
    func bodyCutOffIsTheAppsErrorPath() async throws {
        let server = try MockServer()
        server.enqueue(.json(FakeSampleAPI.alice.json, options: [.disconnectDuringBody]))
        server.enqueue(.json(FakeSampleAPI.alice.json))
        let api = Self.api(server)

        do {
            let user = try await api.url("user/102").value(User.self)
            Issue.record("a truncated body decoded as \(user)")
        } catch {
            #expect(error.kind == .truncatedResponse)
            #expect(error.isTransportFailure)
        }
        // The app's next try works, on a fresh connection: the broken one is not reused.
        let retried = try await api.url("user/102").value(User.self)
        #expect(retried == User(id: "102", name: "alice", age: 24, email: "alice@example.com"))

        let first = try await server.takeRequest()
        let second = try await server.takeRequest()
        #expect(first.target == "/user/102")
        #expect(second.target == "/user/102")
        #expect(second.connectionNumber != first.connectionNumber)
        #expect(!second.isConnectionReused)
    }

    @Test("a server that never answers ends in timedOut after the configured idle timeout")
    func silentServerTimesOut() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(options: [.noResponse]))
        let api = Self.api(server, timeouts: Timeouts(connect: 5, idle: 1))
        let clock = ContinuousClock()
        let started = clock.now

        do {
            let user = try await api.url("user/101").value(User.self)
            Issue.record("a server that never answered returned \(user)")
        } catch {
            #expect(error.kind == .timedOut)
            #expect(error.statusCode == nil)
        }
        // The 1 s idle limit ended it, not the 60 s default (the bound is loose: under
        // ThreadSanitizer, with the whole suite beside it, this took 25 s once).
        #expect(clock.now - started < .seconds(50))
        let sent = try await server.takeRequest()
        #expect(sent.target == "/user/101")
    }

    // MARK: Helpers

    /// The configuration the sample builds in `run`, on this server, with a client of the
    /// test's own (its connection pool is the test's alone, so reuse is the test's to see).
    private static func api(_ server: MockServer, timeouts: Timeouts = Timeouts()) -> ChainConfiguration {
        var configuration = ChainConfiguration(baseURL: server.baseURL, errorBody: ErrorBodyDecoder(APIError.self),
                                               client: HTTPClient(), timeouts: timeouts)
        configuration.cookieJar = nil
        configuration.proxy = .none
        return configuration
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

/// The sample API as the sample server answers it (Sources/SampleServer/Routes/Router+SampleAPI.swift):
/// three fixed users, a form login, the lookups, and the `{"error","error_code"}` bodies.
private enum FakeSampleAPI {
    struct Account {
        let id: String
        let name: String
        let age: Int
        let email: String
        let password: String

        /// The public form, without the password.
        var json: String { #"{"id":"\#(id)","name":"\#(name)","age":\#(age),"email":"\#(email)"}"# }
    }

    static let wiki = Account(id: "101", name: "wiki", age: 18, email: "wiki@example.com", password: "secret")
    static let alice = Account(id: "102", name: "alice", age: 24, email: "alice@example.com", password: "wonderland")
    static let bob = Account(id: "103", name: "bob", age: 31, email: "bob@example.com", password: "builder")
    static let all = [wiki, alice, bob]

    /// The dispatcher: one answer per request, as the real routes give it.
    @Sendable static func answer(_ request: RecordedRequest) -> MockResponse {
        switch (request.method, request.path) {
        case (.post, "/account/login"):
            let form = request.formItems
            let username = form.first { $0.name == "username" }?.value
            let password = form.first { $0.name == "password" }?.value
            guard let username, !username.isEmpty, let password else {
                return error("username and password are required", code: "1002", status: 400)
            }
            guard let account = all.first(where: { $0.name == username }), account.password == password else {
                return error("invalid username or password", code: "1001", status: 401)
            }
            return .json(account.json)
        case (.get, "/user/query"):
            let needle = (request.queryValue("q") ?? "").lowercased()
            let matches = all.filter { needle.isEmpty || $0.name.lowercased().contains(needle) }
            return .json("[" + matches.map(\.json).joined(separator: ",") + "]")
        case (.get, let path) where path.hasPrefix("/user/"):
            let id = path.dropFirst("/user/".count)
            guard let account = all.first(where: { $0.id == id }) else {
                return error("user not found", code: "1004", status: 404)
            }
            return .json(account.json)
        default:
            return error("no route for \(request.method.rawValue) \(request.path)", code: "1000", status: 404)
        }
    }

    static func error(_ message: String, code: String, status: Int) -> MockResponse {
        .json(#"{"error":"\#(message)","error_code":"\#(code)"}"#, status: status)
    }
}
