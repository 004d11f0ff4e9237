import Foundation
import HTTPCore
import HTTPFeatures
import Testing
import TestSupport

/// The line splitter for line-delimited streams (issue 23).
@Suite("Line splitter")
struct LineSplitterTests {
    private func strings(_ lines: [Data]) -> [String] {
        lines.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("LF and CRLF end lines; a lone CR stays; empty lines are kept")
    func lineEnds() throws {
        var splitter = LineSplitter()
        #expect(strings(try splitter.split(Data("a\nb\r\n\nc\rd\n\r\ntail".utf8))) == ["a", "b", "", "c\rd", ""])
        #expect(splitter.lineNumber == 5)
        #expect(try splitter.finish().map { String(decoding: $0, as: UTF8.self) } == "tail")
        #expect(splitter.lineNumber == 6)
        #expect(try splitter.finish() == nil)
    }

    @Test("A CRLF split across chunks ends one line, its CR removed")
    func crlfAcrossChunks() throws {
        var splitter = LineSplitter()
        #expect(try splitter.split(Data("one\r".utf8)).isEmpty)
        #expect(strings(try splitter.split(Data("\ntwo\r".utf8))) == ["one"])
        #expect(strings(try splitter.split(Data("x\n".utf8))) == ["two\rx"])
    }

    @Test("finish returns nil for nothing, and a trailing CR with the last line")
    func finish() throws {
        var empty = LineSplitter()
        #expect(try empty.split(Data("a\n".utf8)).count == 1)
        #expect(try empty.finish() == nil)
        var cr = LineSplitter()
        _ = try cr.split(Data("end\r".utf8))
        #expect(try cr.finish() == Data("end\r".utf8))
    }

    @Test("A line over the limit throws with its number and the limit, as soon as it is buffered")
    func limit() throws {
        var splitter = LineSplitter(limit: 4)
        #expect(strings(try splitter.split(Data("1234\n1\r".utf8))) == ["1234"])
        #expect(strings(try splitter.split(Data("2\r\n".utf8))) == ["1\r2"])
        _ = try splitter.split(Data("123".utf8))
        _ = try splitter.split(Data("4\r".utf8))
        do {
            _ = try splitter.split(Data("5".utf8))
            Issue.record("a 6-byte partial line was buffered")
        } catch {
            #expect(error.kind == .responseTooLarge)
            #expect(error.message == "line 3 is longer than 4 bytes")
        }
        var whole = LineSplitter(limit: 4)
        #expect(throws: NetworkError(.responseTooLarge, "line 2 is longer than 4 bytes")) {
            try whole.split(Data("ok\n12345\n".utf8))
        }
        var last = LineSplitter(limit: 4)
        _ = try last.split(Data("1234\r".utf8))
        #expect(throws: NetworkError(.responseTooLarge, "line 1 is longer than 4 bytes")) { try last.finish() }
    }

    @Test("Byte-by-byte and random chunks give the same lines as one chunk")
    func chunkingIndependence() throws {
        let stream = Array("{\"a\":1}\r\n\r\n{\"b\":\"\u{E9}\r\"}\n\n\r\rx\r\n\u{1F30D}\nlast\r".utf8)
        func run(_ sizes: [Int]) throws -> ([Data], Int) {
            var splitter = LineSplitter()
            var lines: [Data] = []
            var start = 0
            for size in sizes where start < stream.count {
                let stop = min(stream.count, start + size)
                lines += try splitter.split(Data(stream[start..<stop]))
                start = stop
            }
            if let tail = try splitter.finish() { lines.append(tail) }
            return (lines, splitter.lineNumber)
        }
        let whole = try run([stream.count])
        #expect(strings(whole.0) == ["{\"a\":1}", "", "{\"b\":\"\u{E9}\r\"}", "", "\r\rx", "\u{1F30D}", "last\r"])
        #expect(whole.1 == 7)
        let single = try run(Array(repeating: 1, count: stream.count))
        #expect(single.0 == whole.0 && single.1 == whole.1)
        var generator = SplitMix64(seed: 2323)
        for _ in 0..<200 {
            let random = try run((0..<stream.count).map { _ in Int(generator.next(below: 7)) + 1 })
            #expect(random.0 == whole.0 && random.1 == whole.1)
        }
    }
}
