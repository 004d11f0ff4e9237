@testable import SampleServer
import Testing

/// The pure parsers, without sockets.
@Suite("SampleServer parsers")
struct ParserTests {
    @Test("the multipart parser gives the same parts whatever the piece size", arguments: [1, 2, 3, 7, 64, 100_000])
    func multipartPieces(pieceSize: Int) throws {
        let boundary = "b0und4ry"
        var body = Array("preamble to ignore\r\n".utf8)
        body += multipartBody(boundary: boundary, parts: [
            ("a", nil, nil, Array("first\r\n--b0und4r not a boundary".utf8)),
            ("f", "x.txt", "text/plain", Array(repeating: UInt8(ascii: "z"), count: 300)),
        ])
        body += Array("epilogue".utf8)
        let parser = try #require(MultipartParser(boundary: boundary))
        var parts: [(MultipartParser.Part, [UInt8])] = []
        var content: [UInt8] = []
        var current: MultipartParser.Part?
        parser.onPartBegin = { current = $0; content = [] }
        parser.onPartData = { content += $0 }
        parser.onPartEnd = { if let current { parts.append((current, content)) } }
        var offset = 0
        while offset < body.count {
            let end = min(offset + pieceSize, body.count)
            try body[offset..<end].withUnsafeBytes { try parser.feed($0) }
            offset = end
        }
        try parser.finish()
        try #require(parts.count == 2)
        #expect(parts[0].0.name == "a")
        #expect(parts[0].1 == Array("first\r\n--b0und4r not a boundary".utf8))
        #expect(parts[1].0.filename == "x.txt")
        #expect(parts[1].0.contentType == "text/plain")
        #expect(parts[1].1.count == 300)
    }

    @Test("a multipart body without its closing boundary is malformed")
    func multipartUnterminated() throws {
        let parser = try #require(MultipartParser(boundary: "xyz"))
        try Array("--xyz\r\n\r\ndata".utf8).withUnsafeBytes { try parser.feed($0) }
        #expect(throws: MultipartParser.Malformed.self) { try parser.finish() }
        #expect(MultipartParser(boundary: "") == nil)
    }

    @Test("Range headers", arguments: [
        ("bytes=0-9", 100, ByteRange.satisfiable(0..<10)),
        ("bytes=90-", 100, .satisfiable(90..<100)),
        ("bytes=90-1000", 100, .satisfiable(90..<100)),
        ("bytes=-10", 100, .satisfiable(90..<100)),
        ("bytes=-1000", 100, .satisfiable(0..<100)),
        ("bytes=100-", 100, .unsatisfiable),
        ("bytes=5-1", 100, .ignored),
        ("bytes=0-1,5-6", 100, .ignored),
        ("items=0-1", 100, .ignored),
        ("bytes=99999999999999999999999-", 100, .unsatisfiable),
    ])
    func ranges(header: String, length: Int, expected: ByteRange) {
        #expect(ByteRange.parse(header, length: length) == expected)
    }

    @Test("JSON parses, keeps order and round-trips")
    func json() throws {
        let text = #"{"b":1,"a":[true,false,null,-1.5e3,"\u00e9\ud83d\ude00\n"],"c":{}}"#
        let value = try #require(JSONParser.parse(Array(text.utf8)))
        #expect(value["a"] == [true, false, .null, .number("-1.5e3"), "é😀\n"])
        #expect(String(decoding: value.encoded(), as: UTF8.self) == #"{"b":1,"a":[true,false,null,-1.5e3,"é😀\n"],"c":{}}"#)
        for bad in ["", "{", "[1,]", "01", "\"\u{01}\"", "{\"a\" 1}", "1 2", String(repeating: "[", count: 500)] {
            #expect(JSONParser.parse(Array(bad.utf8)) == nil, "\(bad.prefix(20))")
        }
    }

    @Test("request heads parse the request line and headers")
    func requestHead() throws {
        let head = try RequestHead.parse(Array("POST http://example.com/a%20b?x=1&y=2 HTTP/1.0\r\nHost: h\r\nX-A:  v \r\n\r\n".utf8))
        #expect(head.method == "POST")
        #expect(head.path == "/a%20b")
        #expect(head.query == "x=1&y=2")
        #expect(head.minorVersion == 0)
        #expect(head.headers["x-a"] == "v")
        #expect(QueryItems("a=%41+b&c&a=2").json == ["a": ["A b", "2"], "c": ""])
    }
}
