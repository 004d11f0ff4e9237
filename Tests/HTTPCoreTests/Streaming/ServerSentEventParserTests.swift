import Foundation
import HTTPCore
import HTTPFeatures
import Testing
import TestSupport

/// The event-stream parser against the WHATWG HTML rules (issue 23).
@Suite("Server-sent event parser")
struct ServerSentEventParserTests {
    /// Everything a stream gives, fed in one chunk.
    private func events(_ text: String, lineLimit: Int = 1 << 20) throws -> [ServerSentEvent] {
        try events(Data(text.utf8), lineLimit: lineLimit)
    }

    private func events(_ bytes: Data, lineLimit: Int = 1 << 20) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser(lineLimit: lineLimit)
        return try parser.parse(bytes)
    }

    /// The events and final state of `bytes` cut into the given chunk sizes.
    private func fed(_ bytes: [UInt8], sizes: some Sequence<Int>) throws -> ([ServerSentEvent], String, Int?) {
        var parser = ServerSentEventParser()
        var result: [ServerSentEvent] = []
        var start = 0
        var iterator = sizes.makeIterator()
        while start < bytes.count, let size = iterator.next() {
            let stop = min(bytes.count, start + size)
            result += try parser.parse(Data(bytes[start..<stop]))
            start = stop
        }
        return (result, parser.lastEventID, parser.reconnectionTime)
    }

    @Test("The spec's stock-ticker example joins data lines with newlines")
    func specDataLines() throws {
        #expect(try events("data: YHOO\ndata: +2\ndata: 10\n\n") == [ServerSentEvent(data: "YHOO\n+2\n10")])
    }

    @Test("The spec's four-block example: comments, id set and reset, a leading space kept")
    func specFourBlocks() throws {
        let stream = ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n"
        var parser = ServerSentEventParser()
        let result = try parser.parse(Data(stream.utf8))
        #expect(result == [ServerSentEvent(id: "1", data: "first event"), ServerSentEvent(data: "second event"),
                           ServerSentEvent(data: " third event")])
        #expect(parser.lastEventID == "")
    }

    @Test("The spec's empty-data example: the unterminated last block is discarded")
    func specEmptyData() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Data("data\n\ndata\ndata\n\ndata:".utf8))
            == [ServerSentEvent(data: ""), ServerSentEvent(data: "\n")])
        parser.finish()
        #expect(try parser.parse(Data("\n".utf8)).isEmpty)
    }

    @Test("The spec's two identical events: one space after the colon is removed")
    func specOneSpace() throws {
        #expect(try events("data:test\n\ndata: test\n\n") == [ServerSentEvent(data: "test"), ServerSentEvent(data: "test")])
    }

    @Test("Field parsing is case-sensitive, splits at the first colon and ignores unknown names")
    func fieldParsing() throws {
        let stream = "data:\0\ndata:  2\rData:1\ndata\0:2\ndata:1\r\0data:4\nda-ta:3\rdata_5\ndata:3\rdata:\r\n data:32\ndata:4\n\n"
        #expect(try events(stream) == [ServerSentEvent(data: "\0\n 2\n1\n3\n\n4")])
        #expect(try events("data:a:b: c\n\n") == [ServerSentEvent(data: "a:b: c")])
    }

    @Test("LF, CRLF and CR all end lines")
    func lineEnds() throws {
        #expect(try events("data:a\r\ndata:b\rdata:c\n\r\n") == [ServerSentEvent(data: "a\nb\nc")])
        #expect(try events("data:test\r\ndata\ndata:test\r\n\r") == [ServerSentEvent(data: "test\n\ntest")])
    }

    @Test("A CR ending one chunk and an LF opening the next make one line end")
    func crlfAcrossChunks() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Data("data:a\r".utf8)).isEmpty)
        #expect(try parser.parse(Data("\ndata:b\r".utf8)).isEmpty)
        #expect(try parser.parse(Data("\n\r".utf8)) == [ServerSentEvent(data: "a\nb")])
        // A lone CR at a chunk's end followed by a non-LF still ends the line.
        #expect(try parser.parse(Data("data:c\r".utf8)).isEmpty)
        #expect(try parser.parse(Data("\r".utf8)) == [ServerSentEvent(data: "c")])
    }

    @Test("Comment lines are ignored, also between data lines")
    func comments() throws {
        #expect(try events(":hi\ndata:1\n: x\ndata:2\n:\n\n") == [ServerSentEvent(data: "1\n2")])
        #expect(try events(": only a comment\n\n").isEmpty)
    }

    @Test("The event type: the last event field, or message when empty or missing")
    func eventType() throws {
        #expect(try events("event: add\ndata: 7\n\ndata: 8\n\n") == [ServerSentEvent(event: "add", data: "7"),
                                                                     ServerSentEvent(data: "8")])
        #expect(try events("event: a\nevent:\ndata:x\n\n") == [ServerSentEvent(data: "x")])
        #expect(try events("event: a\n\ndata:x\n\n") == [ServerSentEvent(data: "x")])
    }

    @Test("The last event ID persists across events and an empty id resets it")
    func lastEventID() throws {
        var parser = ServerSentEventParser()
        let result = try parser.parse(Data("id: 7\ndata:a\n\ndata:b\n\nid\ndata:c\n\n".utf8))
        #expect(result.map(\.id) == ["7", "7", nil])
        #expect(parser.lastEventID == "")
        _ = try parser.parse(Data("id: 9\n\n".utf8))
        #expect(parser.lastEventID == "9")
    }

    @Test("An id with U+0000 is ignored")
    func nulInID() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Data("id: 1\n\nid: a\0b\ndata:x\n\n".utf8)) == [ServerSentEvent(id: "1", data: "x")])
        #expect(parser.lastEventID == "1")
    }

    @Test("retry counts only when all ASCII digits")
    func retry() throws {
        var parser = ServerSentEventParser()
        let result = try parser.parse(Data("retry:3000\nretry:1000x\nretry: 12\nretry:\nretry:-5\ndata:x\n\ndata:y\n\n".utf8))
        #expect(result == [ServerSentEvent(data: "x", retry: 12), ServerSentEvent(data: "y")])
        #expect(parser.reconnectionTime == 12)
        _ = try parser.parse(Data("retry:٣\nretry:+1\nretry:1.5\n\n".utf8))
        #expect(parser.reconnectionTime == 12)
        _ = try parser.parse(Data("retry:99999999999999999999999\n".utf8))
        #expect(parser.reconnectionTime == Int.max)
    }

    @Test("retry in a block that dispatches nothing still sets the reconnection time")
    func retryWithoutData() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Data("retry: 500\n\n".utf8)).isEmpty)
        #expect(parser.reconnectionTime == 500)
    }

    @Test("One leading BOM is ignored, also split across chunks; a second is part of the name")
    func bom() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(try events(Data(bom + Array("data:1\n\n".utf8))) == [ServerSentEvent(data: "1")])
        #expect(try events(Data(bom + bom + Array("data:1\n\ndata:2\n\n".utf8))) == [ServerSentEvent(data: "2")])
        for cut in 1...3 {
            var parser = ServerSentEventParser()
            var result = try parser.parse(Data(bom[..<cut]))
            result += try parser.parse(Data(bom[cut...] + Array("data:1\n\n".utf8)))
            #expect(result == [ServerSentEvent(data: "1")])
        }
        var parser = ServerSentEventParser()
        for byte in bom { #expect(try parser.parse(Data([byte])).isEmpty) }
        #expect(try parser.parse(Data("data:1\n\n".utf8)) == [ServerSentEvent(data: "1")])
        // A BOM later in the stream is text.
        #expect(try parser.parse(Data(bom + Array("data:2\n\n".utf8))).isEmpty)
    }

    @Test("Bytes that only begin like a BOM are kept as text")
    func falseBOM() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Data([0xEF, 0xBB])).isEmpty)
        #expect(try parser.parse(Data("data:1\n\n".utf8)).isEmpty)
        #expect(try events(Data([0xEF] + Array(":\ndata:1\n\n".utf8))) == [ServerSentEvent(data: "1")])
        #expect(try events(Data("data:\u{FEFF}\n\n".utf8)) == [ServerSentEvent(data: "\u{FEFF}")])
    }

    @Test("Invalid UTF-8 becomes U+FFFD")
    func replacement() throws {
        #expect(try events(Data(Array("data:a".utf8) + [0xFF, 0xE2, 0x82] + Array("\ndata:\u{E9}\n\n".utf8)))
            == [ServerSentEvent(data: "a\u{FFFD}\u{FFFD}\n\u{E9}")])
        #expect(try events(Data(Array("event:".utf8) + [0xC3] + Array("\ndata:x\n\n".utf8)))
            == [ServerSentEvent(event: "\u{FFFD}", data: "x")])
    }

    @Test("finish discards the incomplete event, its id and the unterminated line")
    func finishDiscards() throws {
        var parser = ServerSentEventParser()
        _ = try parser.parse(Data("id: 1\ndata:a\n\nid: 2\nevent: e\ndata: partial\ndata: half".utf8))
        #expect(parser.lastEventID == "1")
        parser.finish()
        #expect(parser.lastEventID == "1")
        #expect(try parser.parse(Data("line\ndata:b\n\n".utf8)) == [ServerSentEvent(id: "1", data: "b")])
    }

    @Test("restart keeps the last event ID and reconnection time, and reads a BOM again")
    func restart() throws {
        var parser = ServerSentEventParser()
        _ = try parser.parse(Data("id: 5\nretry: 40\ndata:a\n\nevent: x\ndata: cut\r".utf8))
        parser.restart()
        #expect(parser.lastEventID == "5")
        #expect(parser.reconnectionTime == 40)
        // The CR before restart does not swallow this LF's line end, nor is "cut" still buffered.
        #expect(try parser.parse(Data([0xEF, 0xBB, 0xBF] + Array("\ndata:b\n\n".utf8)))
            == [ServerSentEvent(id: "5", data: "b")])
    }

    @Test("A line over the limit throws, naming the limit, however it arrives")
    func lineLimit() throws {
        #expect(try events("data:12345\n\n", lineLimit: 10) == [ServerSentEvent(data: "12345")])
        #expect(throws: NetworkError.self) { try events("data:123456\n\n", lineLimit: 10) }
        var parser = ServerSentEventParser(lineLimit: 10)
        _ = try parser.parse(Data("data:1234".utf8))
        _ = try parser.parse(Data("5".utf8))
        do {
            _ = try parser.parse(Data("6".utf8))
            Issue.record("an 11-byte unterminated line was buffered")
        } catch {
            #expect(error.kind == .responseTooLarge)
            #expect(error.message.contains("10 bytes"))
        }
        // The limit does not count the line end, even a CRLF split over chunks.
        var exact = ServerSentEventParser(lineLimit: 10)
        #expect(try exact.parse(Data("data:12345\r".utf8)).isEmpty)
        #expect(try exact.parse(Data("\n\r\n".utf8)) == [ServerSentEvent(data: "12345")])
    }

    /// A stream with every feature: BOM, comments, every line end, ids, retries, types, UTF-8.
    private static let mixedStream: [UInt8] = [0xEF, 0xBB, 0xBF] + Array((
        ": comment\r\nretry: 1500\nid: 1\nevent: add\ndata: h\u{E9}llo\r\ndata:  w\u{1F30D}rld\r\n\r\n"
            + "data\rdata:x:y\r\rid\nid: a\0b\ndata: z\n\nretry: nope\nunknown: 1\ndata\n\n"
            + "id: \u{4E2D}\nretry:7\nevent:\ndata: last\r\n\ndata: dropped").utf8) + [0xFF, 0x0A, 0x0A]

    @Test("Byte-by-byte and random chunks give the same events as one chunk")
    func chunkingIndependence() throws {
        let whole = try fed(Self.mixedStream, sizes: [Self.mixedStream.count])
        #expect(whole.0.count == 6)
        #expect(whole.0.first == ServerSentEvent(id: "1", event: "add", data: "h\u{E9}llo\n w\u{1F30D}rld", retry: 1500))
        #expect(whole.0.last == ServerSentEvent(id: "\u{4E2D}", data: "dropped\u{FFFD}"))
        #expect(whole.1 == "\u{4E2D}")
        #expect(whole.2 == 7)
        let single = try fed(Self.mixedStream, sizes: repeatElement(1, count: Self.mixedStream.count))
        #expect(single.0 == whole.0 && single.1 == whole.1 && single.2 == whole.2)
        var generator = SplitMix64(seed: 23)
        for _ in 0..<200 {
            let sizes = (0..<Self.mixedStream.count).map { _ in Int(generator.next(below: 9)) + 1 }
            let random = try fed(Self.mixedStream, sizes: sizes)
            #expect(random.0 == whole.0 && random.1 == whole.1 && random.2 == whole.2)
        }
    }

    @Test("Empty chunks change nothing")
    func emptyChunks() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Data()).isEmpty)
        #expect(try parser.parse(Data("data:a\r".utf8)).isEmpty)
        #expect(try parser.parse(Data()).isEmpty)
        #expect(try parser.parse(Data("\n\n".utf8)) == [ServerSentEvent(data: "a")])
    }

    @Test("An event describes itself")
    func description() {
        let text = ServerSentEvent(id: "3", event: "add", data: "a\nb", retry: 10).description
        #expect(text == #"ServerSentEvent(event: add, id: "3", retry: 10 ms, data: "a\nb")"#)
    }
}
