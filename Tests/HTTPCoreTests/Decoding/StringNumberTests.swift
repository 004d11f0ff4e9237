import FastJSON
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

/// `StringNumber`: the exact text and the number when there is one, with both backends.
@Suite("StringNumber")
struct StringNumberTests {
    struct Row: Codable, Equatable, Sendable {
        var value: StringNumber
    }

    struct OptionalRow: Codable, Equatable, Sendable {
        var value: StringNumber?
    }

    @Test("text and numbers keep their text; int and double read the number when there is one", arguments: [
        (#"{"value":"23"}"#, "23", false, 23 as Int?, 23 as Double?),
        (#"{"value":23}"#, "23", true, 23, 23),
        (#"{"value":"月票值"}"#, "月票值", false, nil, nil),
        (#"{"value":1.5}"#, "1.5", true, nil, 1.5),
        (#"{"value":"1.50"}"#, "1.50", false, nil, 1.5),
        (#"{"value":"23.0"}"#, "23.0", false, 23, 23),
        (#"{"value":-7}"#, "-7", true, -7, -7),
        (#"{"value":""}"#, "", false, nil, nil),
        (#"{"value":" 23"}"#, " 23", false, 23, 23),
        (#"{"value":"0x10"}"#, "0x10", false, nil, nil),
        (#"{"value":"nan"}"#, "nan", false, nil, nil),
        (#"{"value":"1e400"}"#, "1e400", false, nil, nil),
        (#"{"value":null}"#, "", false, nil, nil),
        (#"{}"#, "", false, nil, nil),
        (#"{"value":18446744073709551615}"#, "18446744073709551615", true, nil, 18446744073709551616.0),
        (#"{"value":12345678901234567890123}"#, "12345678901234567890123", true, nil, 1.2345678901234568e22),
    ] as [(String, String, Bool, Int?, Double?)])
    func readings(_ body: String, _ text: String, _ isNumber: Bool, _ int: Int?, _ double: Double?) throws {
        let row = try DecodingBackendTests.sameOutcome(Row.self, body).get()
        #expect(row.value.string == text)
        #expect(row.value.isNumber == isNumber)
        #expect(row.value.int == int)
        #expect(row.value.double == double)
        #expect(row.value.description == text)
    }

    @Test("an optional property tells a missing key and null from the empty text")
    func optional() throws {
        #expect(try DecodingBackendTests.sameOutcome(OptionalRow.self, #"{}"#).get().value == nil)
        #expect(try DecodingBackendTests.sameOutcome(OptionalRow.self, #"{"value":null}"#).get().value == nil)
        #expect(try DecodingBackendTests.sameOutcome(OptionalRow.self, #"{"value":""}"#).get().value == .empty)
    }

    @Test("a Boolean, an array or an object is a typeMismatch at the field's path, the same from both backends")
    func refusals() {
        for body in [#"{"value":true}"#, #"{"value":[1]}"#, #"{"value":{"a":1}}"#] {
            guard case .failure(let failure) = DecodingBackendTests.sameOutcome(Row.self, body) else {
                Issue.record("\(body) decoded")
                continue
            }
            #expect(failure.kind == .decodingFailed)
            #expect(failure.codingPath == "value")
        }
    }

    @Test("encoding writes what came — a number as a number, text as text — and decodes again to an equal value")
    func roundTrip() throws {
        let rows: [Row] = [Row(value: "23"), Row(value: 23), Row(value: StringNumber(1.5)), Row(value: "月票值"), Row(value: "")]
        let encoded = try JSONEncoder().encode(rows)
        #expect(String(decoding: encoded, as: UTF8.self) == #"[{"value":"23"},{"value":23},{"value":1.5},{"value":"月票值"},{"value":""}]"#)
        #expect(try JSONDecoder().decode([Row].self, from: encoded) == rows)
        #expect(try FastJSONDecoder().decode([Row].self, from: encoded) == rows)
    }

    @Test("literals, and equality by text and kind")
    func literalsAndEquality() {
        #expect(StringNumber(string: "23") != StringNumber(23))
        #expect(StringNumber(string: "23").int == StringNumber(23).int)
        #expect(StringNumber(2.0).string == "2")
        #expect(StringNumber(Double.infinity).isNumber == false)
        #expect(StringNumber(Double.infinity).double == nil)
        #expect(StringNumber(Double.nan).int == nil)
        let set: Set<StringNumber> = ["a", "a", 1, StringNumber(1.0)]
        #expect(set.count == 2)
    }
}
