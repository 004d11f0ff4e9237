import AFStyle
import FastJSON
import Foundation
import Testing

/// FastJSON is the default of the manager's typed calls, envelope codes and JSON
/// `responseObject`; `jsonDecoder = JSONDecoder()` or `jsonDecoding = .foundation()` switch a
/// manager back. Both give the same values and the same errors.
@Suite("Fast decoding", .timeLimit(.minutes(2)))
struct FastDecodingTests {
    static let ranking = Envelope(codePath: "data.stateCode", messagePath: "data.message",
                                  payloadPath: "data.returnData.rankinglist", successCodes: [1])

    /// A manager on the sample server with each decoding setting a caller can make.
    static func managers() throws -> [(name: String, manager: HTTPSessionManager)] {
        let fast = try makeManager()
        let explicitFast = try makeManager()
        explicitFast.jsonDecoding = .fast(FastJSONDecoder())
        let assigned = try makeManager()
        assigned.jsonDecoder = JSONDecoder()
        let foundation = try makeManager()
        foundation.jsonDecoding = .foundation()
        return [("default", fast), (".fast(FastJSONDecoder())", explicitFast), ("jsonDecoder = JSONDecoder()", assigned),
                (".foundation()", foundation)]
    }

    @Test("rank/list: the nested envelope's payload with lenient fields, through both decoders")
    func rankingList() async throws {
        var lists: [[[Int]]] = []
        for (name, manager) in try Self.managers() {
            manager.envelope = Self.ranking
            let callbacks = Callbacks<[RankItem]>()
            manager.GET("rank/list", parameters: nil, as: [RankItem].self, success: callbacks.success,
                        failure: callbacks.failure)
            let items = try #require(try await callbacks.one().value, "\(name)")
            lists.append(items.map { [$0.argValue, $0.rankingType] })
            #expect(items.first?.title == "畅销榜", "\(name)")
        }
        #expect(lists.allSatisfy { $0 == [[1, 1], [2, 2], [3, 3], [4, 4]] })
    }

    @Test("responseObject is the same tree of objects with both decoders")
    func responseObjects() async throws {
        var objects: [Any] = []
        for (name, manager) in try Self.managers() {
            manager.envelope = Self.ranking
            let callbacks = Callbacks<Any?>()
            manager.GET("rank/list", success: callbacks.success, failure: callbacks.failure)
            objects.append(try #require(try await callbacks.one().value as? [Any], "\(name)"))
        }
        #expect(objects.allSatisfy { isSameJSONObject($0, objects[0]) })
        #expect((objects.first as? [Any])?.count == 4)
    }

    @Test("decoding and business failures are the same errors with both decoders")
    func sameFailures() async throws {
        struct Wrong: Decodable, Sendable { let id: Int }
        var errors: [NetworkError] = []
        var business: [NetworkError.Kind] = []
        for (name, manager) in try Self.managers() {
            let typed = Callbacks<Wrong>()
            manager.GET("user/101", parameters: nil, as: Wrong.self, success: typed.success, failure: typed.failure)
            errors.append(try #require(try await typed.one().error, "\(name)"))

            manager.envelope = Self.ranking
            let failing = Callbacks<[RankItem]>()
            manager.GET("rank/fail", parameters: nil, as: [RankItem].self, success: failing.success,
                        failure: failing.failure)
            business.append(try #require(try await failing.one().error?.kind, "\(name)"))
        }
        for error in errors {
            #expect(error.kind == .decodingFailed)
            #expect(error.codingPath == "id")
            #expect(error.message == errors[0].message)
        }
        #expect(business.allSatisfy { $0 == .business(code: "0", message: "参数错误") })
    }

    @Test("which decoder runs: FastJSON by default, Foundation once switched")
    func switchPerManager() async throws {
        let expected = ["fast", "fast", "foundation", "foundation"]
        for ((name, manager), backend) in zip(try Self.managers(), expected) {
            let callbacks = Callbacks<BackendProbe>()
            manager.GET("get", parameters: nil, as: BackendProbe.self, success: callbacks.success,
                        failure: callbacks.failure)
            #expect(try await callbacks.one().value?.backend == backend, "\(name)")
        }
        guard case .fast = HTTPSessionManager(baseURL: nil).jsonDecoding else {
            Issue.record("the manager's default is not FastJSON")
            return
        }
    }

    @Test("jsonDecoder reads a fast setting as an equivalent JSONDecoder and assigning it selects Foundation")
    func jsonDecoderProperty() throws {
        let manager = HTTPSessionManager(baseURL: nil)
        var fast = FastJSONDecoder()
        fast.keyDecodingStrategy = .convertFromSnakeCase
        manager.jsonDecoding = .fast(fast)
        guard case .convertFromSnakeCase = manager.jsonDecoder.keyDecodingStrategy else {
            Issue.record("the strategy was not carried over")
            return
        }
        let decoder = JSONDecoder()
        manager.jsonDecoder = decoder
        #expect(manager.jsonDecoder === decoder)
        guard case .foundation = manager.jsonDecoding else {
            Issue.record("assigning a JSONDecoder did not select Foundation")
            return
        }
    }

    @Test("the JSON serializer parses alike with both decoders", arguments: [
        #"{"a":[1,-1,1.5,1e2,true,null,"x",18446744073709551615,12345678901234567890123],"b":{"c":null}}"#,
        "42", #""text""#, "   ",
    ])
    func serializerObjects(body: String) throws {
        let response = HTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8),
                                    url: URL(fileURLWithPath: "/serializer"))
        var serializer = HTTPResponseSerializer.json
        for removesNulls in [false, true] {
            serializer.removesKeysWithNullValues = removesNulls
            let fast = try serializer.responseObject(for: response)
            let foundation = try serializer.responseObject(for: response, decoding: .foundation())
            switch (fast, foundation) {
            case (nil, nil):
                break
            case (let fast?, let foundation?):
                #expect(isSameJSONObject(fast, foundation), "\(fast) vs \(foundation)")
            default:
                Issue.record("\(String(describing: fast)) vs \(String(describing: foundation))")
            }
        }
        let broken = HTTPResponse(statusCode: 200, body: Data("<html>".utf8), url: URL(fileURLWithPath: "/serializer"))
        let fastError = #expect(throws: NetworkError.self) { try serializer.responseObject(for: broken) }
        let foundationError = #expect(throws: NetworkError.self) {
            try serializer.responseObject(for: broken, decoding: .foundation())
        }
        #expect(fastError?.kind == .decodingFailed)
        #expect(fastError?.kind == foundationError?.kind)
    }
}


/// Records which decoder made it: FastJSON's decoder type lives in the `FastJSON` module.
private struct BackendProbe: Decodable, Sendable {
    let backend: String

    init(from decoder: any Decoder) throws {
        backend = String(reflecting: type(of: decoder)).hasPrefix("FastJSON.") ? "fast" : "foundation"
    }
}
