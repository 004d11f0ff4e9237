import FastJSON
import Foundation
import Testing

/// The byte-level parser on inputs where decoders most often disagree.
@Suite("Parser edge cases")
struct ParserEdgeCaseTests {
    @Test("Surrogate pairs and lone surrogates", arguments: [
        #""\ud83d\ude00""#, #""\uD83D\uDE00""#, #""a\ud83d\ude00b""#, #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#,
        #""\ud800x""#, #""\ud800\""#, #""\udbff\udfff""#, #""\ud800\ud800""#, #""\u0000""#, #""\u00e9\u4e2d""#,
        #""\u12""#, #""\uzzzz""#, #""\u""#, #""\ud83d\ude0""#,
    ])
    func surrogates(json: String) {
        Equivalence.expectSame(String.self, json)
        Equivalence.expectSame([String].self, "[\(json)]")
        Equivalence.expectSame([String: Int].self, "{\(json):1}")
    }

    @Test("Invalid and valid UTF-8 byte sequences", arguments: [
        [0xC3, 0xA9], [0xF0, 0x9F, 0x98, 0x80], [0xE4, 0xB8, 0xAD], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF5, 0x80, 0x80, 0x80],
        [0xF4, 0x90, 0x80, 0x80], [0xE0, 0x80, 0x80], [0xC3], [0xE4, 0xB8], [0x80], [0xFF], [0xF0, 0x9F, 0x98],
    ] as [[UInt8]])
    func utf8(sequence: [UInt8]) {
        let quote = UInt8(ascii: "\"")
        Equivalence.expectSame(String.self, Data([quote] + sequence + [quote]))
        Equivalence.expectSame(String.self, Data([quote, 0x5C, 0x6E] + sequence + [quote]))
        Equivalence.expectSame([String: Int].self, Data([0x7B, quote] + sequence + [quote, 0x3A, 0x31, 0x7D]))
        // Unread strings are not checked, as in Foundation.
        Equivalence.expectSame(Fixtures.Leaf.self, Data(#"{"name":"a","value":1,"x":""#.utf8) + Data(sequence) + Data(#""}"#.utf8))
    }

    @Test("Raw control characters and escapes", arguments: [
        "\"a\u{01}b\"", "\"tab\there\"", "\"\\x\"", "\"\\'\"", "\"\\/\\b\\f\\n\\r\\t\\\"\\\\\"", "\"\u{1F}\"", "\"\u{7F}\"",
    ])
    func controlCharacters(json: String) {
        Equivalence.expectSame(String.self, json)
        Equivalence.expectSame(Fixtures.Leaf.self, #"{"name":"a","value":1,"x":\#(json)}"#)
    }

    @Test("Deep nesting fails cleanly instead of exhausting the stack")
    func deepNesting() throws {
        let deep = String(repeating: "[", count: 100_000)
        Equivalence.expectSame([Int].self, deep)
        let deepObjects = String(repeating: #"{"a":"#, count: 100_000)
        Equivalence.expectSame([String: Int].self, deepObjects)
        for depth in [511, 512, 513] {
            let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            Equivalence.expectSame(Fixtures.Nesting.self, nested)
        }
        var shallow = FastJSONDecoder()
        shallow.maximumDepth = 3
        #expect(throws: DecodingError.self) { try shallow.decode([[[[Int]]]].self, from: Data("[[[[1]]]]".utf8)) }
        #expect(try shallow.decode([[[Int]]].self, from: Data("[[[1]]]".utf8)) == [[[1]]])
    }

    @Test("Numbers at the edges of each type", arguments: [
        "0", "-0", "1", "-1", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "18446744073709551616", "1E5", "1e+5", "1e-5", "0e0", "1.5e3", "1.5e0", "1e308", "1.8e308",
        "4.9e-324", "2e-324", "1e-400", "2.2250738585072011e-308", "9007199254740993", "9007199254740993.0", "0.1",
        "123456789012345678901234567890", "1.00000000000000000000000000001", "-0.0", "3.4028235e38", "3.4028236e38",
        "1.4e-45", "7e-46", "12345678901234567.5", "1234567890123456789.000", "1e16", "-9007199254740993.5",
        "170141183460469231731687303715884105727", "-170141183460469231731687303715884105728",
        "340282366920938463463374607431768211455", "340282366920938463463374607431768211456",
        "01", "-01", "1.", ".1", "1e", "1e+", "--1", "+1", "1-", "1.2.3", "0x10", "Infinity", "NaN",
    ])
    func numbers(text: String) {
        Equivalence.expectSame(Int.self, text)
        Equivalence.expectSame(Int8.self, text)
        Equivalence.expectSame(UInt8.self, text)
        Equivalence.expectSame(Int32.self, text)
        Equivalence.expectSame(UInt32.self, text)
        Equivalence.expectSame(Int64.self, text)
        Equivalence.expectSame(UInt64.self, text)
        Equivalence.expectSame(Int128.self, text)
        Equivalence.expectSame(UInt128.self, text)
        Equivalence.expectSame(UInt.self, text)
        Equivalence.expectSame(Fixtures.DoubleBits.self, "[\(text)]")
        Equivalence.expectSame(Fixtures.FloatBits.self, "[\(text)]")
        Equivalence.expectSame(Decimal.self, text)
        Equivalence.expectSame(String.self, text)
        Equivalence.expectSame(Bool.self, text)
        // An unread malformed number is not an error, as in Foundation.
        Equivalence.expectSame(Fixtures.Leaf.self, #"{"name":"a","value":1,"x":\#(text)}"#)
    }

    @Test("Malformed input is reported with its reason and offset")
    func parseErrorDetails() throws {
        func failure(_ json: String) -> JSONParseError? {
            do {
                _ = try FastJSONDecoder().decode([String].self, from: Data(json.utf8))
                return nil
            } catch DecodingError.dataCorrupted(let context) {
                #expect(context.codingPath.isEmpty)
                #expect(context.debugDescription == "The given data was not valid JSON.")
                return context.underlyingError as? JSONParseError
            } catch {
                return nil
            }
        }
        #expect(failure(#"["a" "b"]"#) == JSONParseError(.unexpectedCharacter(UInt8(ascii: "\"")), offset: 5))
        #expect(failure(#"["a""#) == JSONParseError(.unexpectedEndOfFile, offset: 4))
        #expect(failure(#"["\x"]"#) == JSONParseError(.invalidEscape(UInt8(ascii: "x")), offset: 3))
        #expect(failure(#"["\ud800"]"#)?.reason == .missingLowSurrogate)
        #expect(failure(#"["\udc00"]"#)?.reason == .invalidUnicodeScalar(0xDC00))
        #expect(failure("[\"\u{01}\"]")?.reason == .unescapedControlCharacter(1))
        #expect(failure(String(repeating: "[", count: 600))?.reason == .tooManyNestedContainers(limit: 512))
        let error = JSONParseError(.invalidNumber, offset: 3)
        #expect(error.description == "Invalid number at byte 3.")
    }
}
