// One pass over UTF-8 bytes that checks the document's structure and records
// every value in a tape. What it checks, and what it leaves for the moment a
// value is read, mirrors Foundation's JSONScanner so that both decoders fail
// on the same inputs in the same way.

/// Builds the tape of a document.
///
/// Checked here (errors for the whole document, whatever is later decoded):
/// brackets, commas, colons, literals, string boundaries, the four bytes after
/// `\u`, the nesting limit, and trailing garbage. Trailing commas are accepted,
/// as Foundation accepts them. Left for read time (errors only when that value
/// is decoded): UTF-8 validity, escapes, control characters, the number grammar.
struct JSONScanner {
    private let bytes: UnsafePointer<UInt8>
    private let count: Int
    private let maximumDepth: Int
    private var tape: UnsafeMutablePointer<TapeEntry>
    private var capacity: Int
    private var tapeCount = 0

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    /// Scans `count` bytes and returns the tape (owned by the caller, with one
    /// spare slot after `count` entries) or throws the first structural error.
    static func scan(
        _ bytes: UnsafePointer<UInt8>, count: Int, maximumDepth: Int
    ) throws -> (tape: UnsafeMutablePointer<TapeEntry>, count: Int) {
        // Container entries hold tape indices and counts in 32 bits each.
        guard count < Int(UInt32.max) else { throw JSONParseError(.documentTooLarge) }
        var scanner = JSONScanner(bytes: bytes, count: count, maximumDepth: maximumDepth)
        do {
            try scanner.run()
        } catch {
            scanner.tape.deallocate()
            throw error
        }
        return (scanner.tape, scanner.tapeCount)
    }

    private init(bytes: UnsafePointer<UInt8>, count: Int, maximumDepth: Int) {
        self.bytes = bytes
        self.count = count
        self.maximumDepth = maximumDepth
        // Typical documents need one entry per 8-12 bytes; growth covers the rest.
        capacity = count / 8 + 16
        tape = .allocate(capacity: capacity)
    }

    @inline(__always)
    private mutating func append(_ entry: TapeEntry) -> Int {
        // Keep one slot spare for the synthetic null the document appends.
        if tapeCount + 1 >= capacity { grow() }
        tape[tapeCount] = entry
        tapeCount += 1
        return tapeCount - 1
    }

    private mutating func grow() {
        let newCapacity = capacity * 2
        let newTape = UnsafeMutablePointer<TapeEntry>.allocate(capacity: newCapacity)
        newTape.moveInitialize(from: tape, count: tapeCount)
        tape.deallocate()
        tape = newTape
        capacity = newCapacity
    }

    @inline(__always)
    private func skipWhitespace(from start: Int) -> Int {
        var i = start
        while i < count {
            let byte = bytes[i]
            // Space, tab, LF, CR as a bitmap over 0...32.
            guard byte <= 0x20, (UInt64(0x1_0000_2600) >> UInt64(byte)) & 1 != 0 else { return i }
            i &+= 1
        }
        return i
    }

    private func unexpected(at i: Int) -> JSONParseError {
        i < count ? JSONParseError(.unexpectedCharacter(bytes[i]), offset: i) : JSONParseError(.unexpectedEndOfFile, offset: i)
    }

