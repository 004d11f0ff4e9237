import Foundation
import HTTPCore
import HTTPFeatures
import Testing

/// The event-stream interpretation of the HTML specification, fed whole, byte by byte and in
/// random pieces — the output must not depend on where the chunks were cut.
@Suite("Server-sent event parser: chunkings and edge cases")
struct ServerSentEventChunkingTests {
    /// Parses `text` fed in one chunk, then byte by byte, then in seeded random pieces; expects
    /// the same events each time and returns them.
    private func events(_ bytes: [UInt8], lineLimit: Int = 1 << 20, sourceLocation: SourceLocation = #_sourceLocation) throws -> [ServerSentEvent] {
        func run(_ pieces: [[UInt8]]) throws -> [ServerSentEvent] {
            var parser = ServerSentEventParser(lineLimit: lineLimit)
            var events: [ServerSentEvent] = []
            for piece in pieces { events += try parser.parse(Data(piece)) }
            parser.finish()
            return events
        }
        let whole = try run([bytes])
        #expect(try run(bytes.map { [$0] }) == whole, "byte by byte", sourceLocation: sourceLocation)
        var random = SplitMix64(seed: 23)
        for _ in 0..<20 {
            var pieces: [[UInt8]] = []
            var index = 0
            while index < bytes.count {
                let size = Int(random.next() % 7) + 1
                pieces.append(Array(bytes[index..<min(index + size, bytes.count)]))
                index += size
            }
            #expect(try run(pieces) == whole, "random pieces", sourceLocation: sourceLocation)
        }
        return whole
    }

