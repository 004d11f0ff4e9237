import Foundation

/// One runnable sample: a name (its command), a one-line title, and the code.
public struct Scenario: Sendable {
    /// The command that runs it alone, e.g. `login-and-users`.
    public let name: String
    /// What it shows, in a line.
    public let title: String
    private let body: @Sendable (URL, SampleOutput) async throws -> Void

    public init(name: String, title: String, body: @escaping @Sendable (URL, SampleOutput) async throws -> Void) {
        self.name = name
        self.title = title
        self.body = body
    }

    /// Runs the sample against the sample server at `baseURL`; throws when an answer is not
    /// what the sample expects.
    public func run(baseURL: URL, output: SampleOutput) async throws {
        try await body(baseURL, output)
    }

    public static let loginAndUsers = Scenario(
        name: "login-and-users",
        title: "login, a user, a user query and a typed error body — Moya-style targets and the builder"
    ) { try await LoginAndUsersSample.run(baseURL: $0, output: $1) }

    public static let envelope = Scenario(
        name: "envelope",
        title: "{errcode, errmsg, data}: a model, a result-only call and a business error"
    ) { try await EnvelopeSample.run(baseURL: $0, output: $1) }

    /// Starts (and stops) a server of its own: it plays "offline" by stopping it.
    public static let offlineCache = Scenario(
        name: "offline-cache",
        title: "the stored copy first, then the network — also when the server is gone"
    ) { _, output in try await OfflineCacheSample.run(output: output) }

    public static let rankList = Scenario(
        name: "rank-list",
        title: "a nested envelope with lenient number-or-string fields, and a 32 MiB download with progress"
    ) { try await RankListSample.run(baseURL: $0, output: $1) }

    public static let afStyle = Scenario(
        name: "afstyle-demo",
        title: "the same calls through HTTPSessionManager, and a multipart upload with progress"
    ) { try await AFStyleSample.run(baseURL: $0, output: $1) }

    /// Starts (and stops) a server of its own, on a Unix socket instead of a port.
    public static let unixSocket = Scenario(
        name: "unix-socket",
        title: "Docker-style JSON from a daemon on a Unix socket — http+unix URLs, .unixSocket and HTTPSessionManager"
    ) { _, output in try await UnixSocketSample.run(output: output) }

    public static let session = Scenario(
        name: "session",
        title: "a login cookie set on a redirect hop, sent by both front ends from one jar; Digest; the redirection block"
    ) { try await SessionSample.run(baseURL: $0, output: $1) }

    public static let streaming = Scenario(
        name: "streaming",
        title: "server-sent events printed as they arrive, a feed that reconnects, NDJSON, a streamed upload"
    ) { try await StreamingSample.run(baseURL: $0, output: $1) }

    public static let porting = Scenario(
        name: "porting",
        title: "iOS code ported as written: a Moya target with tags, two envelope codes, a key path, ObjectMapper and HandyJSON models"
    ) { try await PortingSample.run(baseURL: $0, output: $1) }

    /// Every sample, in the order `make demo` runs them.
    public static let all: [Scenario] = [.loginAndUsers, .envelope, .offlineCache, .rankList, .afStyle, .unixSocket, .session,
                                         .streaming, .porting]
}
