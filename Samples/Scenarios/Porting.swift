import ChainModels
import Foundation
import Synchronization

/// Code ported from an iOS app as it was written: a Moya target whose plugin skipped silent
/// calls, u17's rank list with its two business codes, Moya's `map(_:atKeyPath:)`, and the
/// app's ObjectMapper and HandyJSON model files with only their import changed.
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

    /// The rank list's ObjectMapper model: `argValue` arrives as `1` or `"2"`, so the app had
    /// a transform for it.
    final class RankEntry: Mappable {
        var title = ""
        var argValue = 0

        init?(map: Map) {}

        func mapping(map: Map) {
            title <- map["title"]
            argValue <- (map["argValue"], NumberOrTextTransform())
        }
    }

    /// An `Int` from a JSON number or a numeric string, written back as a number.
    struct NumberOrTextTransform: TransformType {
        func transformFromJSON(_ value: Any?) -> Int? {
            if let number = value as? Int { return number }
            return (value as? String).flatMap { Int($0) }
        }

        func transformToJSON(_ value: Int?) -> Int? { value }
    }

    /// A HandyJSON model: the sample server never sends `level`, so it keeps its default.
    struct Profile: HandyJSON, Sendable {
        var id = ""
        var name = ""
        var age = 0
        var level = 1
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

        output.say("4) An ObjectMapper model file through the AFStyle manager, with u17's envelope")
        let manager = HTTPSessionManager(baseURL: baseURL)
        manager.envelope = u17
        let entries: Result<[(String, Int)], NetworkError> = await withCheckedContinuation { continuation in
            manager.GET("rank/list", array: RankEntry.self,
                        success: { _, entries in continuation.resume(returning: .success(entries.map { ($0.title, $0.argValue) })) },
                        failure: { _, error in continuation.resume(returning: .failure(error)) })
        }
        let mapped = try entries.get()
        output.say("   \(mapped.count) entries, argValue \(mapped.map(\.1)) (numbers and strings alike)")
        try expect(mapped.map(\.1) == [1, 2, 3, 4], "every argValue through the transform")

        output.say("5) A HandyJSON model file through a Chain request: a key the server leaves out keeps its default")
        let profile = try await Request.url(baseURL.appendingPathComponent("envelope/user/102"))
            .envelope(.errcode).value(Profile.self)
        output.say("   \(profile.name), \(profile.age), level \(profile.level)")
        try expect(profile.name == "alice" && profile.level == 1, "the declared default of level kept")
    }
}
