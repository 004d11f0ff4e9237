import Foundation
import HTTPCore
import HTTPFeatures
import Testing

/// Lines on LF and CRLF, chunk by chunk, with the bound on a line.
@Suite("Line splitter: chunkings and limits")
struct LineSplitterChunkingTests {
    private func lines(_ pieces: [String], limit: Int = 1 << 20) throws -> [String] {
        var splitter = LineSplitter(limit: limit)
        var lines: [Data] = []
        for piece in pieces { lines += try splitter.split(Data(piece.utf8)) }
        if let last = try splitter.finish() { lines.append(last) }
        return lines.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func lfAndCRLFEndLinesAndALoneCRStays() throws {
        #expect(try lines(["a\nb\r\nc\rd\n"]) == ["a", "b", "c\rd"])
        #expect(try lines(["\n\r\n"]) == ["", ""])
    }

    @Test func theCutDoesNotMatter() throws {
        let text = "first\r\nsecond\nthird\r\n\r\nfifth"
        let whole = try lines([text])
        #expect(whole == ["first", "second", "third", "", "fifth"])
        #expect(try lines(text.map { String($0) }) == whole)
        var random = SplitMix64(seed: 5)
        for _ in 0..<20 {
            var pieces: [String] = []
            var rest = Substring(text)
            while !rest.isEmpty {
                let size = Int(random.next() % 4) + 1
                pieces.append(String(rest.prefix(size)))
                rest = rest.dropFirst(size)
            }
            #expect(try lines(pieces) == whole)
        }
    }

    @Test func aCRLFSplitAcrossChunks() throws {
        var splitter = LineSplitter()
        #expect(try splitter.split(Data("x\r".utf8)).isEmpty)
        #expect(try splitter.split(Data("\ny".utf8)) == [Data("x".utf8)])
        #expect(try splitter.finish() == Data("y".utf8))
    }

    @Test func lineNumbersCountEveryLine() throws {
        var splitter = LineSplitter()
        _ = try splitter.split(Data("a\n\nb\n".utf8))
        #expect(splitter.lineNumber == 3)
        _ = try splitter.split(Data("c".utf8))
        _ = try splitter.finish()
        #expect(splitter.lineNumber == 4)
        #expect(try splitter.finish() == nil)
    }

    @Test func aLongLineFailsAsItGrows() throws {
        var splitter = LineSplitter(limit: 10)
        #expect(try splitter.split(Data("0123456789\n".utf8)).count == 1, "exactly the limit passes")
        // A CR at a chunk's end may be half of a CRLF: it does not count against the limit.
        #expect(try splitter.split(Data("0123456789\r".utf8)).isEmpty)
        #expect(try splitter.split(Data("\n".utf8)) == [Data("0123456789".utf8)])
        _ = try splitter.split(Data("01234".utf8))
        do throws(NetworkError) {
            _ = try splitter.split(Data("567890".utf8))
            Issue.record("an 11-byte line passed a 10-byte limit")
        } catch {
            #expect(error.kind == .responseTooLarge)
            #expect(error.message == "line 3 is longer than 10 bytes")
        }
    }
}
