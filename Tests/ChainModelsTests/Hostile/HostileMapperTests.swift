import ChainModels
import Foundation
import Testing
import TestSupport

// Hostile inputs for the ObjectMapper layer, compared with what ObjectMapper does on
// `JSONSerialization`'s objects (`as?` casts, Sources/Map.swift's `valueFor`).

private struct HNumbers: Mappable {
    var int = -1
    var int8: Int8 = -1
    var int16: Int16 = -1
    var uint8: UInt8 = 9
    var int64: Int64 = -1
    var uint64: UInt64 = 9
    var double = -1.0
    var float: Float = -1
    var bool = false
    var optInt: Int? = 7
    var optBool: Bool? = true
    var ints: [Int] = []

    init?(map: Map) {}

    mutating func mapping(map: Map) {
        int <- map["int"]
        int8 <- map["int8"]
        int16 <- map["int16"]
        uint8 <- map["uint8"]
        int64 <- map["int64"]
        uint64 <- map["uint64"]
        double <- map["double"]
        float <- map["float"]
        bool <- map["bool"]
        optInt <- map["optInt"]
        optBool <- map["optBool"]
        ints <- map["ints"]
    }
}

private enum HLevel: String { case gold, silver }
private enum HRank: Int { case first = 1, second = 2 }

private struct HChild: Mappable {
    var id = 0
    var note: String?
    init?(map: Map) {
        // Rejects an object without an id, as ported models often do.
        guard map.JSON["id"] != nil else { return nil }
    }
    mutating func mapping(map: Map) {
        id <- map["id"]
        note <- map["note"]
    }
}

private final class HParent: Mappable {
    var name: String?
    var child: HChild?
    var children: [HChild] = []
    var byKey: [String: HChild] = [:]
    var level: HLevel = .silver
    var rank: HRank?
    var levels: [HLevel] = []
    var born: Date?
    var site: URL?
    var count: Int = 0
    var deep: String?

    required init?(map: Map) {}

    func mapping(map: Map) {
        name <- map["name"]
        child <- map["child"]
        children <- map["children"]
        byKey <- map["byKey"]
        level <- map["level"]
        rank <- map["rank"]
        levels <- map["levels"]
        born <- (map["born"], DateTransform())
        site <- (map["site"], URLTransform())
        count <- (map["count"], TransformOf<Int, String>(fromJSON: { $0.flatMap(Int.init) }, toJSON: { $0.map(String.init) }))
        deep <- map["meta.deep.value"]
    }
}

@Suite("Hostile: ObjectMapper mapping")
struct HostileMapperTests {
    private func numbers(_ json: String) throws -> HNumbers {
        try #require(HNumbers(JSONString: json))
    }

