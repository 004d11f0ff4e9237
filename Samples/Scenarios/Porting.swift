import Foundation
import Synchronization

/// Code ported from an iOS app as it was written: a Moya target whose plugin skipped silent
/// calls, u17's rank list with its two business codes, and Moya's `map(_:atKeyPath:)`.
public enum PortingSample {
    /// The endpoints, as the app declared them; `ping` is a keep-alive nobody should see.
    enum ComicAPI {
        case rankList, rankFail, ping
    }

    /// An endpoint plus the server it goes to (the sample server's port is known at run time).
    struct ComicTarget: TargetType {
        let baseURL: URL
        let endpoint: ComicAPI

        var path: String {
            switch endpoint {
            case .rankList: "rank/list"
            case .rankFail: "rank/fail"
            case .ping: "status/204"
            }
        }

        /// What the app's Moya plugin checked with `if case .ping = target`: now a tag the
        /// hooks and interceptors read from the request.
        var tags: Set<String> {
            if case .ping = endpoint { ["silent"] } else { [] }
        }
    }

    /// The counterpart of the app's activity-indicator plugin: it announces every call but the
    /// silent ones, and names the endpoint from the target itself.
    final class ActivityIndicator: HTTPHook {
        let output: SampleOutput
        let announced = Mutex(0)

        init(output: SampleOutput) {
            self.output = output
        }

        func willSend(_ context: HookContext) {
            guard !context.request.tags.contains("silent") else { return }
            announced.withLock { $0 += 1 }
            let endpoint = context.request.target(as: ComicTarget.self).map { "\($0.endpoint)" } ?? context.request.url.path
            output.say("   [spinner] loading \(endpoint)…")
        }
    }

    /// u17's two codes: `code` at the top, `data.stateCode` with its message inside.
    static let u17 = Envelope(codePath: "code", payloadPath: "data.returnData.rankinglist", successCodes: [1])
        .checking("data.stateCode", messagePath: "data.message", successCodes: [1])

    struct RankItem: Decodable, Sendable {
        let title: String
        @Lenient var argValue: Int
    }

    struct EnvelopeUser: Decodable, Sendable {
        let id: String
        let name: String
    }

    public static func run(baseURL: URL, output: SampleOutput) async throws {
        let indicator = ActivityIndicator(output: output)
        let api = ChainConfiguration(baseURL: baseURL, hooks: [indicator])

        output.say("1) A Moya target with tags: the activity indicator skips the silent ping")
        try await api.target(ComicTarget(baseURL: baseURL, endpoint: .ping)).response()
        let items = try await api.target(ComicTarget(baseURL: baseURL, endpoint: .rankList)).envelope(u17).value([RankItem].self)
        output.say("   rank list: \(items.count) items, both codes passed (first: \(items.first?.title ?? "-"))")
        let announced = indicator.announced.withLock { $0 }
        output.say("   the indicator announced \(announced) of 2 calls")
        try expect(announced == 1, "the silent ping not announced")

        output.say("2) Two business codes: the failing one is named")
        let failed = try await expectFailure("stateCode 0") {
            try await api.target(ComicTarget(baseURL: baseURL, endpoint: .rankFail)).envelope(u17).value([RankItem].self)
        }
        output.say("   \(failed.kind) at \(failed.codingPath ?? "?")")
        try expect(failed.codingPath == "data.stateCode", "the inner code named")

        output.say("3) Moya's map(_:atKeyPath:): a payload at a key path, no envelope")
        let user = try await Request.url(baseURL.appendingPathComponent("envelope/user/101"))
            .keyPath("data").value(EnvelopeUser.self)
        output.say("   data → \(user.name) (\(user.id))")
        try expect(user.name == "wiki", "user 101 at data")
    }
}
