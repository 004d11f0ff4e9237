import Chain
import Foundation
import Testing

/// Business envelopes against the sample server, and the envelope logic without I/O.
@Suite("Envelopes", .timeLimit(.minutes(2)))
struct EnvelopeTests {
    static let ranking = Envelope(codePath: "data.stateCode", messagePath: "data.message",
                                  payloadPath: "data.returnData.rankinglist", successCodes: [1])

    @Test func errcodeEnvelopeUnwrapsTheUser() async throws {
        let user = try await Request.url(try TestServer.url("/envelope/user/101")).envelope(.errcode).value(User.self)
        #expect(user.name == "wiki")
    }

    @Test func numericBusinessCodeBecomesABusinessError() async throws {
        let result = await Request.url(try TestServer.url("/envelope/fail")).envelope(.errcode).callbackResult(User.self)
        let error = try #require(result.failure)
        #expect(error.kind == .business(code: "40001", message: "invalid token"))
        #expect(error.response?.statusCode == 200)
        #expect(error.message.contains("invalid token"))
    }

    @Test func stringBusinessCodeBecomesTheSameBusinessError() async throws {
        let result = await Request.url(try TestServer.url("/envelope/fail-string-code")).envelope(.errcode)
            .callbackVoidResult()
        #expect(result.failure?.kind == .business(code: "40001", message: "invalid token"))
    }

    @Test func unknownUserIsABusinessError() async throws {
        let result = await Request.url(try TestServer.url("/envelope/user/999")).envelope(.errcode).callbackResult(User.self)
        #expect(result.failure?.kind == .business(code: "40004", message: "user not found"))
    }

    @Test func resultEnvelopeAsVoidAndAsAModel() async throws {
        let request = Request.url(try TestServer.url("/envelope/result")).envelope(.errcode)
        try await request.response()
        #expect(try await request.value(ResultPayload.self) == ResultPayload(result: "1"))
        let posted = try await request.method(.post).value(ResultPayload.self)
        #expect(posted.result == "1")
    }

    @Test func nestedRankingEnvelopeWithLenientFields() async throws {
        let items = try await Request.url(try TestServer.url("/rank/list")).envelope(Self.ranking).value([RankItem].self)
        #expect(items.map(\.argValue) == [1, 2, 3, 4])
        #expect(items.map(\.rankingType) == [1, 2, 3, 4])
        #expect(items.first?.title == "畅销榜")
    }

    @Test func nestedRankingFailureCarriesTheChineseMessage() async throws {
        let result = await Request.url(try TestServer.url("/rank/fail")).envelope(Self.ranking).callbackResult([RankItem].self)
        #expect(result.failure?.kind == .business(code: "0", message: "参数错误"))
    }

    @Test func jsonWithAnEnvelopeIsThePayload() async throws {
        let payload = try await Request.url(try TestServer.url("/rank/list")).envelope(Self.ranking).json()
        #expect((payload as? [Any])?.count == 4)
    }

    @Test func envelopeFromTheConfigurationAndTurnedOffPerRequest() async throws {
        var configuration = try TestServer.configuration()
        configuration.envelope = .errcode
        let user = try await configuration.url("/envelope/user/102").value(User.self)
        #expect(user.name == "alice")
        let plain = try await configuration.url("/user/103").envelope(nil).value(User.self)
        #expect(plain.name == "bob")
    }

