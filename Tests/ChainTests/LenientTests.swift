import Chain
import Foundation
import Testing

/// `@Lenient` and `@LenientOptional`, both directions, without I/O.
@Suite("Lenient fields")
struct LenientTests {
    struct Item: Codable, Equatable {
        @Lenient var count: Int
        @Lenient var flag: Bool
        @Lenient var label: String
        @Lenient var ratio: Double
        @LenientOptional var badge: Int?
    }

    private func decode(_ json: String) throws -> Item {
        try JSONDecoder().decode(Item.self, from: Data(json.utf8))
    }

    @Test(arguments: [#"12"#, #""12""#, #"12.0"#, #"" 12 ""#, #""12.0""#])
    func intFromEveryForm(raw: String) throws {
        let item = try decode(#"{"count":\#(raw),"flag":true,"label":"x","ratio":1}"#)
        #expect(item.count == 12)
    }

    @Test(arguments: [(#"true"#, true), (#""true""#, true), (#"1"#, true), (#""1""#, true),
                      (#"false"#, false), (#""FALSE""#, false), (#"0"#, false), (#""0""#, false)])
    func boolFromEveryForm(raw: String, expected: Bool) throws {
        let item = try decode(#"{"count":1,"flag":\#(raw),"label":"x","ratio":1}"#)
        #expect(item.flag == expected)
    }

    @Test func stringAndDoubleFromOtherForms() throws {
        let item = try decode(#"{"count":1,"flag":1,"label":12,"ratio":"2.5","badge":"7"}"#)
        #expect(item.label == "12")
        #expect(item.ratio == 2.5)
        #expect(item.badge == 7)
    }

    @Test func missingAndNullGiveDefaultsOrNil() throws {
        let missing = try decode("{}")
        #expect(missing == Item(count: 0, flag: false, label: "", ratio: 0, badge: nil))
        let nulls = try decode(#"{"count":null,"flag":null,"label":null,"ratio":null,"badge":null}"#)
        #expect(nulls == missing)
    }

    @Test(arguments: [#"{"count":12.5}"#, #"{"count":"abc"}"#, #"{"count":[1]}"#, #"{"flag":2}"#, #"{"count":true}"#])
    func garbageStillFails(json: String) {
        #expect(throws: DecodingError.self) { try decode(json) }
    }

    @Test func encodesANaturalFormThatDecodesAgain() throws {
        let item = Item(count: 3, flag: true, label: "x", ratio: 0.5, badge: nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(item)
        #expect(String(decoding: data, as: UTF8.self) == #"{"badge":null,"count":3,"flag":true,"label":"x","ratio":0.5}"#)
        #expect(try JSONDecoder().decode(Item.self, from: data) == item)
    }

    @Test func optInIsPerPropertyOnly() {
        struct Strict: Decodable { let count: Int }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Strict.self, from: Data(#"{"count":"12"}"#.utf8)) }
    }

    @Test func lenientInsideArraysAndAtTheTopLevel() throws {
        let values = try JSONDecoder().decode([Lenient<Int>].self, from: Data(#"[1,"2",3.0]"#.utf8))
        #expect(values.map(\.wrappedValue) == [1, 2, 3])
        let unsigned = try JSONDecoder().decode(Lenient<UInt8>.self, from: Data(#""255""#.utf8))
        #expect(unsigned.wrappedValue == 255)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Lenient<UInt8>.self, from: Data("256".utf8)) }
    }
}