    // swiftlint:disable:next cyclomatic_complexity function_body_length
    private mutating func run() throws {
        var i = skipWhitespace(from: 0)
        guard i < count else { throw JSONParseError(.unexpectedEndOfFile, offset: i) }
        // The innermost open container; its `extra` holds its parent's index + 1
        // until it closes, so no separate stack is needed.
        var current = -1
        var depth = 0
        // Whether `current` is an object, kept in a register rather than
        // re-read from the tape after every value.
        var inObject = false

        parsing: while true {
            // A value starts at i: i < count and bytes[i] is not whitespace.
            let byte = bytes[i]
            switch byte {
            case Self.quote:
                i = try scanString(at: i).next
            case UInt8(ascii: "{"):
                guard depth < maximumDepth else {
                    throw JSONParseError(.tooManyNestedContainers(limit: maximumDepth), offset: i)
                }
                current = append(TapeEntry(kind: .object, flags: TapeEntry.simpleKeys, payload: i, extra: current + 1))
                inObject = true
                depth += 1
                i = skipWhitespace(from: i + 1)
                guard i < count else { throw JSONParseError(.unexpectedEndOfFile, offset: i) }
                if bytes[i] == UInt8(ascii: "}") {
                    i += 1
                    close(&current, &depth, &inObject)
                } else {
                    i = try scanKey(at: i, object: current)
                    continue parsing
                }
            case UInt8(ascii: "["):
                guard depth < maximumDepth else {
                    throw JSONParseError(.tooManyNestedContainers(limit: maximumDepth), offset: i)
                }
                current = append(TapeEntry(kind: .array, payload: i, extra: current + 1))
                inObject = false
                depth += 1
                i = skipWhitespace(from: i + 1)
                guard i < count else { throw JSONParseError(.unexpectedEndOfFile, offset: i) }
                if bytes[i] == UInt8(ascii: "]") {
                    i += 1
                    close(&current, &depth, &inObject)
                } else {
                    continue parsing
                }
            case UInt8(ascii: "t"):
                try expect(0x6575_7274, length: 4, at: i)  // "true"
                _ = append(TapeEntry(kind: .true, payload: i, extra: 4))
                i += 4
            case UInt8(ascii: "f"):
                try expect(0x65_736C_6166, length: 5, at: i)  // "false"
                _ = append(TapeEntry(kind: .false, payload: i, extra: 5))
                i += 5
            case UInt8(ascii: "n"):
                try expect(0x6C6C_756E, length: 4, at: i)  // "null"
                _ = append(TapeEntry(kind: .null, payload: i, extra: 4))
                i += 4
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                i = scanNumber(at: i)
            default:
                throw JSONParseError(.unexpectedCharacter(byte), offset: i)
            }

            // A value just ended at i: count it and find what follows it.
            while true {
                guard current >= 0 else { break parsing }
                tape[current].extra &+= 1 << 32
                i = skipWhitespace(from: i)
                guard i < count else { throw JSONParseError(.unexpectedEndOfFile, offset: i) }
                let next = bytes[i]
                if inObject {
                    if next == UInt8(ascii: ",") {
                        i = skipWhitespace(from: i + 1)
                        guard i < count else { throw JSONParseError(.unexpectedEndOfFile, offset: i) }
                        if bytes[i] == UInt8(ascii: "}") {
                            i += 1
                            close(&current, &depth, &inObject)
                            continue
                        }
                        i = try scanKey(at: i, object: current)
                        continue parsing
                    } else if next == UInt8(ascii: "}") {
                        i += 1
                        close(&current, &depth, &inObject)
                    } else {
                        throw JSONParseError(.unexpectedCharacter(next), offset: i)
                    }
                } else {
                    if next == UInt8(ascii: ",") {
                        i = skipWhitespace(from: i + 1)
                        guard i < count else { throw JSONParseError(.unexpectedEndOfFile, offset: i) }
                        if bytes[i] == UInt8(ascii: "]") {
                            i += 1
                            close(&current, &depth, &inObject)
                            continue
                        }
                        continue parsing
                    } else if next == UInt8(ascii: "]") {
                        i += 1
                        close(&current, &depth, &inObject)
                    } else {
                        throw JSONParseError(.unexpectedCharacter(next), offset: i)
                    }
                }
            }
        }

        i = skipWhitespace(from: i)
        if i < count { throw JSONParseError(.unexpectedCharacter(bytes[i]), offset: i) }
    }

    @inline(__always)
    private mutating func close(_ current: inout Int, _ depth: inout Int, _ inObject: inout Bool) {
        let extra = tape[current].extra
        let parentPlusOne = Int(truncatingIfNeeded: extra & 0xFFFF_FFFF)
        tape[current].extra = (extra & ~0xFFFF_FFFF) | UInt64(truncatingIfNeeded: tapeCount)
        current = parentPlusOne - 1
        inObject = current >= 0 && tape[current].rawKind == UInt64(TapeEntry.Kind.object.rawValue)
        depth -= 1
    }

    /// Checks a literal packed little-endian in `word`.
    @inline(__always)
    private func expect(_ word: UInt64, length: Int, at i: Int) throws {
        var k = 0
        while k < length {
            guard i + k < count else { throw JSONParseError(.unexpectedEndOfFile, offset: i + k) }
            guard bytes[i + k] == UInt8(truncatingIfNeeded: word >> UInt64(k * 8)) else {
                throw JSONParseError(.unexpectedCharacter(bytes[i + k]), offset: i + k)
            }
            k += 1
        }
    }