    @Test func nullPayloadIsSuccessForVoidAndAFailureNamingTheKeyForAModel() async throws {
        let stub = Stub(body: Data(#"{"errcode":0,"errmsg":"ok","data":null}"#.utf8))
        let request = Request.url(unreachableURL).stub(stub).envelope(.errcode)
        try await request.response()
        let result = await request.callbackResult(User.self)
        #expect(result.failure?.kind == .decodingFailed)
        #expect(result.failure?.codingPath == "data")
        let optional = try await request.value(User?.self)
        #expect(optional == nil)
    }

    @Test func missingPayloadIsSuccessForVoidAndAFailureNamingTheKeyForAModel() async throws {
        let stub = Stub(body: Data(#"{"code":1,"data":{"stateCode":1,"message":"成功"}}"#.utf8))
        let request = Request.url(unreachableURL).stub(stub).envelope(Self.ranking)
        try await request.response()
        let result = await request.callbackResult([RankItem].self)
        let error = try #require(result.failure)
        #expect(error.kind == .decodingFailed)
        #expect(error.codingPath == "data.returnData")
        let missing = await request.envelope(Self.ranking.payload(at: "data.returnData.rankinglist"))
            .stub(Stub(body: Data(#"{"code":1,"data":{"stateCode":1,"returnData":{}}}"#.utf8)))
            .callbackResult([RankItem].self)
        #expect(missing.failure?.codingPath == "data.returnData.rankinglist")
    }

    @Test func businessErrorIsNeverCached() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = try TestServer.configuration()
        configuration.cache = ResponseCache(directory: directory)
        configuration.envelope = .errcode
        let failing = await configuration.url("/envelope/fail").cache(.networkOnly).callbackVoidResult()
        #expect(failing.failure?.kind == .business(code: "40001", message: "invalid token"))
        let stored = await configuration.url("/envelope/fail").cache(.cacheOnly).callbackVoidResult()
        #expect(stored.failure?.kind == .cacheMiss)
        // A success under the same settings is stored, so the miss above is the envelope's doing.
        try await configuration.url("/envelope/result").cache(.networkOnly).response()
        let hit = await configuration.url("/envelope/result").cache(.cacheOnly).delivery(ResultPayload.self)
        #expect(hit.value == ResultPayload(result: "1"))
        #expect(hit.source == .cache)
    }

    // MARK: Without I/O

    @Test(arguments: [#"{"errcode":0}"#, #"{"errcode":"0"}"#, #"{"errcode":0.0}"#, #"{"errcode":" 00 "}"#])
    func successCodeInEveryForm(body: String) throws {
        try Envelope.errcode.check(makeResponse(body))
    }

    @Test func headerReadsNestedCodeAndMessage() throws {
        let header = try Self.ranking.header(of: makeResponse(#"{"code":1,"data":{"stateCode":"0","message":"参数错误"}}"#))
        #expect(header.code == "0")
        #expect(header.message == "参数错误")
    }

    @Test func missingCodeIsADecodingFailureNamingThePath() throws {
        let error = #expect(throws: NetworkError.self) {
            try Self.ranking.check(makeResponse(#"{"code":1,"data":{"message":"x"}}"#))
        }
        #expect(error?.kind == .decodingFailed)
        #expect(error?.codingPath == "data.stateCode")
    }

    @Test(arguments: ["<html>oops</html>", "", "[1,2]"])
    func nonEnvelopeBodiesAreDecodingFailures(body: String) throws {
        let error = #expect(throws: NetworkError.self) { try Envelope.errcode.check(makeResponse(body)) }
        #expect(error?.kind == .decodingFailed)
    }

    @Test func stringSuccessCodesAndMissingMessage() throws {
        let envelope = Envelope(codePath: "status", payloadPath: "result", successCodes: ["OK"])
        try envelope.check(makeResponse(#"{"status":"OK","result":[1]}"#))
        let error = #expect(throws: NetworkError.self) { try envelope.check(makeResponse(#"{"status":"DENIED"}"#)) }
        #expect(error?.kind == .business(code: "DENIED", message: ""))
        #expect(try envelope.decodePayload([Int].self, from: makeResponse(#"{"status":"OK","result":[1]}"#)) == [1])
    }

    @Test func payloadDecodingUsesTheGivenDecoder() throws {
        struct Item: Decodable { let itemName: String }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let envelope = Envelope(codePath: "code", payloadPath: "data.item", successCodes: [0])
        let item = try envelope.decodePayload(Item.self, from: makeResponse(#"{"code":0,"data":{"item":{"item_name":"x"}}}"#),
                                              decoder: decoder)
        #expect(item.itemName == "x")
    }
}
