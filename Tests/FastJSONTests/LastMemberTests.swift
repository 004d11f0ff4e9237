import FastJSON
import Testing

@Suite("FastJSON: the last of duplicate keys")
struct LastMemberTests {
    private func last(_ key: String, in text: String) throws -> String? {
        try JSONValue(parsing: text).lastMember(named: key)?.description
    }

    @Test("simple ASCII keys: the last occurrence, wherever it is; the subscript keeps the first")
    func asciiKeys() throws {
        let text = #"{"a": 1, "b": {"a": 9}, "a": [2], "c": 3, "a": "x"}"#
        #expect(try last("a", in: text) == #""x""#)
        #expect(try JSONValue(parsing: text)["a"]?.description == "1")
        #expect(try last("c", in: text) == "3")
        #expect(try last("z", in: text) == nil)
        #expect(try last("a", in: #"{"ab": 1, "a": 2, "abc": 3}"#) == "2")
        #expect(try last("a", in: "[1]") == nil)
        #expect(try last("a", in: "{}") == nil)
    }

    @Test("escaped and non-ASCII keys, and canonically equal names")
    func decodedKeys() throws {
        #expect(try last("a", in: #"{"\u0061": 1, "a": 2, "\u0061": 3}"#) == "3")
        #expect(try last("名", in: #"{"名": 1, "x": 0, "名": 2}"#) == "2")
        // "é" precomposed equals "e" + combining acute as Swift strings, as `[String: Any]` keys do.
        #expect(try last("caf\u{E9}", in: #"{"caf\u00e9": 1, "cafe\u0301": 2}"#) == "2")
        #expect(try last("cafe\u{301}", in: #"{"cafe": 0, "caf\u00e9": 1}"#) == "1")
    }
}