    @Test("Int from 1e300, -0.0, 2^63; UInt64 from -1 and 2^64; Float from 1e40; Double from 1e400")
    func outOfRangeNumbers() throws {
        let big = try numbers(#"{"int": 1e300, "optInt": 1e300, "double": 1e400, "float": 1e40}"#)
        #expect(big.int == -1)
        #expect(big.optInt == nil)
        #expect(big.double == -1)
        #expect(big.float == -1)
        #expect(try numbers(#"{"int": -0.0}"#).int == 0)
        let edge = try numbers(#"{"int": 9223372036854775808, "int64": 9223372036854775808, "uint64": 9223372036854775808}"#)
        #expect(edge.int == -1 && edge.int64 == -1)
        #expect(edge.uint64 == 9_223_372_036_854_775_808)
        #expect(try numbers(#"{"uint64": -1}"#).uint64 == 9)
        #expect(try numbers(#"{"uint64": 18446744073709551616}"#).uint64 == 9)
        #expect(try numbers(#"{"uint64": 18446744073709551615}"#).uint64 == UInt64.max)
        #expect(try numbers(#"{"int": 12.0}"#).int == 12)
        #expect(try numbers(#"{"int": 1.2e1}"#).int == 12)
        #expect(try numbers(#"{"int": 12.5}"#).int == -1)
        #expect(try numbers(#"{"float": 3.5}"#).float == 3.5)
    }

    @Test("Int8, Int16 and UInt8: overflow leaves the value, the bounds map")
    func smallIntegers() throws {
        let over = try numbers(#"{"int8": 128, "int16": -32769, "uint8": 256}"#)
        #expect(over.int8 == -1 && over.int16 == -1 && over.uint8 == 9)
        let bounds = try numbers(#"{"int8": -128, "int16": 32767, "uint8": 255}"#)
        #expect(bounds.int8 == -128 && bounds.int16 == 32767 && bounds.uint8 == 255)
        #expect(try numbers(#"{"uint8": -1}"#).uint8 == 9)
    }

    @Test("NaN-ish strings and Bool from 2, \"true\", \"1\" are not numbers or Booleans, as `as?` in ObjectMapper")
    func notNumbers() throws {
        let text = try numbers(#"{"int": "NaN", "double": "NaN", "float": "Infinity", "bool": "true", "optBool": "1"}"#)
        #expect(text.int == -1 && text.double == -1 && text.float == -1)
        #expect(text.bool == false)
        #expect(text.optBool == nil)
        #expect(try numbers(#"{"bool": 2}"#).bool == false)
        #expect(try numbers(#"{"optBool": 2}"#).optBool == nil)
        #expect(try numbers(#"{"bool": 1}"#).bool == true)
        #expect(try numbers(#"{"int": true}"#).int == 1)
        #expect(try numbers(#"{"ints": [1, "2", 3]}"#).ints == [])
    }

    @Test("a huge array of numbers and of models")
    func hugeArrays() throws {
        let count = 200_000
        let ints = (0..<count).map(String.init).joined(separator: ",")
        #expect(try numbers(#"{"ints": [\#(ints)]}"#).ints.count == count)
        let children = (0..<50_000).map { #"{"id": \#($0 + 1)}"# }.joined(separator: ",")
        let parent = try #require(HParent(JSONString: #"{"children": [\#(children)]}"#))
        #expect(parent.children.count == 50_000)
        #expect(parent.children.last?.id == 50_000)
    }

    private static func nested(_ levels: Int) -> String {
        String(repeating: #"{"a":"#, count: levels) + "5" + String(repeating: "}", count: levels)
    }

    @Test("a 1000-level key path over a 1000-level object, given as a dictionary, maps the leaf")
    func deepDictionary() throws {
        var object: [String: Any] = ["a": 5]
        for _ in 1..<1000 { object = ["a": object] }
        let path = Array(repeating: "a", count: 1000).joined(separator: ".")
        let model = DeepModel.mapped(JSON: object, path: path)
        // ObjectMapper walks the dictionary as it is: the leaf is there.
        #expect(model?.value == 5)
    }

    @Test("a 1000-level key path never crashes: over JSON text of 1000 levels, and over a shallow object")
    func deepText() throws {
        let path = Array(repeating: "a", count: 1000).joined(separator: ".")
        // Text this deep is past FastJSON's depth limit (512): the model is nil, not a crash.
        #expect(DeepModel.mapped(JSONString: Self.nested(1000), path: path) == nil)
        let shallow = try #require(DeepModel.mapped(JSONString: Self.nested(3), path: path))
        #expect(shallow.value == -1 && shallow.present == false)
        let inRange = try #require(DeepModel.mapped(JSONString: Self.nested(400), path: Array(repeating: "a", count: 400).joined(separator: ".")))
        #expect(inRange.value == 5 && inRange.present)
    }

    @Test("keys with dots: nested by default, nested: false, custom delimiters, an empty delimiter")
    func dottedKeys() throws {
        let json = #"{"a.b": 1, "a": {"b": 2}, "a->b": 3, "": 4, "x": {"": {"": 6}}}"#
        #expect(DeepModel.mapped(JSONString: json, path: "a.b")?.value == 2)
        #expect(DeepModel.mapped(JSONString: json, path: "a.b", nested: false)?.value == 1)
        #expect(DeepModel.mapped(JSONString: json, path: "a->b", delimiter: "->")?.value == 2)
        #expect(DeepModel.mapped(JSONString: json, path: "a->b", nested: false, delimiter: "->")?.value == 3)
        #expect(DeepModel.mapped(JSONString: json, path: "a.b", delimiter: "->")?.value == 1)
        #expect(DeepModel.mapped(JSONString: json, path: "a.b", nested: true, delimiter: "")?.value == 1)
        #expect(DeepModel.mapped(JSONString: json, path: "")?.value == 4)
        #expect(DeepModel.mapped(JSONString: json, path: "x..")?.value == 6)
    }

    @Test("unicode and escaped keys")
    func unicodeKeys() throws {
        let json = #"{"名字": 1, "k\"q": 2, "\ud83d\ude00": 3, "a\u002Eb": 4, "tab\tkey": 5, "cafe\u0301": 6}"#
        #expect(DeepModel.mapped(JSONString: json, path: "名字")?.value == 1)
        #expect(DeepModel.mapped(JSONString: json, path: "k\"q")?.value == 2)
        #expect(DeepModel.mapped(JSONString: json, path: "😀")?.value == 3)
        #expect(DeepModel.mapped(JSONString: json, path: "a.b", nested: false)?.value == 4)
        #expect(DeepModel.mapped(JSONString: json, path: "tab\tkey")?.value == 5)
        // Swift's String equality (and so ObjectMapper's `[String: Any]` lookup) is canonical:
        // "café" precomposed finds the decomposed key.
        #expect(DeepModel.mapped(JSONString: json, path: "caf\u{E9}")?.value == 6)
    }

    @Test("array index paths: in range, out of range, negative, non-numeric, huge, leading zero")
    func indexPaths() throws {
        let json = #"{"list": [{"n": 10}, {"n": 11}, null]}"#
        func at(_ path: String) -> DeepModel? { DeepModel.mapped(JSONString: json, path: path) }
        #expect(at("list.1.n")?.value == 11)
        #expect(at("list.01.n")?.value == 11)
        for missing in ["list.3.n", "list.-1.n", "list.x.n", "list.99999999999999999999.n", "list.1.n.z", "list.0.n.0"] {
            let model = try #require(at(missing))
            #expect(model.present == false, "\(missing)")
            #expect(model.value == -1, "\(missing)")
        }
        // A null on the way is present with no value (ObjectMapper's valueFor), so an optional becomes nil.
        let throughNull = try #require(at("list.2.n"))
        #expect(throughNull.present && throughNull.optional == nil)
    }

    @Test("duplicate keys: the scalar read and map.JSON agree, last one wins as in JSONSerialization")
    func duplicateKeys() throws {
        let model = try #require(DeepModel.mapped(JSONString: #"{"a": 1, "a": 2}"#, path: "a"))
        #expect(model.jsonValue == 2)
        #expect(model.value == 2)
    }

    @Test("<- round trip: nested model, arrays and dictionaries of models, enums, transforms, key paths")
    func roundTrip() throws {
        let text = #"""
        {"name": "李雷 \"x\"", "child": {"id": 1, "note": "n"}, "children": [{"id": 2}, {"id": 3, "note": "ü"}],
         "byKey": {"k": {"id": 4}}, "level": "gold", "rank": 2, "levels": ["silver", "gold"], "born": 1714552200.5,
         "site": "https://example.com/a?b=c", "count": "12", "meta": {"deep": {"value": "v"}}}
        """#
        let parent = try #require(HParent(JSONString: text))
        let written = try #require(parent.toJSONString())
        let original = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let again = try JSONSerialization.jsonObject(with: Data(written.utf8))
        #expect(isSameJSONObject(original, again), "\(written)")
    }

    @Test("shouldIncludeNilValues writes nil optionals as null at every depth; false leaves them out")
    func nilValues() throws {
        let parent = try #require(HParent(JSONString: #"{"child": {"id": 1}}"#))
        let withNils = Mapper<HParent>(shouldIncludeNilValues: true).toJSON(parent)
        #expect(withNils["name"] is NSNull)
        #expect(withNils["rank"] is NSNull)
        #expect(withNils["born"] is NSNull)
        #expect((withNils["child"] as? [String: Any])?["note"] is NSNull)
        #expect((withNils["meta"] as? [String: Any]).flatMap { ($0["deep"] as? [String: Any])?["value"] } is NSNull)
        let without = parent.toJSON()
        #expect(without["name"] == nil && without["rank"] == nil && without["born"] == nil && without["meta"] == nil)
        #expect((without["child"] as? [String: Any])?["note"] == nil)
        #expect((without["child"] as? [String: Any])?["id"] as? Int == 1)
    }

    @Test("enums: an unknown raw value leaves a case, makes an optional nil, is dropped from an array")
    func unknownEnums() throws {
        let parent = try #require(HParent(JSONString: #"{"level": "platinum", "rank": 9, "levels": ["gold", "x", 1]}"#))
        #expect(parent.level == .silver)
        #expect(parent.rank == nil)
        #expect(parent.levels == [.gold])
        let typed = try #require(HParent(JSONString: #"{"level": 1, "rank": "1"}"#))
        #expect(typed.level == .silver && typed.rank == nil)
    }

    @Test("transforms get null and wrong types without crashing")
    func transformsWrongTypes() throws {
        let parent = try #require(HParent(JSONString: #"{"born": "abc", "site": 5, "count": 12}"#))
        #expect(parent.born == nil && parent.site == nil && parent.count == 0)
        let nulls = try #require(HParent(JSONString: #"{"born": null, "site": null, "count": null}"#))
        #expect(nulls.born == nil && nulls.site == nil && nulls.count == 0)
        #expect(DateTransform().transformFromJSON("NaN") == nil)
        #expect(DateTransform().transformFromJSON(Double.infinity) == nil)
        #expect(DateTransform().transformFromJSON("1714552200") == Date(timeIntervalSince1970: 1_714_552_200))
        let wide = TransformOf<Int, Int>(fromJSON: { $0 }, toJSON: { $0 })
        #expect(wide.transformFromJSON(NSNumber(value: Int.max)) == Int.max)
        #expect(wide.transformFromJSON(NSNumber(value: 12.5)) == nil)
        #expect(wide.transformFromJSON("12") == nil)
    }

    @Test("DateTransform in milliseconds, both ways")
    func milliseconds() throws {
        let transform = DateTransform(unit: .milliseconds)
        let date = try #require(transform.transformFromJSON(NSNumber(value: 1_714_552_200_123 as Int64)))
        #expect(abs(date.timeIntervalSince1970 - 1_714_552_200.123) < 0.000_5)
        let back = try #require(transform.transformToJSON(date))
        #expect(abs(back - 1_714_552_200_123) < 0.5)
    }

    @Test("ISO8601DateTransform: Z, offsets, fractional seconds (rejected, as ObjectMapper's format), garbage")
    func iso8601() throws {
        let transform = ISO8601DateTransform()
        let instant = Date(timeIntervalSince1970: 1_714_552_200)
        #expect(transform.transformFromJSON("2024-05-01T08:30:00Z") == instant)
        #expect(transform.transformFromJSON("2024-05-01T16:30:00+08:00") == instant)
        #expect(transform.transformFromJSON("2024-05-01T03:30:00-05:00") == instant)
        #expect(transform.transformFromJSON("2024-05-01T08:30:00.123Z") == nil)
        #expect(transform.transformFromJSON("2024-05-01") == nil)
        #expect(transform.transformFromJSON(1_714_552_200) == nil)
        #expect(transform.transformToJSON(instant) == "2024-05-01T08:30:00Z")
    }

    @Test("URLTransform: spaces and unicode are encoded once; an encoded URL is not encoded again")
    func urls() throws {
        let transform = URLTransform()
        #expect(transform.transformFromJSON("https://example.com/a b?q=x y")?.absoluteString == "https://example.com/a%20b?q=x%20y")
        #expect(transform.transformFromJSON("https://example.com/路径?q=值")?.absoluteString
                == "https://example.com/%E8%B7%AF%E5%BE%84?q=%E5%80%BC")
        #expect(transform.transformFromJSON("https://example.com/x%20y")?.absoluteString == "https://example.com/x%20y")
        #expect(transform.transformFromJSON(nil) == nil)
    }

    @Test("init?(map:) returning nil drops elements; a top-level array of non-objects is nil")
    func rejectedAndNonObjects() throws {
        let parent = try #require(HParent(JSONString: #"{"children": [{"id": 1}, {"note": "no id"}, {"id": 3}], "byKey": {"a": {"id": 1}, "b": {}}}"#))
        #expect(parent.children.map(\.id) == [1, 3])
        #expect(parent.byKey.keys.sorted() == ["a"])
        #expect(Mapper<HChild>().mapArray(JSONString: #"[{"id": 1}, {}, {"id": 2}]"#)?.map(\.id) == [1, 2])
        #expect(Mapper<HChild>().mapArray(JSONString: "[1, 2, 3]") == nil)
        #expect(Mapper<HChild>().mapArray(JSONString: #"[{"id": 1}, null]"#) == nil)
        #expect(Mapper<HChild>().mapArray(JSONString: "[]")?.isEmpty == true)
        for notObject in ["[{\"id\": 1}]", "null", "", "42", "\"x\"", "{\"id\": 1"] {
            #expect(Mapper<HChild>().map(JSONString: notObject) == nil, "\(notObject)")
        }
        // A children value of the wrong kind leaves the array as it was.
        let wrong = try #require(HParent(JSONString: #"{"children": [{"id": 1}, 2]}"#))
        #expect(wrong.children.isEmpty)
    }
}

/// Keeps the reading map, so a test can select any key with any options after parsing.
private struct Capture: Mappable {
    let map: Map
    init?(map: Map) { self.map = map }
    mutating func mapping(map: Map) {}
}

/// What the map saw at a key.
private struct DeepModel {
    var value = -1
    var optional: Int? = -1
    var present = false
    var jsonValue: Int?

    static func read(_ capture: Capture?, _ path: String, nested: Bool?, delimiter: String) -> DeepModel? {
        guard let map = capture?.map else { return nil }
        var model = DeepModel()
        let selected = nested.map { map[path, nested: $0, delimiter: delimiter] } ?? map[path, delimiter: delimiter]
        model.present = selected.isKeyPresent
        model.value <- selected
        model.optional <- selected
        model.jsonValue = map.JSON[path] as? Int
        return model
    }

    static func mapped(JSONString: String, path: String, nested: Bool? = nil, delimiter: String = ".") -> DeepModel? {
        read(Mapper<Capture>().map(JSONString: JSONString), path, nested: nested, delimiter: delimiter)
    }

    static func mapped(JSON: [String: Any], path: String) -> DeepModel? {
        read(Mapper<Capture>().map(JSON: JSON), path, nested: nil, delimiter: ".")
    }
}
