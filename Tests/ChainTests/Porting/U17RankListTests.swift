import ChainTesting
import Foundation
import Testing

/// u17's rank list as the source document shows it: two business codes, a payload three levels
/// down, and `argValue`/`rankingType` that are text as often as numbers — decoded strictly.
@Suite("Source documents: the u17 rank list", .timeLimit(.minutes(2)))
struct U17RankListTests {
    struct RankingModel: Codable, Sendable {
        var sortId: StringNumber
        var title: String
        var subTitle: String?
        var cover: String?
        var argName: String?
        var argValue: StringNumber
        var rankingType: StringNumber
    }

    static let body = #"""
    {"code":1,"data":{"stateCode":1,"message":"成功","returnData":{"rankinglist":[
      {"sortId":"1","title":"人气榜","subTitle":"最热门的漫画","cover":"http://image.example.com/1.jpg","argName":"sort","argValue":"23","rankingType":"月票值"},
      {"sortId":2,"title":"新作榜","subTitle":null,"cover":"http://image.example.com/2.jpg","argName":"sort","argValue":24,"rankingType":2}]}}}
    """#

    static let envelope = Envelope(codePath: "code", payloadPath: "data.returnData.rankinglist", successCodes: [1])
        .checking("data.stateCode", messagePath: "data.message", successCodes: [1])

    @Test("strict decoding keeps \"23\" and \"月票值\" as sent, and reads the numbers there are")
    func strictDecoding() async throws {
        let server = try MockServer()
        server.enqueue(.json(Self.body))
        let list = try await Request.url(server.url("/rank/list")).envelope(Self.envelope).value([RankingModel].self)
        #expect(list.map(\.title) == ["人气榜", "新作榜"])
        #expect(list[0].argValue.string == "23" && list[0].argValue.int == 23)
        #expect(list[0].rankingType.string == "月票值" && list[0].rankingType.int == nil)
        #expect(list[1].argValue.string == "24" && list[1].argValue.isNumber)
        #expect(list.map(\.sortId.int) == [1, 2])
        #expect(list[1].subTitle == nil)

        // What was decoded encodes back as it came: text stays text, numbers stay numbers.
        let encoded = String(decoding: try JSONEncoder().encode(list[0].rankingType), as: UTF8.self)
        #expect(encoded == #""月票值""#)
    }

    @Test("the second code is checked too: a failing stateCode is a business error naming its message")
    func secondCode() async throws {
        let server = try MockServer()
        server.enqueue(.json(#"{"code":1,"data":{"stateCode":0,"message":"维护中","returnData":null}}"#))
        let error = await #expect(throws: NetworkError.self) {
            try await Request.url(server.url("/rank/list")).envelope(Self.envelope).value([RankingModel].self)
        }
        #expect(error?.kind == .business(code: "0", message: "维护中"))
    }
}
