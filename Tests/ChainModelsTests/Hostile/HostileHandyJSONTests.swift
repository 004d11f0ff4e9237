import ChainModels
import Foundation
import Testing

private struct HInner: HandyJSON, Equatable {
    var name: String = "anon"
    var n: Int = 3
}

private enum HColor: String, HandyJSONEnum { case red, blue }

private struct HOuter: HandyJSON, Equatable {
    var count: Int = 5
    var flag: Bool = true
    var title: String = "untitled"
    var list: [HInner] = []
    var opt: HInner?
    var dict: [String: HInner] = [:]
    var color: HColor = .red
}

/// A class model, as HandyJSON users write many.
private final class HClassModel: HandyJSON {
    var id: Int = 0
    var name: String = "x"
    var inner: HInner?
    required init() {}
}

@Suite("Hostile: HandyJSON models")
struct HostileHandyJSONTests {
    @Test("missing and null keep declared defaults at every depth: arrays, optionals, dictionaries")
    func defaults() throws {
        let outer = try #require(HOuter.deserialize(from: #"{"count": null, "title": null, "list": [{}, {"n": "4", "name": null}], "opt": {}, "dict": {"k": {"name": null}}}"#))
        #expect(outer == HOuter(count: 5, flag: true, title: "untitled",
                                list: [HInner(name: "anon", n: 3), HInner(name: "anon", n: 4)],
                                opt: HInner(name: "anon", n: 3), dict: ["k": HInner(name: "anon", n: 3)], color: .red))
        #expect(HOuter.deserialize(from: "{}") == HOuter())
    }

    @Test("Bool from \"true\", \"1\", 1 and their false forms; numbers from strings")
    func conversions() throws {
        for (text, expected) in [(#""true""#, true), (#""1""#, true), ("1", true), (#""false""#, false), (#""0""#, false), ("0", false)] {
            #expect(HOuter.deserialize(from: #"{"flag": \#(text)}"#)?.flag == expected, "\(text)")
        }
        #expect(HOuter.deserialize(from: #"{"count": "42", "title": 7}"#).map { [$0.count == 42, $0.title == "7"] } == [true, true])
    }

    @Test("values that cannot convert give nil, never a crash: 1e300, 2^63, NaN text, an object for a String")
    func hostileValues() throws {
        for bad in ["1e300", "9223372036854775808", #""9223372036854775808""#, #""NaN""#, "3.7", #"{"a": 1}"#] {
            #expect(HOuter.deserialize(from: #"{"count": \#(bad)}"#) == nil, "\(bad)")
        }
        #expect(HOuter.deserialize(from: #"{"title": {"a": 1}}"#) == nil)
        #expect(HOuter.deserialize(from: #"{"count": -0.0}"#)?.count == 0)
    }

    @Test("an enum with a known raw value maps; an unknown one keeps the default, as HandyJSON")
    func enums() throws {
        #expect(HOuter.deserialize(from: #"{"color": "blue"}"#)?.color == .blue)
        #expect(HOuter.deserialize(from: #"{"color": null}"#)?.color == .red)
        #expect(HOuter.deserialize(from: #"{"color": "green", "count": 8}"#)?.count == 8)
    }

    @Test("designatedPath: missing, a scalar, an array index, out of range")
    func designatedPaths() throws {
        let json = #"{"data": {"list": [{"n": 1}, {"n": 2}], "scalar": 5, "obj": {"n": 9}}}"#
        #expect(HInner.deserialize(from: json, designatedPath: "data.obj")?.n == 9)
        #expect(HInner.deserialize(from: json, designatedPath: "data.nope") == nil)
        #expect(HInner.deserialize(from: json, designatedPath: "data.scalar") == nil)
        // HandyJSON's getInnerObject walks dictionaries only: an index is a missing path.
        #expect(HInner.deserialize(from: json, designatedPath: "data.list.1") == nil)
        #expect(HInner.deserialize(from: json, designatedPath: "data.list.2") == nil)
        #expect([HInner].deserialize(from: json, designatedPath: "data.list")?.map { $0?.n } == [1, 2])
        #expect([HInner].deserialize(from: json, designatedPath: "data.obj") == nil)
        #expect([HInner].deserialize(from: json, designatedPath: "data.missing") == nil)
    }

    @Test("an array with non-objects: each bad element is nil, the others decode")
    func mixedArray() throws {
        let list = try #require([HInner].deserialize(from: #"[{"n": 1}, 5, null, "x", {}]"#))
        #expect(list == [HInner(name: "anon", n: 1), nil, nil, nil, HInner()])
        #expect([HInner].deserialize(from: "[1, 2]") == [nil, nil])
        #expect([HInner].deserialize(from: #"{"n": 1}"#) == nil)
    }

    @Test("class models keep defaults; toJSON round trip")
    func classModels() throws {
        let model = try #require(HClassModel.deserialize(from: #"{"id": "12", "inner": {"n": null}}"#))
        #expect(model.id == 12 && model.name == "x" && model.inner == HInner())
        let again = try #require(HClassModel.deserialize(from: model.toJSONString()))
        #expect(again.id == 12 && again.name == "x" && again.inner == HInner())
        let outer = HOuter(count: 1, flag: false, title: "ü\"", list: [HInner(name: "a", n: 2)], opt: nil,
                           dict: ["k": HInner()], color: .blue)
        #expect(HOuter.deserialize(from: outer.toJSONString(prettyPrint: true)) == outer)
        #expect(HOuter.deserialize(from: outer.toJSON()) == outer)
    }
}
