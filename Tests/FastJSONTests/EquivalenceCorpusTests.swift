import FastJSON
import Foundation
import Testing

/// A fixed corpus of documents and model types: both decoders must produce
/// equal values, or the same error case, coding path and description.
@Suite("Equivalence corpus")
struct EquivalenceCorpusTests {
    typealias F = Fixtures

    @Test("Every scalar type")
    func scalars() {
        Equivalence.expectSame(F.Scalars.self, F.scalarsJSON)
        // One value at a time out of range, of the wrong type, or null.
        let replacements = ["null", "\"1\"", "true", "1.5", "1e400", "-1", "300", "70000", "5000000000",
                            "-9223372036854775809", "18446744073709551616", "1e2", "12.0", "[]", "{}", "-0", "0.1e1"]
        for field in ["bool", "string", "double", "float", "int", "int8", "int16", "int32", "int64",
                      "uint", "uint8", "uint16", "uint32", "uint64"] {
            for replacement in replacements {
                Equivalence.expectSame(F.Scalars.self, Self.replacing(field, in: F.scalarsJSON, with: replacement))
            }
            Equivalence.expectSame(F.Scalars.self, Self.removing(field, from: F.scalarsJSON))
        }
    }

    @Test("Top-level scalars and fragments", arguments: [
        "1", "-1", "1.5", "\"text\"", "true", "false", "null", " 7 ", "\n\t\"a\"\r\n", "[]", "{}", "1 2", "01",
        "-", "", " ", "nul", "tru", "\"unterminated", "[1,]", "[1,,2]", "{\"a\":1,}", "{,}", "[,]", "{\"a\" 1}", "{1:1}",
        "[1 2]", "{\"a\":1 \"b\":2}", "\u{FEFF}1", "1x", "[1]x", "[\"\\u12\"]", "[\"\\u\"]", "[\"a\\\"]",
    ])
    func fragments(json: String) {
        Equivalence.expectSame(Int.self, json)
        Equivalence.expectSame(String.self, json)
        Equivalence.expectSame(Bool?.self, json)
        Equivalence.expectSame([Int].self, json)
        Equivalence.expectSame([String: Int].self, json)
        Equivalence.expectSame(Double.self, json)
    }

    @Test("Optionals: missing, null, present, wrong type")
    func optionals() {
        let documents = [
            "{}",
            #"{"int":null,"string":null,"bool":null,"double":null,"array":null,"nested":null}"#,
            #"{"int":1,"string":"s","bool":false,"double":2,"array":[1,2],"nested":{"name":"n","value":3}}"#,
            #"{"int":"1"}"#, #"{"string":1}"#, #"{"bool":0}"#, #"{"double":"x"}"#, #"{"array":{}}"#,
            #"{"nested":[]}"#, #"{"nested":{"name":"n"}}"#, #"{"nested":{"name":null,"value":1}}"#,
            #"{"array":[1,null]}"#, "[]", "null", "1",
        ]
        for json in documents {
            Equivalence.expectSame(F.Optionals.self, json)
        }
        Equivalence.expectSame(F.Optionals?.self, "null")
        Equivalence.expectSame([F.Optionals?].self, "[null,{},{\"int\":2}]")
    }

