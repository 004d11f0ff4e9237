import ChainModels
import Foundation
import HTTPFeatures
import Testing

private struct Child: Mappable {
    var id = 0
    init?(map: Map) {}
    mutating func mapping(map: Map) { id <- map["id"] }
}

private struct Holder: Mappable {
    var counts: [String: Int] = ["unchanged": 1]
    var children: [String: Child] = [:]
    var nested = 0
    init?(map: Map) {}
    mutating func mapping(map: Map) {
        counts <- map["counts"]
        children <- map["children"]
        nested <- map["a.b"]
    }
}

private enum Grade: Int, HandyJSONEnum { case low = 1, high = 2 }

private struct Graded: HandyJSON {
    var level: Grade = .high
    var optionalLevel: Grade? = .low
    var levels: [Grade] = []
}

/// A plain `Decodable` model: no declared defaults to stand in.
private struct PlainGraded: Decodable {
    var level: Grade
}

@Suite("ChainModels: duplicate keys and unknown raw values")
struct DuplicateKeysAndRawValuesTests {
    @Test("the last of duplicate keys wins at every step, and the values it replaces are not converted")
    func duplicateKeys() throws {
        let holder = try #require(Holder(JSONString: #"""
        {"counts": {"k": "x", "k": 2}, "children": {"c": {"id": 1}, "c": {"id": 2}},
         "a": {"b": 1}, "a": {"b": 3}}
        """#))
        #expect(holder.counts == ["k": 2])
        #expect(holder.children.mapValues(\.id) == ["c": 2])
        #expect(holder.nested == 3)
        // The kept value does not convert: the whole dictionary does not, as `as? [String: Int]`.
        let unconverted = try #require(Holder(JSONString: #"{"counts": {"k": 1, "k": "x"}}"#))
        #expect(unconverted.counts == ["unchanged": 1])
        // A replaced value of the wrong kind is never looked at.
        let replaced = try #require(Holder(JSONString: #"{"children": {"c": 5, "c": {"id": 4}}}"#))
        #expect(replaced.children.mapValues(\.id) == ["c": 4])
    }

    @Test("a HandyJSON designatedPath takes the last of duplicate keys and skips blank components")
    func designatedPathDuplicates() throws {
        struct Inner: HandyJSON { var n = 0 }
        let json = #"{"data": {"n": 1}, "data": {"obj": {"n": 9}}}"#
        #expect(Inner.deserialize(from: json, designatedPath: "data.obj")?.n == 9)
        #expect(Inner.deserialize(from: json, designatedPath: "data. .obj")?.n == 9)
        #expect(Inner.deserialize(from: json, designatedPath: "data.n") == nil)
        #expect(Inner.deserialize(from: "null") == nil)
        #expect(Inner.deserialize(from: "[{}]") == nil)
        #expect(Inner.deserialize(from: ["data": ["obj": ["n": 4]]], designatedPath: "data.obj")?.n == 4)
        #expect(Inner.deserialize(from: ["d": Date()]) == nil)
    }

    @Test("an unknown raw value keeps the declared default; a raw value of the wrong type still fails")
    func unknownRawValues() throws {
        let unknown = try #require(Graded.deserialize(from: #"{"level": 7, "optionalLevel": 9}"#))
        #expect(unknown.level == .high && unknown.optionalLevel == .low)
        let converted = try #require(Graded.deserialize(from: #"{"level": "1", "optionalLevel": 2}"#))
        #expect(converted.level == .low && converted.optionalLevel == .high)
        #expect(Graded.deserialize(from: #"{"level": {"a": 1}}"#) == nil)
        #expect(Graded.deserialize(from: #"{"level": [1]}"#) == nil)
        // An element of an array has no declared default of its own: the array fails.
        #expect(Graded.deserialize(from: #"{"levels": [1, 7]}"#) == nil)
        #expect(Graded.deserialize(from: #"{"levels": [1, 2]}"#)?.levels == [.low, .high])
    }

    @Test("without declared defaults, tolerant mode still rejects an unknown raw value, with both backends")
    func plainModelsReject() throws {
        for decoding in [JSONDecoding.tolerant(.fast()), .tolerant(.foundation())] {
            #expect(throws: DecodingError.self) {
                try decoding.decode(PlainGraded.self, from: Data(#"{"level": 7}"#.utf8))
            }
            #expect(try decoding.decode(PlainGraded.self, from: Data(#"{"level": "2"}"#.utf8)).level == .high)
        }
    }
}
