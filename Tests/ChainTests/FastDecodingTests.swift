import Chain
import FastJSON
import Foundation
import Testing

/// FastJSON is the default decoder of Chain's typed responses, envelopes, error bodies and
/// `responseJSON`; `decoder(JSONDecoder)`, `decoding(.foundation(…))` and the configuration
/// switch back. Both give the same values and the same errors.
@Suite("Fast decoding", .timeLimit(.minutes(2)))
struct FastDecodingTests {
    static let ranking = Envelope(codePath: "data.stateCode", messagePath: "data.message",
                                  payloadPath: "data.returnData.rankinglist", successCodes: [1])

    /// The same settings spelled every way a caller can.
    static var backends: [(name: String, apply: @Sendable (Request) -> Request)] {
        [("default", { $0 }),
         ("decoder(FastJSONDecoder())", { $0.decoder(FastJSONDecoder()) }),
         ("decoding(.fast())", { $0.decoding(.fast()) }),
         ("decoder(JSONDecoder())", { $0.decoder(JSONDecoder()) }),
         ("decoding(.foundation())", { $0.decoding(.foundation()) })]
    }

    @Test("/rank/list: the nested envelope's payload with lenient fields, through both decoders")
    func rankingListWithBothDecoders() async throws {
        let base = Request.url(try TestServer.url("/rank/list")).envelope(Self.ranking)
        var lists: [[RankItem]] = []
        for backend in Self.backends {
            lists.append(try await backend.apply(base).value([RankItem].self))
        }
        #expect(lists.allSatisfy { $0 == lists[0] })
        #expect(lists[0].map(\.argValue) == [1, 2, 3, 4])
        #expect(lists[0].map(\.rankingType) == [1, 2, 3, 4])
        #expect(lists[0].first?.title == "畅销榜")
    }

    @Test("a business failure is the same error with both decoders")
    func businessFailureWithBothDecoders() async throws {
        let base = Request.url(try TestServer.url("/rank/fail")).envelope(Self.ranking)
        for backend in Self.backends {
            let result = await backend.apply(base).callbackResult([RankItem].self)
            #expect(result.failure?.kind == .business(code: "0", message: "参数错误"), "\(backend.name)")
        }
    }

