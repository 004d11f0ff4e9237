import ChainModels
import FastJSON
import Foundation
import Testing

@Suite("ObjectMapper mapping")
struct MapperTests {
    @Test("the source document's User decodes its JSON")
    func sourceUser() throws {
        let json = #"{"userId": 101, "name": "Ada", "avatar": "https://x/a.png", "vip": true, "birthday": 946684800}"#
        let user = try #require(User(JSONString: json))
        #expect(user.userId == 101)
        #expect(user.name == "Ada")
        #expect(user.avatar == "https://x/a.png")
        #expect(user.vip)
        #expect(user.birthday == Date(timeIntervalSince1970: 946_684_800))
        let written = user.toJSON()
        #expect(written["userId"] as? Int == 101)
        #expect(written["birthday"] as? Double == 946_684_800)
    }

    @Test("scalars of every type, and a wrong type leaves a non-optional unchanged")
    func scalars() throws {
        let good = try #require(Mapper<Scalars>().map(JSONString: """
            {"int": 12.0, "int64": 9007199254740993, "uint64": 18446744073709551615, "double": 1, "float": 0.5,
             "bool": 1, "string": "héllo 👋", "optionalInt": 3, "optionalString": "x", "unwrapped": 5,
             "ints": [1, 2, 3], "names": {"a": "b"}, "any": {"k": [1, "two", null]}}
            """))
        #expect(good.int == 12)
        #expect(good.int64 == 9_007_199_254_740_993)
        #expect(good.uint64 == UInt64.max)
        #expect(good.double == 1)
        #expect(good.float == 0.5)
        #expect(good.bool)
        #expect(good.string == "héllo 👋")
        #expect(good.optionalInt == 3)
        #expect(good.unwrapped == 5)
        #expect(good.ints == [1, 2, 3])
        #expect(good.names == ["a": "b"])
        #expect((good.any["k"] as? [Any])?.count == 3)

        let wrong = try #require(Mapper<Scalars>().map(JSONString: """
            {"int": "12", "int64": 12.5, "uint64": -1, "double": "1.5", "bool": 2, "string": 5,
             "optionalInt": "3", "ints": [1, "2"], "names": {"a": 1}}
            """))
        #expect(wrong.int == -1)
        #expect(wrong.int64 == -1)
        #expect(wrong.uint64 == 0)
        #expect(wrong.double == -1)
        #expect(!wrong.bool)
        #expect(wrong.string == "unset")
        #expect(wrong.optionalInt == nil)
        #expect(wrong.ints.isEmpty)
        #expect(wrong.names.isEmpty)
    }

    @Test("missing keys leave values unchanged; null clears optionals only")
    func missingAndNull() throws {
        let missing = try #require(Mapper<Scalars>().map(JSONString: "{}"))
        #expect(missing.int == -1 && missing.optionalInt == 7 && missing.optionalString == "unset")
        let null = try #require(Mapper<Scalars>().map(JSONString: #"{"int": null, "optionalInt": null, "optionalString": null}"#))
        #expect(null.int == -1)
        #expect(null.optionalInt == nil)
        #expect(null.optionalString == nil)
    }

    @Test("huge numbers: beyond Int64 stays unchanged, Double reads the nearest value")
    func hugeNumbers() throws {
        let scalars = try #require(Mapper<Scalars>().map(JSONString: #"{"int": 1e30, "int64": 99999999999999999999, "double": 1e300}"#))
        #expect(scalars.int == -1)
        #expect(scalars.int64 == -1)
        #expect(scalars.double == 1e300)
        #expect(Mapper<Scalars>().map(JSONString: #"{"float": 1e300}"#)?.float == -1)
    }

    @Test("nested models, arrays with a rejected element, dictionaries, enums, key paths and transforms")
    func nested() throws {
        let json = """
            {"owner": {"id": 1, "label": "me"}, "main": {"id": 2}, "tags": [{"id": 3}, {"label": "no id"}, {"id": 4}],
             "optionalTags": [{"id": 5}, 6], "byName": {"x": {"id": 7}, "y": {}}, "level": "gold",
             "optionalLevel": "bronze", "ranks": [1, 3, 2], "address": {"city": {"name": "Zürich"}},
             "a.b": "literal", "items": [{"id": 9}], "homepage": "https://example.com/a b",
             "updated": "2024-05-01T08:30:00+02:00", "count": "41"}
            """
        let profile = try #require(Profile(JSONString: json))
        #expect(profile.owner?.label == "me")
        #expect(profile.main.id == 2)
        #expect(profile.tags.map(\.id) == [3, 4])
        #expect(profile.optionalTags == nil)
        #expect(profile.byName.mapValues(\.id) == ["x": 7])
        #expect(profile.level == .gold)
        #expect(profile.optionalLevel == nil)
        #expect(profile.ranks == [.first, .second])
        #expect(profile.city == "Zürich")
        #expect(profile.literalDotted == "literal")
        #expect(profile.firstItem == 9)
        #expect(profile.homepage?.absoluteString == "https://example.com/a%20b")
        #expect(profile.updated == Date(timeIntervalSince1970: 1_714_545_000))
        #expect(profile.count == 41)

        let written = profile.toJSON()
        #expect((written["owner"] as? [String: Any])?["label"] as? String == "me")
        #expect((written["tags"] as? [[String: Any]])?.count == 2)
        #expect(written["level"] as? String == "gold")
        #expect(written["ranks"] as? [Int] == [1, 2])
        #expect(((written["address"] as? [String: Any])?["city"] as? [String: Any])?["name"] as? String == "Zürich")
        #expect(written["a.b"] as? String == "literal")
        #expect(written["updated"] as? String == "2024-05-01T06:30:00Z")
        #expect(written["count"] as? String == "41")
        #expect(written["optionalLevel"] == nil)
        let text = try #require(profile.toJSONString())
        let again = try #require(Profile(JSONString: text))
        #expect(again.city == "Zürich" && again.tags.map(\.id) == [3, 4] && again.count == 41)
    }

    @Test("null inside a key path is present, so it clears an optional")
    func nullOnThePath() throws {
        let profile = try #require(Profile(JSONString: #"{"address": {"city": null}}"#))
        #expect(profile.city == nil)
        let kept = try #require(Mapper<Scalars>().map(JSONString: #"{"int": {"x": 1}}"#))
        #expect(kept.int == -1)
    }

    @Test("top levels that are not an object, and malformed JSON, give nil")
    func badTopLevel() {
        #expect(Mapper<Tag>().map(JSONString: "[1]") == nil)
        #expect(Mapper<Tag>().map(JSONString: "{\"id\": ") == nil)
        #expect(Mapper<Tag>().map(JSONString: "") == nil)
        #expect(Mapper<Tag>().map(JSONString: #"{"label": "rejected"}"#) == nil)
        #expect(Mapper<Tag>().mapArray(JSONString: #"{"id": 1}"#) == nil)
        #expect(Mapper<Tag>().mapArray(JSONString: #"[{"id": 1}, 2]"#) == nil)
        #expect(Mapper<Tag>().mapArray(JSONString: #"[{"id": 1}, {}]"#)?.map(\.id) == [1])
    }

    @Test("map(JSON:), mapArray(JSONArray:), Mapper().toJSON and nil values")
    func foundationEntryPoints() throws {
        let tag = try #require(Mapper<Tag>().map(JSON: ["id": 3, "label": "three"]))
        #expect(tag.id == 3 && tag.label == "three")
        #expect(Tag(JSON: ["label": "x"]) == nil)
        #expect(Mapper<Tag>().mapArray(JSONArray: [["id": 1], ["id": 2], [:]]).map(\.id) == [1, 2])
        #expect(Mapper<Tag>().map(JSON: ["id": Date()]) == nil)
        #expect(Mapper().toJSON(Tag(id: 1, label: nil)).keys.sorted() == ["id"])
        let withNulls = Mapper<Tag>(shouldIncludeNilValues: true).toJSON(Tag(id: 1, label: nil))
        #expect(withNulls["label"] is NSNull)
        let text = try #require([Tag(id: 1, label: "ü")].toJSONString())
        #expect(Mapper<Tag>().mapArray(JSONString: text)?.first?.label == "ü")
        #expect(Tag(id: 2, label: nil).toJSONString(prettyPrint: true)?.contains("\n") == true)
    }

    @Test("map.JSON, map.value() and the mapping type")
    func mapAccessors() throws {
        struct Probe: Mappable {
            var keys: [String] = []
            var type: MappingType?
            var raw: Int?
            init?(map: Map) {}
            mutating func mapping(map: Map) {
                type = map.mappingType
                if map.mappingType == .fromJSON {
                    keys = map.JSON.keys.sorted()
                    raw = map["n"].value()
                }
            }
        }
        let probe = try #require(Mapper<Probe>().map(JSONString: #"{"n": 4, "s": "x"}"#))
        #expect(probe.keys == ["n", "s"])
        #expect(probe.raw == 4)
        #expect(probe.type == .fromJSON)
    }

    @Test("DateTransform reads numbers and numeric strings, in seconds or milliseconds")
    func dates() {
        #expect(DateTransform().transformFromJSON("12.5") == Date(timeIntervalSince1970: 12.5))
        #expect(DateTransform().transformFromJSON("soon") == nil)
        #expect(DateTransform(unit: .milliseconds).transformFromJSON(NSNumber(value: 1500)) == Date(timeIntervalSince1970: 1.5))
        #expect(DateTransform(unit: .milliseconds).transformToJSON(Date(timeIntervalSince1970: 2)) == 2000)
        #expect(ISO8601DateTransform().transformFromJSON("not a date") == nil)
    }
}
