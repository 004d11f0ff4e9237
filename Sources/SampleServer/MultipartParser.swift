import Glibc

/// A streaming `multipart/form-data` parser (RFC 7578 / RFC 2046): fed the body in pieces of
/// any size, it reports each part's headers, its content in pieces, and its end, holding no
/// more than one input piece plus a delimiter's length. That is how /upload hashes large
/// files without buffering them. Lives on one thread.
final class MultipartParser {
    /// A part's headers as reported when it begins.
    struct Part {
        var headers: [(name: String, value: String)]
        /// The `name` parameter of Content-Disposition.
        var name: String?
        /// The `filename` (or decoded `filename*`) parameter of Content-Disposition.
        var filename: String?
        /// The part's Content-Type header, if it has one.
        var contentType: String?
    }

    /// The body is not valid multipart.
    struct Malformed: Error {
        let reason: String
    }

    private enum State {
        case preamble, afterDelimiter, headers, data, epilogue
    }

    /// `CRLF--boundary`: every delimiter, the first one included because the buffer starts with CRLF.
    private let delimiter: [UInt8]
    private var buffer: [UInt8] = [0x0d, 0x0a]
    private var state = State.preamble
    private(set) var partCount = 0

    var onPartBegin: (Part) throws -> Void = { _ in }
    var onPartData: (UnsafeRawBufferPointer) throws -> Void = { _ in }
    var onPartEnd: () throws -> Void = {}

    /// The most parts accepted, and the largest header block of one part.
    static let maxParts = 10_000
    static let maxPartHeaderSize = 16 * 1024

    /// A parser for `boundary` (1–70 characters per RFC 2046); nil for an invalid boundary.
    init?(boundary: String) {
        let bytes = Array(boundary.utf8)
        guard (1...70).contains(bytes.count), !bytes.contains(0x0d), !bytes.contains(0x0a) else { return nil }
        delimiter = [0x0d, 0x0a, 0x2d, 0x2d] + bytes
    }

    /// Consumes the next piece of the body.
    func feed(_ bytes: UnsafeRawBufferPointer) throws {
        buffer.append(contentsOf: bytes)
        var position = 0
        defer { buffer.removeFirst(position) }
        while try step(&position) {}
    }

    /// Ends the body; throws unless the closing delimiter was seen.
    func finish() throws {
        guard state == .epilogue else { throw Malformed(reason: "missing closing boundary") }
    }

    /// Advances through the buffer; `false` when more input is needed.
    private func step(_ position: inout Int) throws -> Bool {
        switch state {
        case .preamble:
            if let found = find(delimiter, from: position) {
                position = found + delimiter.count
                state = .afterDelimiter
                return true
            }
            position = max(position, buffer.count - (delimiter.count - 1))
            return false

        case .afterDelimiter:
            guard buffer.count - position >= 2 else { return false }
            if buffer[position] == 0x2d && buffer[position + 1] == 0x2d {
                position += 2
                state = .epilogue
                return true
            }
            guard let lineEnd = find([0x0d, 0x0a], from: position) else {
                if buffer.count - position > 1024 { throw Malformed(reason: "garbage after boundary") }
                return false
            }
            // Only transport padding (spaces, tabs) may follow a delimiter on its line.
            guard buffer[position..<lineEnd].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else {
                throw Malformed(reason: "garbage after boundary")
            }
            position = lineEnd + 2
            state = .headers
            return true

        case .headers:
            let blockStart = position
            let blockEnd: Int
            if buffer.count - position >= 2 && buffer[position] == 0x0d && buffer[position + 1] == 0x0a {
                // A part without headers: the delimiter line is followed by an empty line.
                blockEnd = position
                position += 2
            } else if let found = find([0x0d, 0x0a, 0x0d, 0x0a], from: position) {
                blockEnd = found
                position = found + 4
            } else {
                if buffer.count - position > Self.maxPartHeaderSize { throw Malformed(reason: "part headers too large") }
                return false
            }
            guard blockEnd - blockStart <= Self.maxPartHeaderSize else { throw Malformed(reason: "part headers too large") }
            partCount += 1
            guard partCount <= Self.maxParts else { throw Malformed(reason: "too many parts") }
            try onPartBegin(try parsePart(buffer[blockStart..<blockEnd]))
            state = .data
            return true

        case .data:
            if let found = find(delimiter, from: position) {
                try emit(position..<found)
                try onPartEnd()
                position = found + delimiter.count
                state = .afterDelimiter
                return true
            }
            let safeEnd = buffer.count - (delimiter.count - 1)
            if safeEnd > position {
                try emit(position..<safeEnd)
                position = safeEnd
            }
            return false

        case .epilogue:
            position = buffer.count
            return false
        }
    }

    /// The offset of the first occurrence of `needle` at or after `from`. `memchr` and
    /// `memcmp` because a byte-by-byte Swift loop is slow in debug builds, which is how the
    /// test suites run.
    private func find(_ needle: [UInt8], from: Int) -> Int? {
        guard let first = needle.first, from < buffer.count else { return nil }
        return buffer.withUnsafeBytes { haystack -> Int? in
            needle.withUnsafeBytes { pattern -> Int? in
                guard let base = haystack.baseAddress, let patternBase = pattern.baseAddress else { return nil }
                var offset = from
                while haystack.count - offset >= pattern.count {
                    guard let hit = memchr(base + offset, Int32(first), haystack.count - offset - pattern.count + 1) else {
                        return nil
                    }
                    let position = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + position, patternBase, pattern.count) == 0 { return position }
                    offset = position + 1
                }
                return nil
            }
        }
    }

    private func emit(_ range: Range<Int>) throws {
        guard !range.isEmpty else { return }
        try buffer.withUnsafeBytes { raw in
            try onPartData(UnsafeRawBufferPointer(rebasing: raw[range]))
        }
    }

    private func parsePart(_ block: ArraySlice<UInt8>) throws -> Part {
        var part = Part(headers: [], name: nil, filename: nil, contentType: nil)
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = block.startIndex
        var index = block.startIndex
        while index < block.endIndex {
            if block[index] == 0x0d, index + 1 < block.endIndex, block[index + 1] == 0x0a {
                lines.append(block[lineStart..<index])
                index += 2
                lineStart = index
            } else {
                index += 1
            }
        }
        lines.append(block[lineStart..<block.endIndex])
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: 0x3a), colon > line.startIndex else {
                throw Malformed(reason: "malformed part header")
            }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self).trimmingOWS()
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingOWS()
            part.headers.append((name, value))
            switch name.lowercased() {
            case "content-disposition":
                let parameters = HeaderParameters.parse(value)
                part.name = parameters["name"]
                part.filename = parameters["filename*"].flatMap(Self.decodeExtendedValue) ?? parameters["filename"]
            case "content-type":
                part.contentType = value
            default:
                break
            }
        }
        return part
    }

    /// Decodes an RFC 8187 value such as `UTF-8''na%C3%AFve.txt`; nil if it is not one.
    private static func decodeExtendedValue(_ value: String) -> String? {
        let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3, pieces[0].lowercased() == "utf-8" else { return nil }
        return QueryItems.decode(pieces[2], plusIsSpace: false)
    }
}
