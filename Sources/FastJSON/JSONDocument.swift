import Foundation

/// A parsed document: its UTF-8 bytes and the tape of its values.
///
/// `@unchecked Sendable`: both buffers are written only while `parse` builds
/// the document and are read-only afterwards; the class owns them and frees
/// them in `deinit`, so sharing a document between threads is safe.
final class JSONDocument: @unchecked Sendable {
    let bytes: UnsafeMutablePointer<UInt8>
    let byteCount: Int
    let tape: UnsafeMutablePointer<TapeEntry>
    /// Number of entries, including the synthetic `null` at `nullIndex`.
    let tapeCount: Int

    /// A `null` entry that is not part of the document: the value a
    /// `superDecoder` sees for a missing key.
    var nullIndex: Int { tapeCount - 1 }

    private init(bytes: UnsafeMutablePointer<UInt8>, byteCount: Int, tape: UnsafeMutablePointer<TapeEntry>, tapeCount: Int) {
        self.bytes = bytes
        self.byteCount = byteCount
        self.tape = tape
        self.tapeCount = tapeCount
    }

    deinit {
        bytes.deallocate()
        tape.deallocate()
    }

    /// Parses `data` (UTF-8, or UTF-16/32 detected from a BOM or zero bytes).
    /// Not `strict`: as Foundation's `JSONDecoder` detects encodings and checks
    /// values (at read time). `strict`: as `JSONSerialization` detects
    /// encodings and checks every string and number up front.
    static func parse(_ data: Data, maximumDepth: Int, strict: Bool) throws -> JSONDocument {
        let (bytes, count) = try utf8Copy(of: data, detect: strict ? serializationEncoding : decoderEncoding)
        let scanned: (tape: UnsafeMutablePointer<TapeEntry>, count: Int)
        do {
            scanned = try JSONScanner.scan(bytes, count: count, maximumDepth: maximumDepth)
        } catch {
            bytes.deallocate()
            throw error
        }
        // The scanner always leaves a spare slot for this.
        scanned.tape[scanned.count] = TapeEntry(kind: .null, payload: 0, extra: 0)
        let document = JSONDocument(bytes: bytes, byteCount: count, tape: scanned.tape, tapeCount: scanned.count + 1)
        if strict { try document.validateAll() }
        return document
    }

