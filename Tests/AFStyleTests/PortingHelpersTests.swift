import AFStyle
import Foundation
import Testing
import TestSupport

/// AFStyle's side of the porting helpers: key paths on the typed verbs, several envelope
/// codes, and tags for a manager's calls.
@Suite("AFStyle key paths, envelope checks and tags", .timeLimit(.minutes(2)))
struct PortingHelpersTests {
    static let u17 = Envelope(codePath: "code", payloadPath: "data.returnData.rankinglist", successCodes: [1])
        .checking("data.stateCode", messagePath: "data.message", successCodes: [1])

    /// The tags each adapted request carried, in order.
    final class TagRecorder: RequestInterceptor {
        let tags = Recorder<String>()
        func adapt(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPRequest, NetworkError>) -> Void) {
            tags.append("\(request.url.path):\(request.tags.sorted().joined(separator: ","))")
            completion(.success(request))
        }
    }

    @Test("keyPath: decodes the payload without an envelope")
    func keyPathAlone() async throws {
        let manager = try makeManager()
        let callbacks = Callbacks<[RankItem]>()
        manager.GET("rank/list", parameters: nil, as: [RankItem].self, keyPath: "data.returnData.rankinglist",
                    success: callbacks.success, failure: callbacks.failure)
        #expect(try await callbacks.one().value?.map(\.argValue) == [1, 2, 3, 4])

        // Without an envelope nothing is checked: the failing ranking list still decodes.
        let failing = Callbacks<[RankItem]>()
        manager.GET("rank/fail", parameters: nil, as: [RankItem].self, keyPath: "data.returnData.rankinglist",
                    success: failing.success, failure: failing.failure)
        #expect(try await failing.one().value?.isEmpty == true)
    }

    @Test("keyPath with the manager's envelope: the codes are still checked")
    func keyPathWithEnvelope() async throws {
        let manager = try makeManager()
        manager.envelope = Self.u17.payload(at: "nowhere")
        let callbacks = Callbacks<[RankItem]>()
        manager.GET("rank/list", parameters: nil, as: [RankItem].self, keyPath: "data.returnData.rankinglist",
                    success: callbacks.success, failure: callbacks.failure)
        #expect(try await callbacks.one().value?.count == 4)

        let failing = Callbacks<[RankItem]>()
        manager.dataTask(.get, "rank/fail", parameters: nil, as: [RankItem].self, keyPath: "data.returnData.rankinglist",
                         success: failing.success, failure: failing.failure)
        let error = try #require(try await failing.one().error)
        #expect(error.kind == .business(code: "0", message: "参数错误"))
        #expect(error.codingPath == "data.stateCode")
    }

    @Test("two envelope codes: the sample server's rank list passes both, its failure names the inner one")
    func twoCodes() async throws {
        let manager = try makeManager()
        manager.envelope = Self.u17
        let callbacks = Callbacks<[RankItem]>()
        manager.GET("rank/list", parameters: nil, as: [RankItem].self, success: callbacks.success, failure: callbacks.failure)
        #expect(try await callbacks.one().value?.map(\.title).first == "畅销榜")

        let untyped = Callbacks<Any?>()
        manager.GET("rank/fail", parameters: nil, headers: nil, progress: nil, success: untyped.success, failure: untyped.failure)
        let error = try #require(try await untyped.one().error)
        #expect(error.message == "参数错误 (business code 0 at data.stateCode)")
    }

    @Test("withTags tags this manager's calls made in the block, nested ones add up, others stay untagged")
    func withTags() async throws {
        let manager = try makeManager()
        let other = try makeManager()
        let recorder = TagRecorder()
        manager.interceptors = [recorder]
        other.interceptors = [recorder]
        let first = Callbacks<Any?>(), second = Callbacks<Any?>(), third = Callbacks<Any?>(), fourth = Callbacks<Any?>()
        manager.withTags(["silent"]) {
            manager.GET("get", parameters: ["n": 1], headers: nil, progress: nil, success: first.success, failure: first.failure)
            manager.withTags(["batch"]) {
                manager.GET("status/200", parameters: nil, headers: nil, progress: nil, success: second.success,
                            failure: second.failure)
            }
            other.GET("user/101", parameters: nil, headers: nil, progress: nil, success: third.success, failure: third.failure)
        }
        manager.GET("user/102", parameters: nil, headers: nil, progress: nil, success: fourth.success, failure: fourth.failure)
        for callbacks in [first, second, third, fourth] { _ = try await callbacks.one() }
        #expect(Set(recorder.tags.values) == ["/get:silent", "/status/200:batch,silent", "/user/101:", "/user/102:"])
    }
}
