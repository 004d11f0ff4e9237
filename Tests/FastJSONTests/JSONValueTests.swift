import FastJSON
import Foundation
import TestSupport
import Testing

/// The lightweight value API and its equivalence with `JSONSerialization`.
@Suite("JSONValue")
struct JSONValueTests {
    static let sample = #"""
        {"errcode":0,"errmsg":"ok","data":{"user":{"id":101,"name":"Ann \u00e9","tags":["a","b"],"score":9.5,
         "active":true,"none":null,"big":12345678901234567890,"ratio":12.0}},"list":[1,[2,3],{}],"dup":1,"dup":2}
        """#

    @Test("Reading members, elements and scalars")
    func accessors() throws {
        let value = try JSONValue(parsing: Self.sample)
        #expect(value.kind == .object)
        #expect(value["errcode"]?.intValue == 0)
        #expect(value["errmsg"]?.stringValue == "ok")
        let user = try #require(value.value(atKeyPath: "data.user"))
        #expect(user["name"]?.stringValue == "Ann é")
        #expect(user["tags"]?.count == 2)
        #expect(user["tags"]?[1]?.stringValue == "b")
        #expect(user["tags"]?[2] == nil)
        #expect(user["score"]?.doubleValue == 9.5)
        #expect(user["score"]?.intValue == nil)
        #expect(user["ratio"]?.intValue == 12)
        #expect(user["active"]?.boolValue == true)
        #expect(user["none"]?.isNull == true)
        #expect(user["none"]?.kind == .null)
        #expect(user["big"]?.intValue == nil)
        #expect(user["big"]?.numberText == "12345678901234567890")
        #expect(user["missing"] == nil)
        #expect(user["id"]?.stringValue == nil)
        #expect(user["name"]?.intValue == nil)
        #expect(value.value(atKeyPath: "list.1.0")?.intValue == 2)
        #expect(value.value(atKeyPath: "list.2")?.count == 0)
        #expect(value.value(atKeyPath: "list.9") == nil)
        #expect(value.value(atKeyPath: "errmsg.x") == nil)
        #expect(value.value(atKeyPath: "")?.kind == .object)
        #expect(value["dup"]?.intValue == 1)
        #expect(value.keys == ["errcode", "errmsg", "data", "list", "dup", "dup"])
        #expect(value.members.count == 6)
        #expect(value["list"]?.elements.map(\.kind) == [.number, .array, .object])
        #expect(value["errcode"]?.elements.isEmpty == true)
        #expect(value["errcode"]?.keys.isEmpty == true)
    }

    @Test("Raw text of values")
    func rawText() throws {
        let value = try JSONValue(parsing: #" { "a" : [ 1 , { "b" : "c\n" } , [ ] ] , "e" : { } , "f":-1.5e3 } "#)
        #expect(value.description == #"{ "a" : [ 1 , { "b" : "c\n" } , [ ] ] , "e" : { } , "f":-1.5e3 }"#)
        #expect(value["a"]?.description == #"[ 1 , { "b" : "c\n" } , [ ] ]"#)
        #expect(value["a"]?[1]?.description == #"{ "b" : "c\n" }"#)
        #expect(value["a"]?[2]?.description == "[ ]")
        #expect(value["e"]?.description == "{ }")
        #expect(value["f"]?.description == "-1.5e3")
        #expect(value["a"]?[1]?["b"]?.rawData == Data(#""c\n""#.utf8))
        let trailing = try JSONValue(parsing: "[[1,],{\"x\":2,}]")
        #expect(trailing[0]?.description == "[1,]")
        #expect(trailing[1]?.description == "{\"x\":2,}")
    }

    @Test("Decoding from a parsed value, with or without a key path")
    func decodeFromValue() throws {
        struct User: Decodable, Equatable {
            var id: Int
            var tags: [String]
        }
        let value = try JSONValue(parsing: Self.sample)
        let decoder = FastJSONDecoder()
        let user = try decoder.decode(User.self, from: value, atKeyPath: "data.user")
        #expect(user == User(id: 101, tags: ["a", "b"]))
        let direct = try decoder.decode(User.self, from: try #require(value.value(atKeyPath: "data.user")))
        #expect(direct == user)
        let failure = DecodingOutcome { try decoder.decode(Int.self, from: value, atKeyPath: "data.user.name") }
        #expect(failure == .decodingError(
            kind: "typeMismatch(Int)", path: ["data", "user", "name"], message: "Expected to decode Int but found a string instead."))
    }

    @Test("Accepts and rejects what JSONSerialization accepts and rejects", arguments: [
        "[1,2,]", "{\"a\":1,}", "1", "\"s\"", "null", "[\"\\ud800\"]", "[01]", "[1e400]", "[1e-400]", "[\"\u{01}\"]",
        "[\"\\x\"]", "[1.]", "[-]", "[", "]", "{\"a\"}", "[1] x", "", "[\"\\u00e9\\ud83d\\ude00\"]", "{\"a\":{\"b\":[true,false,null]}}",
        "[123456789012345678901234567890e400]", "[1" + String(repeating: "0", count: 400) + "]",
        #"{"a":1e400,"a":1}"#, #"{"a":1,"a":1e400}"#,
    ])
    func strictness(json: String) {
        let data = Data(json.utf8)
        let serialization = (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil
        let value = (try? JSONValue.jsonObject(with: data)) != nil
        #expect(value == serialization, "\(json)")
        // Parsing alone also accepts numbers beyond Double's range: they are valid JSON.
        let parsed = (try? JSONValue(parsing: data)) != nil
        #expect(parsed == serialization || json.contains("e400") || json.count > 400, "\(json)")
    }

    @Test("Invalid UTF-8 is rejected as JSONSerialization rejects it")
    func strictUTF8() {
        let data = Data([0x5B, 0x22, 0xFF, 0x22, 0x5D])
        #expect((try? JSONSerialization.jsonObject(with: data)) == nil)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: data) }
    }

    @Test("Foundation objects equal JSONSerialization's", arguments: [
        sample, "[1,-1,0,-0,1.5,-0.0,1e2,1E-2,true,false,null,\"x\"]",
        "[9223372036854775807,-9223372036854775808,9223372036854775808,18446744073709551615,18446744073709551616]",
        "[-999999999999999999,-1000000000000000000,1000000000000000000,12345678901234567,0.12345678901234567]",
        "[123456789012345678e127,123456789012345678e128,123456789012345678e-128,123456789012345678e-129,1e-400]",
        "{\"a\":1,\"a\":2,\"b\":{\"c\":[{}]}}", "\"\\ud83d\\ude00\\u0000\"", "42", "{}", "[]",
    ])
    func foundationObjects(json: String) throws {
        let data = Data(json.utf8)
        let expected = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        let actual = try JSONValue.jsonObject(with: data)
        #expect(isSameJSONObject(actual, expected), "\(actual) vs \(expected)")
    }

    @Test("Random documents convert like JSONSerialization")
    func randomFoundationObjects() throws {
        var rng = SplitMix64(seed: 0xF0_0D)
        var compared = 0
        for _ in 0..<400 {
            let shape = Shape.random(depth: 3, using: &rng)
            let data = Data(RandomDocument.make(for: shape, using: &rng))
            let expected = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
            let actual = try? JSONValue.jsonObject(with: data)
            #expect((expected == nil) == (actual == nil), "\(String(decoding: data, as: UTF8.self))")
            if let expected, let actual {
                #expect(isSameJSONObject(actual, expected), "\(String(decoding: data, as: UTF8.self))")
                compared += 1
            }
        }
        #expect(compared > 100)
    }

    @Test("Values are Sendable and outlive their parse")
    func sendable() async throws {
        let value = try JSONValue(parsing: Data(#"{"a":[1,2,3]}"#.utf8))
        let sum = await Task.detached { value["a"]?.elements.compactMap(\.intValue).reduce(0, +) }.value
        #expect(sum == 6)
    }}