    @Test("decoding failures have the same kind and coding path with both decoders", arguments: [
        (#"{"code":1,"data":{"stateCode":1,"message":"成功"}}"#, "data.returnData"),
        (#"{"code":1,"data":{"stateCode":1,"returnData":{}}}"#, "data.returnData.rankinglist"),
        (#"{"code":1,"data":{"stateCode":1,"returnData":{"rankinglist":null}}}"#, "data.returnData.rankinglist"),
        (#"{"code":1,"data":{"stateCode":1,"returnData":{"rankinglist":[{"title":"a"}]}}}"#,
         "data.returnData.rankinglist[0].subTitle"),
        (#"{"code":1,"data":{"stateCode":1,"returnData":{"rankinglist":[{"title":"a","subTitle":"b","cover":"c","argName":"d","argValue":"x"}]}}}"#,
         "data.returnData.rankinglist[0].argValue"),
        (#"{"code":1,"data":{"message":"no code"}}"#, "data.stateCode"),
        ("<html>oops</html>", nil),
    ] as [(String, String?)])
    func sameDecodingFailures(body: String, codingPath: String?) async throws {
        let base = Request.url(unreachableURL).stub(Stub(body: Data(body.utf8))).envelope(Self.ranking)
        var errors: [NetworkError] = []
        for backend in Self.backends {
            errors.append(try #require(await backend.apply(base).callbackResult([RankItem].self).failure))
        }
        for error in errors {
            #expect(error.kind == .decodingFailed)
            #expect(error.codingPath == codingPath)
            #expect(error.message == errors[0].message)
        }
    }

    @Test("lenient fields missing or null decode to their defaults with both decoders")
    func lenientDefaults() async throws {
        let body = #"{"code":1,"data":{"stateCode":1,"returnData":{"rankinglist":[{"title":"a","subTitle":"b","cover":"c","argName":"d","argValue":null}]}}}"#
        let base = Request.url(unreachableURL).stub(Stub(body: Data(body.utf8))).envelope(Self.ranking)
        for backend in Self.backends {
            let items = try await backend.apply(base).value([RankItem].self)
            #expect(items.map(\.argValue) == [0], "\(backend.name)")
            #expect(items.map(\.rankingType) == [0], "\(backend.name)")
        }
    }

    @Test("responseJSON gives the objects JSONSerialization makes, with both decoders")
    func jsonWithBothDecoders() async throws {
        let request = Request.url(try TestServer.url("/rank/list")).envelope(Self.ranking)
        let fast = try await request.json()
        let foundation = try await request.decoding(.foundation()).json()
        #expect(isSameJSONObject(fast, foundation))
        #expect((fast as? [Any])?.count == 4)
        let whole = try await Request.url(try TestServer.url("/rank/list")).json()
        let expected = try JSONSerialization.jsonObject(with: try await Request.url(try TestServer.url("/rank/list")).data())
        #expect(isSameJSONObject(whole, expected))
    }

    @Test("which decoder runs: FastJSON by default, the request's choice, then the configuration's")
    func perRequestAndConfigurationSwitch() async throws {
        let stub = Stub(body: Data(#"{"errcode":0,"data":{}}"#.utf8))
        let plain = ChainConfiguration().url(unreachableURL).stub(stub).envelope(.errcode)
        #expect(try await plain.value(BackendProbe.self).backend == "fast")
        #expect(try await plain.decoder(JSONDecoder()).value(BackendProbe.self).backend == "foundation")
        #expect(try await plain.decoding(.foundation()).value(BackendProbe.self).backend == "foundation")
        #expect(try await plain.decoder(JSONDecoder()).decoder(FastJSONDecoder()).value(BackendProbe.self).backend == "fast")

        var foundation = ChainConfiguration()
        foundation.decoding = .foundation()
        let request = foundation.url(unreachableURL).stub(stub).envelope(.errcode)
        #expect(try await request.value(BackendProbe.self).backend == "foundation")
        #expect(try await request.decoding(.fast()).value(BackendProbe.self).backend == "fast")

        var assigned = ChainConfiguration()
        assigned.decoding = .foundation(JSONDecoder())
        #expect(try await assigned.url(unreachableURL).stub(stub).value(BackendProbe.self).backend == "foundation")
        let initialised = ChainConfiguration(decoding: .foundation(JSONDecoder()))
        #expect(try await initialised.url(unreachableURL).stub(stub).value(BackendProbe.self).backend == "foundation")
        guard case .fast = ChainConfiguration().decoding else {
            Issue.record("the configuration's default is not FastJSON")
            return
        }
    }

    @Test("the error body uses the request's decoder")
    func errorBodyBackend() async throws {
        let stub = Stub(statusCode: 400, body: Data(#"{"error":"x"}"#.utf8))
        let base = ChainConfiguration().url(unreachableURL).stub(stub).errorBody(ProbeError.self)
        let fast = try #require(await base.callbackResult(User.self).failure)
        #expect((fast.underlyingError as? ProbeError)?.backend == "fast")
        let foundation = try #require(await base.decoding(.foundation()).callbackResult(User.self).failure)
        #expect((foundation.underlyingError as? ProbeError)?.backend == "foundation")
    }

    @Test("Request.defaults switches every request back to Foundation")
    func globalSwitch() async throws {
        let saved = Request.defaults.decoding
        defer { Request.updateDefaults { $0.decoding = saved } }
        let request = Request.url(unreachableURL).stub(Stub(body: Data("{}".utf8)))
        // Only the decoder changes, which no other test can observe: both give the same results.
        Request.updateDefaults { $0.decoding = .foundation() }
        #expect(try await request.value(BackendProbe.self).backend == "foundation")
        Request.updateDefaults { $0.decoding = .foundation(JSONDecoder()) }
        #expect(try await request.value(BackendProbe.self).backend == "foundation")
        #expect(try await request.decoder(FastJSONDecoder()).value(BackendProbe.self).backend == "fast")
        Request.updateDefaults { $0.decoding = .fast() }
        #expect(try await request.value(BackendProbe.self).backend == "fast")
    }

    @Test("a FastJSON decoder's strategies apply to the payload and its key path")
    func fastStrategies() async throws {
        struct Item: Decodable, Sendable, Equatable {
            let itemName: String
            @Lenient var itemCount: Int
        }
        var fast = FastJSONDecoder()
        fast.keyDecodingStrategy = .convertFromSnakeCase
        let snake = JSONDecoder()
        snake.keyDecodingStrategy = .convertFromSnakeCase
        let body = #"{"error_code":0,"data":{"the_item":{"item_name":"x","item_count":"3"}}}"#
        let envelope = Envelope(codePath: "errorCode", payloadPath: "data.theItem", successCodes: [0])
        let request = Request.url(unreachableURL).stub(Stub(body: Data(body.utf8))).envelope(envelope)
        let viaFast = try await request.decoder(fast).value(Item.self)
        let viaFoundation = try await request.decoder(snake).value(Item.self)
        #expect(viaFast == viaFoundation)
        #expect(viaFast.itemCount == 3)
    }
}


/// Which decoder made a value: FastJSON's decoder type lives in the `FastJSON` module.
private func backendName(of decoder: any Decoder) -> String {
    String(reflecting: type(of: decoder)).hasPrefix("FastJSON.") ? "fast" : "foundation"
}

private struct BackendProbe: Decodable, Sendable {
    let backend: String
    init(from decoder: any Decoder) throws { backend = backendName(of: decoder) }
}

private struct ProbeError: Decodable, Error {
    let backend: String
    init(from decoder: any Decoder) throws { backend = backendName(of: decoder) }
}
