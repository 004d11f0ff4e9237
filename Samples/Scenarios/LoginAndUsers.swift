import Foundation

/// The API of the Moya + ObjectMapper article: log in (POST), fetch a user by id, query users
/// (a list), and turn the `{"error","error_code"}` body of a refused call into a typed error
/// that still knows its HTTP status. Written twice — once with a Moya-style target enum, once
/// with the plain builder — with the logger hook printing every request.
public enum LoginAndUsersSample {
    public static func run(baseURL: URL, output: SampleOutput) async throws {
        // One configuration for every call below. In an app you would set these once on
        // `Request.updateDefaults` and `Hooks.shared.add(LoggerHook())`; a sample keeps them
        // local so it does not change the settings of whoever else runs in this process.
        let api = ChainConfiguration(
            baseURL: baseURL,
            errorBody: ErrorBodyDecoder(APIError.self),          // refused calls: decode {"error","error_code"}
            hooks: [LoggerHook(level: .info, output: output.log)])  // "→ POST …" / "← 200 …" lines

        output.say("1) With a Moya-style target enum (one case per endpoint):")
        try await runWithTargets(api, baseURL: baseURL, output: output)

        output.say("2) With the plain builder (Request.url(…).method(…).params(…)):")
        try await runWithBuilder(api, output: output)
    }

    // MARK: Moya style

    /// The endpoints, as a Moya app declares them.
    enum UserAPI {
        case login(username: String, password: String)
        case user(id: String)
        case query(name: String)
    }

    /// Moya reads `baseURL` from a constant of the app. The sample server's port is only known
    /// at run time, so here a target is an endpoint plus the server it is sent to.
    struct UserTarget: TargetType {
        let baseURL: URL
        let endpoint: UserAPI

        var path: String {
            switch endpoint {
            case .login: "/account/login"
            case .user(let id): "/user/\(id)"
            case .query: "/user/query"
            }
        }

        var method: HTTPMethod {
            if case .login = endpoint { .post } else { .get }
        }

        var task: TargetTask {
            switch endpoint {
            case .login(let username, let password):
                .requestParameters(parameters: ["username": username, "password": password], encoding: .form)
            case .user:
                .requestPlain
            case .query(let name):
                .requestParameters(parameters: ["q": name], encoding: .query)
            }
        }
    }

    static func runWithTargets(_ api: ChainConfiguration, baseURL: URL, output: SampleOutput) async throws {
        func target(_ endpoint: UserAPI) -> Request { api.target(UserTarget(baseURL: baseURL, endpoint: endpoint)) }

        let me = try await target(.login(username: "wiki", password: "secret")).value(User.self)
        output.say("   logged in as \(me.name) (id \(me.id), \(me.age) years, \(me.email))")
        try expect(me.name == "wiki", "to log in as wiki")

        let alice = try await target(.user(id: "102")).value(User.self)
        output.say("   user 102 is \(alice.name), \(alice.email)")
        try expect(alice.name == "alice", "user 102 to be alice")

        let found = try await target(.query(name: "i")).value([User].self)
        output.say("   users whose name contains \"i\": \(found.map(\.name).joined(separator: ", "))")
        try expect(found.map(\.name) == ["wiki", "alice"], "wiki and alice to match \"i\"")

        let refused = try await expectFailure("a wrong password") {
            try await target(.login(username: "wiki", password: "wrong")).value(User.self)
        }
        try report(refused, expectedStatus: 401, expectedCode: "1001", output: output)
    }

    // MARK: Plain builder

    static func runWithBuilder(_ api: ChainConfiguration, output: SampleOutput) async throws {
        // The callback form, as iOS code reads: the closure runs once with a Result.
        // (Wrapped in a continuation only so this async sample can wait for it.)
        let me: User = try await withCheckedThrowingContinuation { continuation in
            api.url("account/login")
                .method(.post)
                .params(["username": "alice", "password": "wonderland"])
                .response(User.self) { result in continuation.resume(with: result) }
        }
        output.say("   logged in as \(me.name) (id \(me.id))")
        try expect(me.id == "102", "alice to have id 102")

        // The async form of the same thing: `value` returns the model or throws NetworkError.
        let bob = try await api.url("user/103").value(User.self)
        output.say("   user 103 is \(bob.name), \(bob.age) years")
        try expect(bob.name == "bob", "user 103 to be bob")

        let everyone = try await api.url("user/query").value([User].self)
        output.say("   all users: \(everyone.map(\.name).joined(separator: ", "))")
        try expect(everyone.count == 3, "three users")

        let missing = try await expectFailure("an unknown user") {
            try await api.url("user/999").value(User.self)
        }
        try report(missing, expectedStatus: 404, expectedCode: "1004", output: output)
    }

    /// Prints a refused call the way an app would show it, and checks it is the expected one:
    /// the HTTP status stays on the error (`statusCode`, and in `kind`), the server's own
    /// reason is the typed `APIError` decoded from the body.
    static func report(_ error: NetworkError, expectedStatus: Int, expectedCode: String,
                       output: SampleOutput) throws(SampleFailure) {
        guard let body = error.underlyingError as? APIError else {
            throw SampleFailure("an {\"error\",\"error_code\"} body with the \(expectedStatus), got: \(error)")
        }
        output.say("   refused with HTTP \(error.statusCode ?? 0), error_code \(body.errorCode): \(body.error)")
        try expect(error.kind == .unacceptableStatus(expectedStatus) && body.errorCode == expectedCode,
                   "HTTP \(expectedStatus) with error_code \(expectedCode)")
    }
}

extension LoginAndUsersSample {
    /// The same kind of lookup as a script writes it: no `async`, no callback —
    /// `blockingValue` waits on the calling thread until the answer is there.
    ///
    /// Called from a synchronous `main`, this runs on the process's main thread. There it asks
    /// for delivery on the main queue on purpose: that is the queue the blocked main thread
    /// cannot drain, the case where a naive "send, then wait on a semaphore" deadlocks. Chain
    /// sees it and delivers on a private queue instead, so this returns. (Blocking forms are
    /// unavailable in async code, where they would tie up a thread of Swift's small pool.)
    @available(*, noasync, message: "blocks the calling thread")
    public static func runBlocking(baseURL: URL, output: SampleOutput) throws {
        var request = Request.url(baseURL.appendingPathComponent("user/101"))
        if Thread.isMainThread {
            request = request.queue(.main)
        }
        let user = try request.blockingValue(User.self)
        let thread = Thread.isMainThread ? "the main thread, delivery asked on the main queue" : "a background thread"
        output.say("blockingValue on \(thread): user 101 is \(user.name)")
        try expect(user.name == "wiki", "user 101 to be wiki")
    }
}