    private func events(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [ServerSentEvent] {
        try events(Array(text.utf8), sourceLocation: sourceLocation)
    }

    @Test func theSpecificationsExamples() throws {
        // "data: YHOO / data: +2 / data: 10" is one message with three lines.
        #expect(try events("data: YHOO\ndata: +2\ndata: 10\n\n") == [ServerSentEvent(data: "YHOO\n+2\n10")])
        // The id persists; an empty `id` resets it.
        let stream = ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n"
        #expect(try events(stream) == [ServerSentEvent(id: "1", data: "first event"),
                                       ServerSentEvent(data: "second event"),
                                       ServerSentEvent(data: " third event")])
        // `data` alone is an empty line of data; two of them make "\n"; a last block without
        // its blank line is not dispatched.
        #expect(try events("data\n\ndata\ndata\n\ndata:") == [ServerSentEvent(data: ""), ServerSentEvent(data: "\n")])
        // One leading space is removed, not two.
        #expect(try events("data:test\n\ndata: test\n\n") == [ServerSentEvent(data: "test"), ServerSentEvent(data: "test")])
    }

    @Test func lineEndsLFCRLFAndCRAreAllOne() throws {
        let expected = [ServerSentEvent(id: "1", event: "tick", data: "a\nb"), ServerSentEvent(id: "2", data: "c")]
        for end in ["\n", "\r\n", "\r"] {
            let stream = ["id: 1", "event: tick", "data: a", "data: b", "", "id: 2", "data: c", "", ""].joined(separator: end)
            #expect(try events(stream) == expected, "\(end.debugDescription)")
        }
    }

    @Test func aCRLFSplitAcrossChunksIsOneLineEnd() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Data("data: x\r".utf8)).isEmpty)
        #expect(try parser.parse(Data("\n\r".utf8)) == [ServerSentEvent(data: "x")])
        #expect(try parser.parse(Data("\ndata: y\r\r".utf8)) == [ServerSentEvent(data: "y")])
    }

    @Test func commentsAndUnknownFieldsAreIgnored() throws {
        #expect(try events(":hello\nfoo: bar\ndata: a\n: between\n\n") == [ServerSentEvent(data: "a")])
        // A block with only comments or other fields dispatches nothing.
        #expect(try events(": only a comment\n\nevent: x\n\n").isEmpty)
    }

    @Test func theEventTypeIsPerBlock() throws {
        #expect(try events("event: add\ndata: 1\n\ndata: 2\n\nevent:\ndata: 3\n\n") ==
                [ServerSentEvent(event: "add", data: "1"), ServerSentEvent(data: "2"), ServerSentEvent(data: "3")])
    }

    @Test func anIdWithNULIsIgnored() throws {
        #expect(try events(Array("id: 5\ndata: a\n\nid: x".utf8) + [0] + Array("y\ndata: b\n\n".utf8))
                == [ServerSentEvent(id: "5", data: "a"), ServerSentEvent(id: "5", data: "b")])
    }

    @Test func retryTakesDigitsOnly() throws {
        var parser = ServerSentEventParser()
        let first = try parser.parse(Data("retry: 1500\ndata: a\n\n".utf8))
        #expect(first == [ServerSentEvent(data: "a", retry: 1500)])
        #expect(parser.reconnectionTime == 1500)
        let second = try parser.parse(Data("retry: 12a\nretry: -5\nretry:\ndata: b\n\n".utf8))
        #expect(second == [ServerSentEvent(data: "b")])
        #expect(parser.reconnectionTime == 1500)
        // A block without data still sets the reconnection time.
        _ = try parser.parse(Data("retry: 42\n\n".utf8))
        #expect(parser.reconnectionTime == 42)
        _ = try parser.parse(Data("retry: 99999999999999999999999\n\n".utf8))
        #expect(parser.reconnectionTime == Int.max)
    }

    @Test func oneLeadingBOMIsSkippedEvenSplit() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(try events(bom + Array("data: a\n\n".utf8)) == [ServerSentEvent(data: "a")])
        // Only the first: a second BOM is part of the field name, which no field has.
        #expect(try events(bom + bom + Array("data: a\n\ndata: b\n\n".utf8)) == [ServerSentEvent(data: "b")])
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Data([0xEF])).isEmpty)
        #expect(try parser.parse(Data([0xBB])).isEmpty)
        #expect(try parser.parse(Data([0xBF] + Array("data: c\n\n".utf8))) == [ServerSentEvent(data: "c")])
    }

    @Test func invalidUTF8IsReplaced() throws {
        #expect(try events(Array("data: a".utf8) + [0xFF] + Array("b\n\n".utf8)) == [ServerSentEvent(data: "a\u{FFFD}b")])
    }

    @Test func theEndDiscardsTheUnfinishedEvent() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Data("id: 3\ndata: done\n\ndata: half".utf8)) == [ServerSentEvent(id: "3", data: "done")])
        parser.finish()
        #expect(try parser.parse(Data("\n\n".utf8)).isEmpty, "the half event was dropped, not completed later")
    }

    @Test func aRestartKeepsTheLastIDAndTheRetry() throws {
        var parser = ServerSentEventParser()
        _ = try parser.parse(Data("retry: 10\nid: 7\ndata: a\n\ndata: par".utf8))
        parser.restart()
        #expect(parser.lastEventID == "7")
        #expect(parser.reconnectionTime == 10)
        #expect(try parser.parse(Data([0xEF, 0xBB, 0xBF] + Array("data: b\n\n".utf8))) == [ServerSentEvent(id: "7", data: "b")])
    }

    @Test func aLineOverTheLimitFailsBeforeItIsBuffered() throws {
        var parser = ServerSentEventParser(lineLimit: 100)
        #expect(try parser.parse(Data(("data: " + String(repeating: "x", count: 90) + "\n\n").utf8)).count == 1)
        _ = try parser.parse(Data(("data: " + String(repeating: "y", count: 50)).utf8))
        #expect(throws: NetworkError.self) { try parser.parse(Data(String(repeating: "y", count: 60).utf8)) }
        var whole = ServerSentEventParser(lineLimit: 100)
        do throws(NetworkError) {
            _ = try whole.parse(Data(("data: " + String(repeating: "z", count: 200) + "\n\n").utf8))
            Issue.record("a 206-byte line passed a 100-byte limit")
        } catch {
            #expect(error.kind == .responseTooLarge)
            #expect(error.message.contains("100 bytes"))
        }
    }

    @Test func endlessDataWithoutABlankLineIsBoundedToo() throws {
        var parser = ServerSentEventParser(lineLimit: 100)
        do throws(NetworkError) {
            for _ in 0..<20 { _ = try parser.parse(Data("data: 0123456789\n".utf8)) }
            Issue.record("200 bytes of data passed a 100-byte limit")
        } catch {
            #expect(error.kind == .responseTooLarge)
            #expect(error.message.contains("event's data"))
        }
    }
}