    /// Scans a member's key, the colon and the whitespace before its value;
    /// returns the index of the value's first byte.
    @inline(__always)
    private mutating func scanKey(at start: Int, object: Int) throws -> Int {
        guard bytes[start] == Self.quote else { throw JSONParseError(.unexpectedCharacter(bytes[start]), offset: start) }
        let (next, simpleASCII) = try scanString(at: start)
        if !simpleASCII { tape[object].header &= ~TapeEntry.simpleKeys }
        var i = skipWhitespace(from: next)
        guard i < count else { throw JSONParseError(.unexpectedEndOfFile, offset: i) }
        guard bytes[i] == UInt8(ascii: ":") else { throw JSONParseError(.unexpectedCharacter(bytes[i]), offset: i) }
        i = skipWhitespace(from: i + 1)
        guard i < count else { throw JSONParseError(.unexpectedEndOfFile, offset: i) }
        return i
    }

    /// Bytes that stop the fast string loop, one high bit per byte: `"`, `\`, and
    /// anything below 0x20. Each term can only misfire above a true hit, so the
    /// lowest set bit is always exact.
    @inline(__always)
    private static func stopMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* 0x22)
        let slashes = word ^ (ones &* 0x5C)
        let hitQuote = (quotes &- ones) & ~quotes
        let hitSlash = (slashes &- ones) & ~slashes
        let hitControl = (word &- ones &* 0x20) & ~word
        return (hitQuote | hitSlash | hitControl) & highs
    }

    /// Scans the string whose opening quote is at `quoteIndex`, appends its
    /// entry, and returns the index after the closing quote.
    @inline(__always)
    private mutating func scanString(at quoteIndex: Int) throws -> (next: Int, simpleASCII: Bool) {
        let start = quoteIndex + 1
        var i = start
        var simple = true
        var seen: UInt64 = 0  // OR of the bytes passed, to spot non-ASCII
        while true {
            while i &+ 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(bytes + i).loadUnaligned(as: UInt64.self))
                let stops = Self.stopMask(word)
                if stops == 0 {
                    seen |= word
                    i &+= 8
                    continue
                }
                let lead = stops.trailingZeroBitCount &>> 3
                seen |= word & ((1 &<< UInt64(lead &* 8)) &- 1)
                i &+= lead
                break
            }
            guard i < count else { throw JSONParseError(.unexpectedEndOfFile, offset: i) }
            let byte = bytes[i]
            if byte == Self.quote { break }
            if byte == Self.backslash {
                simple = false
                guard i + 1 < count else { throw JSONParseError(.unexpectedEndOfFile, offset: i + 1) }
                if bytes[i + 1] == UInt8(ascii: "u") {
                    guard i + 6 <= count else { throw JSONParseError(.unexpectedEndOfFile, offset: count) }
                    for k in 2..<6 where bytes[i + k] == Self.quote {
                        let digits = String(decoding: UnsafeBufferPointer(start: bytes + i + 2, count: 4), as: UTF8.self)
                        throw JSONParseError(.invalidUnicodeEscape(digits), offset: i + k)
                    }
                    i += 6
                } else {
                    i += 2
                }
                continue
            }
            if byte < 0x20 { simple = false }
            seen |= UInt64(byte)
            i += 1
        }
        let ascii = seen & 0x8080_8080_8080_8080 == 0
        let flags = (simple ? TapeEntry.simpleString : 0) | (ascii ? TapeEntry.asciiString : 0)
        _ = append(TapeEntry(kind: .string, flags: flags, payload: start, extra: i - start))
        return (i + 1, simple && ascii)
    }

    /// Takes the run of number characters Foundation takes (`-`, digits, `.`,
    /// `+`, `e`, `E`), appends its entry and returns the index after it.
    @inline(__always)
    private mutating func scanNumber(at start: Int) -> Int {
        var i = start
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        let digitsStart = i
        while i < count, bytes[i] &- UInt8(ascii: "0") < 10 { i += 1 }
        var flags: UInt64
        if i < count, Self.isNumberPunctuation(bytes[i]) {
            while i < count, bytes[i] &- UInt8(ascii: "0") < 10 || Self.isNumberPunctuation(bytes[i]) { i += 1 }
            flags = JSONNumberParser.isValidJSONNumber(bytes + start, count: i - start) ? TapeEntry.validNumber : 0
        } else {
            let digits = i - digitsStart
            let valid = digits == 1 || (digits > 1 && bytes[digitsStart] != UInt8(ascii: "0"))
            flags = TapeEntry.integerNumber | (valid ? TapeEntry.validNumber : 0)
        }
        _ = append(TapeEntry(kind: .number, flags: flags, payload: start, extra: i - start))
        return i
    }

    @inline(__always)
    private static func isNumberPunctuation(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "e"), UInt8(ascii: "E"): return true
        default: return false
        }
    }
}
