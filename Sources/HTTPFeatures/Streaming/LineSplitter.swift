import Foundation
import HTTPCore

/// Splits a byte stream into lines on LF and CRLF, chunk by chunk, within a bound on the length
/// of one line. A lone CR stays in its line.
public struct LineSplitter: Sendable {
    /// Bytes in one line, without its end.
    public let limit: Int
    /// Lines returned so far: the 1-based number of the last one.
    public private(set) var lineNumber = 0
    /// The start of a line whose end has not arrived.
    private var partial = Data()

    /// - Parameter limit: bytes in one line, without its end; a longer line fails with
    ///   ``NetworkError/Kind/responseTooLarge``. Default 1 MiB.
    public init(limit: Int = 1 << 20) {
        self.limit = max(limit, 1)
    }

    /// The lines `chunk` completes, their ends removed.
    /// - Throws: ``NetworkError/Kind/responseTooLarge`` as soon as an unfinished line is longer
    ///   than ``limit`` (it is never buffered beyond that).
    public mutating func split(_ chunk: Data) throws(NetworkError) -> [Data] {
        var lines: [Data] = []
        var start = chunk.startIndex
        while let newline = chunk[start...].firstIndex(of: 0x0A) {
            var line: Data
            if partial.isEmpty {
                line = chunk[start..<newline]
            } else {
                line = partial
                line.append(chunk[start..<newline])
                partial = Data()
            }
            if line.last == 0x0D { line.removeLast() }
            try check(line.count, ending: true)
            lineNumber += 1
            // A slice keeps the chunk's indices; a line of its own starts at 0.
            lines.append(Data(line))
            start = newline + 1
        }
        if start < chunk.endIndex {
            partial.append(chunk[start...])
            // A CR at the end may be the first half of a CRLF: it does not count yet.
            try check(partial.last == 0x0D ? partial.count - 1 : partial.count, ending: false)
        }
        return lines
    }

    /// The last line when the stream ended without a line end; `nil` when nothing is left.
    public mutating func finish() throws(NetworkError) -> Data? {
        guard !partial.isEmpty else { return nil }
        defer { partial = Data() }
        lineNumber += 1
        return partial
    }

    private func check(_ length: Int, ending: Bool) throws(NetworkError) {
        guard length > limit else { return }
        throw NetworkError(.responseTooLarge, "line \(lineNumber + 1) is longer than \(limit) bytes")
    }
}
