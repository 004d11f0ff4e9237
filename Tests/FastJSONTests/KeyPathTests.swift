import FastJSON
import Foundation
import Testing

/// Decoding a payload at a dotted key path straight from the bytes.
@Suite("Key path decoding")
struct KeyPathTests {
    struct Item: Codable, Equatable {
        var rank: Int
        var name: String
    }

    /// The envelope a Foundation user would have to declare to reach the same payload.
    struct Outer: Decodable, Equatable {
        struct DataPart: Decodable, Equatable {
            var returnData: ReturnData
        }

        struct ReturnData: Decodable, Equatable {
            var rankinglist: [Item]
        }

        var data: DataPart
    }

    static let document = #"""
        {"code":1,"data":{"stateCode":1,"message":"成功","returnData":{"rankinglist":[{"rank":1,"name":"a"},{"rank":2,"name":"b"}],"comics":null}}}
        """#

    @Test("A nested payload decodes without its envelope")
    func decodesPayload() throws {
        let items = try FastJSONDecoder().decode([Item].self, from: Data(Self.document.utf8), atKeyPath: "data.returnData.rankinglist")
        #expect(items == [Item(rank: 1, name: "a"), Item(rank: 2, name: "b")])
        let message = try FastJSONDecoder().decode(String.self, from: Data(Self.document.utf8), atKeyPath: "data.message")
        #expect(message == "成功")
        let whole = try FastJSONDecoder().decode(Outer.self, from: Data(Self.document.utf8), atKeyPath: "")
        #expect(whole.data.returnData.rankinglist.count == 2)
        let second = try FastJSONDecoder().decode(Item.self, from: Data(Self.document.utf8), atKeyPath: "data.returnData.rankinglist.1")
        #expect(second == Item(rank: 2, name: "b"))
    }

    @Test("null at the path decodes as null")
    func nullPayload() throws {
        let decoder = FastJSONDecoder()
        let data = Data(Self.document.utf8)
        #expect(try decoder.decode([Item]?.self, from: data, atKeyPath: "data.returnData.comics") == nil)
        #expect(throws: DecodingError.self) { try decoder.decode([Item].self, from: data, atKeyPath: "data.returnData.comics") }
        let outcome = DecodingOutcome { try decoder.decode([Item].self, from: data, atKeyPath: "data.returnData.comics") }
        #expect(outcome == .decodingError(
            kind: "valueNotFound(Array<Any>)", path: ["data", "returnData", "comics"],
            message: "Cannot get unkeyed decoding container -- found null value instead"))
    }

    @Test("A missing key is keyNotFound with the path of the object searched")
    func missingKey() {
        let outcome = DecodingOutcome {
            try FastJSONDecoder().decode([Item].self, from: Data(Self.document.utf8), atKeyPath: "data.returnData.missing.deeper")
        }
        #expect(outcome == .decodingError(
            kind: "keyNotFound(missing)", path: ["data", "returnData"],
            message: #"No value associated with key JSONCodingKey(stringValue: "missing", intValue: nil) ("missing")."#))
    }

    @Test("A step that is not an object is a type mismatch at that step")
    func wrongStep() {
        let data = Data(Self.document.utf8)
        let throughString = DecodingOutcome { try FastJSONDecoder().decode(Int.self, from: data, atKeyPath: "data.message.x") }
        #expect(throughString == .decodingError(
            kind: "typeMismatch(Dictionary<String, Any>)", path: ["data", "message"],
            message: "Expected to decode Dictionary<String, Any> but found a string instead."))
        let throughNull = DecodingOutcome { try FastJSONDecoder().decode(Int.self, from: data, atKeyPath: "data.returnData.comics.x") }
        #expect(throughNull == .decodingError(
            kind: "valueNotFound(Dictionary<String, Any>)", path: ["data", "returnData", "comics"],
            message: "Cannot get keyed decoding container -- found null value instead"))
        let pastEnd = DecodingOutcome { try FastJSONDecoder().decode(Item.self, from: data, atKeyPath: "data.returnData.rankinglist.5") }
        #expect(pastEnd == .decodingError(
            kind: "valueNotFound(Item)", path: ["data", "returnData", "rankinglist", "Index 5#5"],
            message: "Unkeyed container is at end."))
    }

    @Test("Errors inside the payload carry the path Foundation reports for the whole envelope", arguments: [
        #"{"data":{"returnData":{"rankinglist":[{"rank":1,"name":"a"},{"rank":"2","name":"b"}]}}}"#,
        #"{"data":{"returnData":{"rankinglist":[{"rank":1}]}}}"#,
        #"{"data":{"returnData":{"rankinglist":[null]}}}"#,
        #"{"data":{"returnData":{"rankinglist":{}}}}"#,
        #"{"data":{"returnData":{"rankinglist":[{"rank":1,"name":"a"}]}}}"#,
        #"{"data":{"returnData":{"rankinglist":[{"rank":1e400,"name":"a"}]}}}"#,
        #"{"data":{"returnData":{"rankinglist":[]}},"trailing":tru}"#,
    ])
    func payloadErrors(json: String) {
        let data = Data(json.utf8)
        let foundation = DecodingOutcome { try JSONDecoder().decode(Outer.self, from: data).data.returnData.rankinglist }
        let fast = DecodingOutcome { try FastJSONDecoder().decode([Item].self, from: data, atKeyPath: "data.returnData.rankinglist") }
        #expect(fast == foundation)
    }

    @Test("Keys match as written, first occurrence, with escapes decoded")
    func keyMatching() throws {
        let json = #"{"d\u0061ta":{"v":1},"data":{"v":2},"snake_key":{"v":3}}"#
        var decoder = FastJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode([String: Int].self, from: Data(json.utf8), atKeyPath: "data") == ["v": 1])
        #expect(try decoder.decode([String: Int].self, from: Data(json.utf8), atKeyPath: "snake_key") == ["v": 3])
        #expect(throws: DecodingError.self) { try decoder.decode([String: Int].self, from: Data(json.utf8), atKeyPath: "snakeKey") }
    }

    @Test("Malformed documents are dataCorrupted even where the path does not reach")
    func malformed() {
        let outcome = DecodingOutcome { try FastJSONDecoder().decode(Int.self, from: Data(#"{"a":1,"b":[}"#.utf8), atKeyPath: "a") }
        #expect(outcome == .decodingError(kind: "dataCorrupted", path: [], message: "The given data was not valid JSON."))
    }
}
