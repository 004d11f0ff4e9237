import Foundation
import HTTPCore

/// Splits a byte stream that arrives in chunks into lines ending in LF or CRLF.
///
/// Works on bytes, so it never decodes text; a CR not followed by LF stays in its line. The
/// partial line it buffers between chunks is bounded by the limit. After it throws, the stream
/// is broken: make a new splitter for the next one.
public struct LineSplitter: Sendable {
    /// The most bytes one line may have, without its end.
    private let limit: Int
    /// The bytes of the line still unterminated at the end of the last chunk (CR included).
    private var partial: [UInt8] = []

    /// Makes a splitter; `limit` is the most bytes in one line, without its end (default 1 MiB).
    public init(limit: Int = 1 << 20) {
        self.limit = max(0, limit)
    }

    /// Lines returned so far: the 1-based number of the last one, 0 (the start) before any.
    public private(set) var lineNumber: Int = 0

    /// The lines `chunk` completes, without their LF or CRLF; empty lines included.
    /// - Throws: ``NetworkError/Kind/responseTooLarge`` as soon as a line, complete or still
    ///   buffered, is longer than the limit (lines completed earlier in the chunk go with it).
    public mutating func split(_ chunk: Data) throws(NetworkError) -> [Data] {
        var lines: [Data] = []
        var count = lineNumber
        let tooLong = chunk.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Bool in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
            let end = raw.count
            var start = 0
            while start < end {
                guard let found = memchr(base + start, 0x0A, end - start) else {
                    partial.append(contentsOf: UnsafeBufferPointer(start: base + start, count: end - start))
                    // A trailing CR may be the first half of CRLF, so it does not count yet.
                    let length = partial.last == 0x0D ? partial.count - 1 : partial.count
                    return length > limit
                }
                let lf = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                var line: Data
                if partial.isEmpty {
                    var stop = lf
                    if stop > start, base[stop - 1] == 0x0D { stop -= 1 }
                    if stop - start > limit { return true }
                    line = Data(bytes: base + start, count: stop - start)
                } else {
                    partial.append(contentsOf: UnsafeBufferPointer(start: base + start, count: lf - start))
                    if partial.last == 0x0D { partial.removeLast() }
                    if partial.count > limit { return true }
                    line = Data(partial)
                    partial.removeAll(keepingCapacity: true)
                }
                count += 1
                lines.append(line)
                start = lf + 1
            }
            return false
        }
        if tooLong { throw overflow(at: count + 1) }
        lineNumber = count
        return lines
    }

    /// Ends the stream: the final unterminated line (a trailing CR kept, as no LF followed),
    /// or `nil` when there is none. The splitter then starts a new stream.
    /// - Throws: ``NetworkError/Kind/responseTooLarge`` when that line is longer than the limit.
    public mutating func finish() throws(NetworkError) -> Data? {
        defer { partial.removeAll() }
        guard !partial.isEmpty else { return nil }
        if partial.count > limit { throw overflow(at: lineNumber + 1) }
        lineNumber += 1
        return Data(partial)
    }

    private func overflow(at line: Int) -> NetworkError {
        NetworkError(.responseTooLarge, "line \(line) is longer than \(limit) bytes")
    }
}