    @Test("Nested arrays and dictionaries")
    func collections() {
        let valid = #"""
            {"ints":[1,2,3],"matrix":[[1.5,2],[],[3e2]],"names":{"a":"x","b":"y"},"groups":{"g":[1],"h":[]},
             "leaves":[{"name":"a","value":1},{"name":"b","value":2}],"optionalItems":[1,null,3],"bools":[true,false]}
            """#
        Equivalence.expectSame(F.Collections.self, valid)
        let broken = [
            valid.replacingOccurrences(of: "[1,2,3]", with: "[1,\"2\",3]"),
            valid.replacingOccurrences(of: "[3e2]", with: "[3e2,null]"),
            valid.replacingOccurrences(of: "\"b\":\"y\"", with: "\"b\":2"),
            valid.replacingOccurrences(of: "\"g\":[1]", with: "\"g\":[1,{}]"),
            valid.replacingOccurrences(of: "\"value\":2", with: "\"value\":2.5"),
            valid.replacingOccurrences(of: "{\"name\":\"b\",\"value\":2}", with: "null"),
            valid.replacingOccurrences(of: "[true,false]", with: "[true,null]"),
            valid.replacingOccurrences(of: "\"leaves\"", with: "\"leaf\""),
            valid.replacingOccurrences(of: "[[1.5,2],[],[3e2]]", with: "[1]"),
            valid.replacingOccurrences(of: "{\"a\":\"x\",\"b\":\"y\"}", with: "[]"),
        ]
        for json in broken {
            Equivalence.expectSame(F.Collections.self, json)
        }
        Equivalence.expectSame([[String: [Int?]]].self, #"[{"a":[1,null]},{},{"b":[]}]"#)
        Equivalence.expectSame([String: [String: Double]].self, #"{"x":{"y":1.25,"z":-0.0},"w":{}}"#)
        Equivalence.expectSame([Int: String].self, #"{"1":"a","-2":"b"}"#)
        Equivalence.expectSame([Int: String].self, #"{"1":"a","x":"b"}"#)
        Equivalence.expectSame([[[Int]]].self, "[[[1],[2,3]],[],[[]]]")
    }

    @Test("Enums with raw values")
    func enums() {
        for json in [
            #"{"color":"red","level":1}"#, #"{"color":"blue","level":2,"palette":["green","red"]}"#,
            #"{"color":"purple","level":1}"#, #"{"color":"red","level":3}"#, #"{"color":1,"level":1}"#,
            #"{"color":"red","level":"1"}"#, #"{"color":"red","level":1,"palette":["red","x"]}"#,
            #"{"color":null,"level":1}"#,
        ] {
            Equivalence.expectSame(F.WithEnums.self, json)
        }
    }

    @Test("Duplicate keys: the first one wins")
    func duplicateKeys() {
        Equivalence.expectSame(F.Leaf.self, #"{"name":"a","value":1,"name":"b","value":"x"}"#)
        Equivalence.expectSame([String: Int].self, #"{"a":1,"a":2,"b":3}"#)
        var snake = Equivalence.Settings()
        snake.keys = .convertFromSnakeCase
        Equivalence.expectSame(F.SnakeAddress.self, #"{"street_name":"a","streetName":"b","zip_code":"1"}"#, snake)
    }

    @Test("Keys that need unescaping or Unicode comparison")
    func unusualKeys() {
        Equivalence.expectSame(F.Leaf.self, #"{"n\u0061me":"a","value":1}"#)
        Equivalence.expectSame(F.Leaf.self, #"{"name":"a","val\ue":1}"#)
        Equivalence.expectSame([String: Int].self, #"{"caf\u00e9":1,"café":2,"e\u0301":3}"#)
        Equivalence.expectSame([String: Int].self, #"{"\ud83d\ude00":1,"":2}"#)
        Equivalence.expectSame([String: Int].self, "{\"k\u{212A}\":1}")
        // An escaped key inside an object that is decoded with default keys.
        Equivalence.expectSame(F.Leaf.self, #"{"name":"a","value":1,"\uD800":2}"#)
        Equivalence.expectSame(F.Leaf.self, Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x2C]) + Data(#""name":"a","value":1}"#.utf8))
    }

    @Test("Snake case keys", arguments: [
        #"{"user_name":"a","account_id":1,"home_address":{"street_name":"s","zip_code":"z"},"raw_values":{"a_b":1,"c_d":2}}"#,
        #"{"user_name":"a","home_address":{"street_name":"s"},"raw_values":{}}"#,
        #"{"userName":"a","home_address":{"street_name":"s"},"raw_values":{}}"#,
        #"{"user__name":"a","home_address":{"street_name":"s"},"raw_values":{}}"#,
        #"{"_user_name_":"a","user_name":"b","home_address":{"streetName":"s"},"raw_values":{}}"#,
        #"{"user_name":"a","home_address":{"street_name":"s"},"raw_values":{"x":"y"}}"#,
        #"{"user_name":"a","home_address":{"street_name":"s"},"raw_values":null}"#,
        #"{"user_name":"a","home_address":{"street_name":"s"},"raw_values":{},"_private":true}"#,
        #"{"USER_NAME":"a","Home_Address":{"STREET_NAME":"s"},"raw_values":{}}"#,
        #"{"user_name":"a","home_address":{"street_name":"s"},"raw_values":{"a_b":1,"a_b":2}}"#,
    ])
    func snakeCase(json: String) {
        var settings = Equivalence.Settings()
        settings.keys = .convertFromSnakeCase
        Equivalence.expectSame(F.Snake.self, json, settings)
        Equivalence.expectSame([String: F.SnakeAddress].self, #"{"a_b":{"street_name":"s"}}"#, settings)
        Equivalence.expectSame(F.Snake.self, json)
    }

    @Test("Custom key strategy sees the full coding path")
    func customKeys() {
        var settings = Equivalence.Settings()
        settings.keys = .custom { path in
            let last = path.last?.stringValue ?? ""
            let prefix = path.dropLast().map(\.stringValue).joined(separator: "/")
            return CorpusKey(stringValue: last.uppercased() == last ? last.lowercased() : "\(prefix)|\(last)")
        }
        Equivalence.expectSame(F.Leaf.self, #"{"NAME":"a","VALUE":1}"#, settings)
        Equivalence.expectSame(F.Leaf.self, #"{"name":"a","VALUE":1}"#, settings)
        Equivalence.expectSame([F.Leaf].self, #"[{"NAME":"a","VALUE":1},{"NAME":"b"}]"#, settings)
    }

    @Test("Date strategies")
    func dates() {
        let iso = #"{"date":"2024-01-02T03:04:05Z","dates":["2020-02-29T00:00:00Z"],"optional":null}"#
        let numbers = #"{"date":1700000000.5,"dates":[0,-1,1e3],"optional":12}"#
        let strategies: [(JSONDecoder.DateDecodingStrategy, [String])] = [
            (.deferredToDate, [numbers, iso, #"{"date":null,"dates":[]}"#]),
            (.secondsSince1970, [numbers, iso, #"{"date":"1","dates":[]}"#, #"{"date":1e400,"dates":[]}"#]),
            (.millisecondsSince1970, [numbers, iso]),
            (.iso8601, [iso, numbers, #"{"date":"2024-13-45T00:00:00Z","dates":[]}"#,
                        #"{"date":"2024-01-02T03:04:05Z","dates":["bad"]}"#, #"{"date":null,"dates":[]}"#]),
            (.formatted(Self.dayFormatter), [#"{"date":"2024-05-06","dates":["1999-12-31"]}"#, #"{"date":"06/05/2024","dates":[]}"#]),
            (.custom({ decoder in
                let container = try decoder.singleValueContainer()
                if let number = try? container.decode(Double.self) { return Date(timeIntervalSince1970: number * 2) }
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "custom \(decoder.codingPath.count)")
            }), [numbers, iso]),
        ]
        for (strategy, documents) in strategies {
            var settings = Equivalence.Settings()
            settings.dates = strategy
            for json in documents {
                Equivalence.expectSame(F.Dates.self, json, settings)
                Equivalence.expectSame([Date].self, "[\(json.contains("\"date\":\"") ? "\"2024-01-02T03:04:05Z\"" : "1.5")]", settings)
            }
        }
    }

    @Test("Data, URL and Decimal")
    func specialTypes() {
        let documents = [
            #"{"data":"aGVsbG8=","url":"https://example.com/a?b=c","decimal":12.345}"#,
            #"{"data":"aGVsbG8","url":"https://example.com","decimal":1}"#,
            #"{"data":"a\/b=","url":"","decimal":1e5}"#,
            #"{"data":null,"url":"x","decimal":1}"#,
            #"{"data":5,"url":"x","decimal":1}"#,
            #"{"data":"","url":null,"decimal":1}"#,
            #"{"data":"","url":"http://a b","decimal":1}"#,
            #"{"data":"","url":"x","decimal":"1"}"#,
            #"{"data":"","url":"x","decimal":null}"#,
            #"{"data":"","url":"x","decimal":123456789012345678901234567890.5}"#,
            #"{"data":"","url":"x","decimal":1e300}"#,
            #"{"data":"","url":"x","decimal":-0.000001}"#,
            #"{"data":"","url":5,"decimal":1}"#,
        ]
        for json in documents {
            Equivalence.expectSame(F.Special.self, json)
        }
        var deferred = Equivalence.Settings()
        deferred.data = .deferredToData
        Equivalence.expectSame(Data.self, "[1,2,255]", deferred)
        Equivalence.expectSame(Data.self, "[1,2,256]", deferred)
        var custom = Equivalence.Settings()
        custom.data = .custom { decoder in Data(try decoder.singleValueContainer().decode(String.self).utf8.reversed()) }
        Equivalence.expectSame([Data].self, #"["abc","",1]"#, custom)
    }

    @Test("Non-conforming floats")
    func nonConformingFloats() {
        var settings = Equivalence.Settings()
        settings.floats = .convertFromString(positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
        for json in [
            #"{"double":"+Inf","float":"-Inf"}"#, #"{"double":"NaN","float":"NaN"}"#, #"{"double":"nan","float":1}"#,
            #"{"double":"N\u0061N","float":1}"#, #"{"double":1,"float":"+Inf"}"#, #"{"double":null,"float":1}"#,
        ] {
            Equivalence.expectSame(F.Floats.self, json, settings)
            Equivalence.expectSame(F.Floats.self, json)
        }
    }

    @Test("Hand-written init(from:) using the whole container API")
    func manualContainers() {
        let documents = [
            #"{"id":1,"point":[null,1.5,null,2],"meta":{"name":"n","tags":["a"],"z":1},"extra":0,"parent":"p","super":[1,2],"inner":[[1,2],[],[3]]}"#,
            #"{"id":1,"point":[],"meta":{"name":"n"},"inner":[]}"#,
            #"{"id":1,"point":[1],"meta":{"name":"n","tags":null},"parent":null,"super":{}}"#,
            #"{"id":1,"point":[1,"x"],"meta":{"name":"n"}}"#,
            #"{"id":1,"point":{},"meta":{"name":"n"}}"#,
            #"{"id":1,"point":[1],"meta":[]}"#,
            #"{"id":1,"point":[1],"meta":{"name":"n"},"parent":5}"#,
            #"{"id":1,"point":[1],"meta":{"name":"n"},"inner":[[1],2]}"#,
            #"{"id":1,"point":[1],"meta":{"name":"n"},"inner":[[1],["x"]]}"#,
            #"{"id":1,"point":[1],"meta":{"name":"n"},"inner":[[1],null]}"#,
            #"{"id":1,"meta":{"name":"n"}}"#,
        ]
        for json in documents {
            Equivalence.expectSame(F.Manual.self, json)
        }
    }

    @Test("Class hierarchy through superDecoder()")
    func superDecoder() {
        Equivalence.expectSame(F.Derived.self, #"{"derivedValue":"d","super":{"baseValue":1}}"#)
        Equivalence.expectSame(F.Derived.self, #"{"derivedValue":"d"}"#)
        Equivalence.expectSame(F.Derived.self, #"{"derivedValue":"d","super":{"baseValue":"1"}}"#)
        Equivalence.expectSame(F.Derived.self, #"{"derivedValue":"d","super":[]}"#)
    }

    @Test("Envelope with a nested payload")
    func envelope() {
        Equivalence.expectSame(F.Envelope<F.Leaf>.self, #"{"errcode":0,"errmsg":"ok","data":{"name":"a","value":1}}"#)
        Equivalence.expectSame(F.Envelope<F.Leaf>.self, #"{"errcode":0,"errmsg":"ok","data":null}"#)
        Equivalence.expectSame(F.Envelope<F.Leaf?>.self, #"{"errcode":0,"errmsg":"ok","data":null}"#)
        Equivalence.expectSame(F.Envelope<[F.Leaf]>.self, #"{"errcode":0,"errmsg":"ok","data":[{"name":"a","value":"1"}]}"#)
    }

    @Test("userInfo reaches init(from:)")
    func userInfo() throws {
        var settings = Equivalence.Settings()
        let key = try #require(F.UserInfoEcho.key)
        settings.userInfo = [key: "hello"]
        Equivalence.expectSame(F.UserInfoEcho.self, "5", settings)
        Equivalence.expectSame([F.UserInfoEcho].self, "[5,6]", settings)
    }

    @Test("Invalid documents fail with dataCorrupted and an empty path")
    func invalidDocuments() {
        let valid = #"{"name":"a","value":1}"#
        // Every truncation, and every byte replaced by a troublesome one.
        for end in 0..<valid.utf8.count {
            Equivalence.expectSame(F.Leaf.self, String(valid.utf8.prefix(end)) ?? "")
        }
        let bytes = Array(valid.utf8)
        for index in bytes.indices {
            for replacement: UInt8 in [0x00, 0x0A, 0x22, 0x5C, 0x7D, 0x5D, 0x2C, 0x3A, 0xFF, 0xC3, 0x31, 0x78] {
                var mutated = bytes
                mutated[index] = replacement
                Equivalence.expectSame(F.Leaf.self, Data(mutated))
            }
        }
    }

    @Test("Encodings other than UTF-8")
    func encodings() throws {
        let text = #"{"name":"é😀","value":1}"#
        for encoding: String.Encoding in [.utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian, .utf16, .utf32] {
            let data = try #require(text.data(using: encoding))
            Equivalence.expectSame(F.Leaf.self, data, label: "\(encoding)")
        }
        Equivalence.expectSame(F.Leaf.self, Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8), label: "UTF-8 BOM")
        Equivalence.expectSame(Int.self, Data([0x31, 0x00]), label: "UTF-16LE digit")
        Equivalence.expectSame(Int.self, Data([0x00, 0x31]), label: "UTF-16BE digit")
        Equivalence.expectSame(Int.self, Data([0xFF, 0xFE, 0x00, 0xD8]), label: "broken UTF-16")
    }

    // MARK: Helpers

    static let dayFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter
    }()

    static func replacing(_ field: String, in json: String, with value: String) -> String {
        guard let range = json.range(of: "\"\(field)\":") else { return json }
        let valueEnd = json[range.upperBound...].firstIndex(where: { $0 == "," || $0 == "}" }) ?? json.endIndex
        return json.replacingCharacters(in: range.upperBound..<valueEnd, with: value)
    }

    static func removing(_ field: String, from json: String) -> String {
        guard let range = json.range(of: "\"\(field)\":") else { return json }
        var valueEnd = json[range.upperBound...].firstIndex(where: { $0 == "," || $0 == "}" }) ?? json.endIndex
        if valueEnd < json.endIndex, json[valueEnd] == "," { valueEnd = json.index(after: valueEnd) }
        return json.replacingCharacters(in: range.lowerBound..<valueEnd, with: "")
    }
}

/// A coding key made from any string, for custom key strategies.
struct CorpusKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