    /// Copies the input as UTF-8 into a buffer the document owns (one spare
    /// byte at the end), dropping a BOM.
    private static func utf8Copy(
        of data: Data, detect: (UnsafeRawBufferPointer) -> (String.Encoding, Int)
    ) throws -> (UnsafeMutablePointer<UInt8>, Int) {
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> (UnsafeMutablePointer<UInt8>, Int) in
            let (encoding, bomLength) = detect(raw)
            let body = UnsafeRawBufferPointer(rebasing: raw[bomLength...])
            if encoding == .utf8 {
                let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: body.count + 1)
                if let source = body.baseAddress, body.count > 0 {
                    copy.initialize(from: source.assumingMemoryBound(to: UInt8.self), count: body.count)
                }
                copy[body.count] = 0
                return (copy, body.count)
            }
            guard let string = String(bytes: body, encoding: encoding) else {
                throw JSONParseError(.cannotConvertInputToUTF8)
            }
            let utf8 = Array(string.utf8)
            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: utf8.count + 1)
            copy.initialize(from: utf8, count: utf8.count)
            copy[utf8.count] = 0
            return (copy, utf8.count)
        }
    }

    /// Foundation `JSONDecoder`'s detection (RFC 4627 section 3, BOMs first).
    private static func decoderEncoding(_ raw: UnsafeRawBufferPointer) -> (String.Encoding, Int) {
        func byte(_ i: Int) -> UInt8? { i < raw.count ? raw[i] : nil }
        switch (byte(0), byte(1), byte(2), byte(3)) {
        case (0, 0, 0xFE, 0xFF): return (.utf32BigEndian, 4)
        case (0xFE, 0xFF, 0, 0): return (.utf32LittleEndian, 4)
        case (0xFE, 0xFF, _, _): return (.utf16BigEndian, 2)
        case (0xFF, 0xFE, _, _): return (.utf16LittleEndian, 2)
        case (0xEF, 0xBB, 0xBF, _): return (.utf8, 3)
        case let (0, 0, 0, .some(nz)) where nz != 0: return (.utf32BigEndian, 0)
        case let (0, .some(nz1), 0, .some(nz2)) where nz1 != 0 && nz2 != 0: return (.utf16BigEndian, 0)
        case let (.some(nz), 0, 0, 0) where nz != 0: return (.utf32LittleEndian, 0)
        case let (.some(nz1), 0, .some(nz2), 0) where nz1 != 0 && nz2 != 0: return (.utf16LittleEndian, 0)
        case let (0, .some(nz), nil, nil) where nz != 0: return (.utf16BigEndian, 0)
        case let (.some(nz), 0, nil, nil) where nz != 0: return (.utf16LittleEndian, 0)
        default: return (.utf8, 0)
        }
    }

    /// `JSONSerialization`'s detection on Linux: BOMs only in inputs of four
    /// bytes or more, then zero-byte patterns.
    private static func serializationEncoding(_ raw: UnsafeRawBufferPointer) -> (String.Encoding, Int) {
        if raw.count >= 4 {
            if raw.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
            if raw.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return (.utf32BigEndian, 4) }
            if raw.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return (.utf32LittleEndian, 4) }
            if raw.starts(with: [0xFF, 0xFE]) { return (.utf16LittleEndian, 2) }
            if raw.starts(with: [0xFE, 0xFF]) { return (.utf16BigEndian, 2) }
            switch (raw[0], raw[1], raw[2], raw[3]) {
            case (0, 0, 0, _): return (.utf32BigEndian, 0)
            case (_, 0, 0, 0): return (.utf32LittleEndian, 0)
            case (0, _, 0, _): return (.utf16BigEndian, 0)
            case (_, 0, _, 0): return (.utf16LittleEndian, 0)
            default: break
            }
        } else if raw.count >= 2 {
            switch (raw[0], raw[1]) {
            case (0, _): return (.utf16BigEndian, 0)
            case (_, 0): return (.utf16LittleEndian, 0)
            default: break
            }
        }
        return (.utf8, 0)
    }

    // MARK: Reading values

    @inline(__always)
    func entry(_ index: Int) -> TapeEntry { tape[index] }

    /// Index of the value after the one at `index` (skipping a container's contents).
    @inline(__always)
    func next(after index: Int) -> Int {
        let entry = tape[index]
        return entry.isContainer ? entry.end : index + 1
    }

    /// The string at `index`; the caller has checked the kind.
    @inline(__always)
    func string(at index: Int) throws -> String {
        let entry = tape[index]
        return try JSONStringDecoder.decode(bytes + entry.offset, length: entry.length, flags: entry.header, documentOffset: entry.offset)
    }

    /// The exact source text of the value at `index`.
    func rawBytes(at index: Int) -> UnsafeBufferPointer<UInt8> {
        let entry = tape[index]
        switch entry.kind {
        case .string:
            return UnsafeBufferPointer(start: bytes + entry.offset - 1, count: entry.length + 2)
        case .array, .object:
            return UnsafeBufferPointer(start: bytes + entry.offset, count: closingBracket(of: index) + 1 - entry.offset)
        default:
            return UnsafeBufferPointer(start: bytes + entry.offset, count: entry.length)
        }
    }

    /// Byte index of a container's closing bracket. Only whitespace and a
    /// trailing comma can sit between its last value and the bracket, so a
    /// forward search from there is safe.
    private func closingBracket(of index: Int) -> Int {
        let entry = tape[index]
        let close = entry.kind == .array ? UInt8(ascii: "]") : UInt8(ascii: "}")
        var i = entry.offset + 1
        if entry.end > index + 1 {
            var child = index + 1
            var last = child
            while child < entry.end {
                last = child
                child = next(after: child)
            }
            let lastEntry = tape[last]
            if lastEntry.isContainer {
                i = closingBracket(of: last) + 1
            } else {
                i = lastEntry.offset + lastEntry.length + (lastEntry.kind == .string ? 1 : 0)
            }
        }
        while i < byteCount, bytes[i] != close { i += 1 }
        return min(i, byteCount - 1)
    }

    // MARK: Strict validation

    /// Checks every string and the grammar of every number, as
    /// `JSONSerialization`'s parser does.
    private func validateAll() throws {
        var longest = 0
        for index in 0..<tapeCount where tape[index].kind == .string {
            longest = max(longest, tape[index].length)
        }
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: longest + 1)
        defer { scratch.deallocate() }
        for index in 0..<tapeCount {
            let entry = tape[index]
            switch entry.kind {
            case .string:
                try JSONStringDecoder.validate(
                    bytes + entry.offset, length: entry.length, flags: entry.header, documentOffset: entry.offset, scratch: scratch)
            case .number:
                // Whether the value fits a Double is checked on conversion
                // (`JSONValue.jsonObject(with:)`), as `JSONSerialization` checks
                // it only for values that survive duplicate keys.
                guard entry.has(TapeEntry.validNumber) else { throw JSONParseError(.invalidNumber, offset: entry.offset) }
            default:
                break
            }
        }
    }
}
