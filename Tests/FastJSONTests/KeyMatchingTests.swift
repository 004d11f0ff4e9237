import FastJSON
import Foundation
import Testing

/// Finding a member by name compares the key's bytes in place, eight at a
/// time and then one by one; these inputs sit on the edges of that
/// comparison (lengths around 8 and 16, shared prefixes, keys at the very end
/// of the document where fewer than eight bytes follow) and of what it must
/// not change: the first of duplicate keys wins, escaped and non-ASCII keys,
/// missing keys, null and wrong types, each as Foundation's `JSONDecoder` decodes it.
@Suite("Key matching")
struct KeyMatchingTests {
    /// Keys whose lengths straddle the word size, with shared prefixes.
    struct Lengths: Decodable, Equatable {
        var empty: Int
        var a: Int
        var abcdefg: Int
        var abcdefgh: Int
        var abcdefghi: Int
        var abcdefghijklmnop: Int
        var abcdefghijklmnopq: Int
        var abcdefghijklmnopr: Int

        enum CodingKeys: String, CodingKey {
            case empty = ""
            case a, abcdefg, abcdefgh, abcdefghi, abcdefghijklmnop, abcdefghijklmnopq, abcdefghijklmnopr
        }
    }

    @Test("Keys of 0, 1, 7, 8, 9, 16 and 17 bytes sharing prefixes, in any order")
    func lengthsAroundTheWordSize() throws {
        let members = [
            #""abcdefghijklmnopr":8"#, #""abcdefghijklmnopq":7"#, #""abcdefghijklmnop":6"#, #""abcdefghi":5"#,
            #""abcdefgh":4"#, #""abcdefg":3"#, #""a":2"#, #""":1"#,
        ]
        for order in [members, members.reversed(), members.shuffled()] {
            let json = "{" + order.joined(separator: ",") + "}"
            let outcome = Equivalence.expectSame(Lengths.self, json)
            #expect(outcome == .value(Lengths(
                empty: 1, a: 2, abcdefg: 3, abcdefgh: 4, abcdefghi: 5,
                abcdefghijklmnop: 6, abcdefghijklmnopq: 7, abcdefghijklmnopr: 8)))
        }
    }

    struct Short: Decodable, Equatable {
        var k: Int
        var ab: String?
    }

    @Test("Short keys at the very end of the document, with fewer than eight bytes after them")
    func keysAtTheEnd() {
        Equivalence.expectSame(Short.self, #"{"ab":"x","k":1}"#)
        Equivalence.expectSame(Short.self, #"{"k":1}"#)
        Equivalence.expectSame(Short.self, #"{"k":1,"ab":null}"#)
        Equivalence.expectSame([Short].self, #"[{"k":1},{"k":2,"ab":"y"}]"#)
        // A prefix or an extension of the name is not the name.
        Equivalence.expectSame(Short.self, #"{"a":"x","abc":"y","k":1}"#)
        Equivalence.expectSame(Short.self, #"{"kk":1}"#)
    }

    struct Named: Decodable, Equatable {
        var name: String
        var count: Int?
    }

    @Test("The first of duplicate keys wins, also after other lookups and for long keys")
    func duplicateKeys() {
        Equivalence.expectSame(Named.self, #"{"name":"first","count":1,"name":"second","count":2}"#)
        Equivalence.expectSame(Named.self, #"{"count":1,"name":"first","name":"second"}"#)
        Equivalence.expectSame(Named.self, #"{"name":1,"name":"second"}"#)
        Equivalence.expectSame(Lengths.self, """
            {"abcdefghijklmnopq":1,"abcdefghijklmnopq":2,"":0,"a":0,"abcdefg":0,"abcdefgh":0,"abcdefghi":0,\
            "abcdefghijklmnop":0,"abcdefghijklmnopr":0}
            """)
    }

    struct Unicode: Decodable, Equatable {
        var café: String
        var emoji: Int

        enum CodingKeys: String, CodingKey {
            case café
            case emoji = "🙂"
        }
    }

    @Test("Escaped, non-ASCII and canonically equivalent keys")
    func escapedAndUnicodeKeys() {
        Equivalence.expectSame(Unicode.self, #"{"café":"a","🙂":1}"#)
        Equivalence.expectSame(Unicode.self, #"{"caf\u00e9":"a","\ud83d\ude42":1}"#)
        // "e" + COMBINING ACUTE ACCENT equals "é" as a Swift string.
        Equivalence.expectSame(Unicode.self, "{\"cafe\u{301}\":\"a\",\"🙂\":1}")
        Equivalence.expectSame(Named.self, #"{"n\u0061me":"escaped","count":3}"#)
        Equivalence.expectSame(Named.self, #"{"name\n":"newline","name":"plain"}"#)
    }

    @Test("Missing keys, null, wrong types and huge numbers behind a byte match")
    func missingNullAndWrongTypes() {
        Equivalence.expectSame(Named.self, #"{"count":1}"#)
        Equivalence.expectSame(Named.self, #"{"name":null}"#)
        Equivalence.expectSame(Named.self, #"{"name":"x","count":"1"}"#)
        Equivalence.expectSame(Named.self, #"{"name":"x","count":1e400}"#)
        Equivalence.expectSame(Named.self, #"{"name":"x","count":123456789012345678901234567890}"#)
        Equivalence.expectSame(Named.self, #"{"name":["x"]}"#)
        Equivalence.expectSame(Named.self, #"{}"#)
        Equivalence.expectSame(Named.self, #"[]"#)
    }

    indirect enum Tree: Decodable, Equatable {
        case leaf(String)
        case node(name: String, children: [Tree])

        enum CodingKeys: String, CodingKey { case name, children }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let name = try container.decode(String.self, forKey: .name)
            if let children = try container.decodeIfPresent([Tree].self, forKey: .children) {
                self = .node(name: name, children: children)
            } else {
                self = .leaf(name)
            }
        }
    }

    @Test("Deeply nested objects of one type whose keys come in varying orders")
    func deeplyNested() {
        var json = #"{"name":"leaf"}"#
        for depth in 0..<200 {
            json = depth.isMultiple(of: 2)
                ? #"{"name":"n\#(depth)","children":[\#(json),{"name":"x"}]}"#
                : #"{"children":[{"name":"y"},\#(json)],"name":"n\#(depth)"}"#
        }
        let outcome = Equivalence.expectSame(Tree.self, json)
        #expect(outcome.isFailure == false)
    }
}
