/// Turns the text of a JSON string (between its quotes) into a `String`, with
/// Foundation's rules: the same escapes, surrogate-pair handling, and the same
/// inputs rejected (invalid UTF-8, raw control characters, lone surrogates).
enum JSONStringDecoder {
    /// Decodes the string whose text is `length` bytes at `text`, given the
    /// scanner's flags for it.
    @inline(__always)
    static func decode(_ text: UnsafePointer<UInt8>, length: Int, flags: UInt64, documentOffset: Int) throws -> String {
        if flags & TapeEntry.simpleString != 0 {
            let buffer = UnsafeBufferPointer(start: text, count: length)
            if flags & TapeEntry.asciiString != 0 {
                return String(decoding: buffer, as: UTF8.self)
            }
            // Our own check, then the fast decoding initializer: `String(validating:)`
            // is several times slower.
            guard UTF8Validator.isValid(text, count: length) else {
                throw JSONParseError(.invalidUTF8, offset: documentOffset)
            }
            return String(decoding: buffer, as: UTF8.self)
        }
        // Unescaping never makes the text longer.
        return try String(unsafeUninitializedCapacity: length) { output in
            guard let out = output.baseAddress else { return 0 }
            return try unescape(text, length: length, into: out, documentOffset: documentOffset)
        }
    }

    /// Checks the string without building it; `scratch` must hold `length` bytes.
    static func validate(
        _ text: UnsafePointer<UInt8>, length: Int, flags: UInt64, documentOffset: Int, scratch: UnsafeMutablePointer<UInt8>
    ) throws {
        if flags & TapeEntry.simpleString != 0 {
            if flags & TapeEntry.asciiString != 0 { return }
            guard UTF8Validator.isValid(text, count: length) else {
                throw JSONParseError(.invalidUTF8, offset: documentOffset)
            }
            return
        }
        _ = try unescape(text, length: length, into: scratch, documentOffset: documentOffset)
    }

    /// Writes the unescaped, validated UTF-8 of the text to `out` and returns
    /// how many bytes it wrote.
    static func unescape(
        _ text: UnsafePointer<UInt8>, length: Int, into out: UnsafeMutablePointer<UInt8>, documentOffset: Int
    ) throws -> Int {
        var i = 0
        var written = 0
        var chunkStart = 0

        func flush(upTo end: Int) throws {
            let chunkLength = end - chunkStart
            guard chunkLength > 0 else { return }
            guard UTF8Validator.isValid(text + chunkStart, count: chunkLength) else {
                throw JSONParseError(.invalidUTF8, offset: documentOffset + chunkStart)
            }
            (out + written).update(from: text + chunkStart, count: chunkLength)
            written += chunkLength
        }

        while i < length {
            let byte = text[i]
            if byte == UInt8(ascii: "\\") {
                try flush(upTo: i)
                guard i + 1 < length else { throw JSONParseError(.unexpectedEndOfFile, offset: documentOffset + i) }
                let escaped = text[i + 1]
                var replacement: UInt8 = 0
                switch escaped {
                case UInt8(ascii: "\""): replacement = UInt8(ascii: "\"")
                case UInt8(ascii: "\\"): replacement = UInt8(ascii: "\\")
                case UInt8(ascii: "/"): replacement = UInt8(ascii: "/")
                case UInt8(ascii: "b"): replacement = 0x08
                case UInt8(ascii: "f"): replacement = 0x0C
                case UInt8(ascii: "n"): replacement = 0x0A
                case UInt8(ascii: "r"): replacement = 0x0D
                case UInt8(ascii: "t"): replacement = 0x09
                case UInt8(ascii: "u"):
                    let (scalar, next) = try unicodeEscape(text, length: length, at: i, documentOffset: documentOffset)
                    written += write(scalar, to: out + written)
                    i = next
                    chunkStart = i
                    continue
                default:
                    throw JSONParseError(.invalidEscape(escaped), offset: documentOffset + i + 1)
                }
                out[written] = replacement
                written += 1
                i += 2
                chunkStart = i
            } else if byte < 0x20 {
                throw JSONParseError(.unescapedControlCharacter(byte), offset: documentOffset + i)
            } else {
                i += 1
            }
        }
        try flush(upTo: length)
        return written
    }

    /// Reads `\uXXXX` at `i` (and the low half of a surrogate pair after it);
    /// returns the scalar and the index after the escape.
    private static func unicodeEscape(
        _ text: UnsafePointer<UInt8>, length: Int, at i: Int, documentOffset: Int
    ) throws -> (Unicode.Scalar, Int) {
        let unit = try hexUnit(text, length: length, at: i + 2, documentOffset: documentOffset)
        if UTF16.isLeadSurrogate(unit) {
            let low = i + 6
            guard low + 1 < length, text[low] == UInt8(ascii: "\\"), text[low + 1] == UInt8(ascii: "u") else {
                throw JSONParseError(.missingLowSurrogate, offset: documentOffset + low)
            }
            let trail = try hexUnit(text, length: length, at: low + 2, documentOffset: documentOffset)
            guard UTF16.isTrailSurrogate(trail) else {
                throw JSONParseError(.missingLowSurrogate, offset: documentOffset + low)
            }
            let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(trail) - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else {
                throw JSONParseError(.invalidUnicodeScalar(value), offset: documentOffset + i)
            }
            return (scalar, low + 6)
        }
        guard let scalar = Unicode.Scalar(unit) else {
            throw JSONParseError(.invalidUnicodeScalar(UInt32(unit)), offset: documentOffset + i)
        }
        return (scalar, i + 6)
    }

    private static func hexUnit(_ text: UnsafePointer<UInt8>, length: Int, at start: Int, documentOffset: Int) throws -> UInt16 {
        guard start + 4 <= length else { throw JSONParseError(.unexpectedEndOfFile, offset: documentOffset + length) }
        var value: UInt16 = 0
        for k in 0..<4 {
            let byte = text[start + k]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                let shown = String(decoding: UnsafeBufferPointer(start: text + start, count: 4), as: UTF8.self)
                throw JSONParseError(.invalidUnicodeEscape(shown), offset: documentOffset + start + k)
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// Writes a scalar as UTF-8 and returns its length.
    @inline(__always)
    private static func write(_ scalar: Unicode.Scalar, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let value = scalar.value
        switch value {
        case 0..<0x80:
            out[0] = UInt8(value)
            return 1
        case 0x80..<0x800:
            out[0] = UInt8(0xC0 | value >> 6)
            out[1] = UInt8(0x80 | value & 0x3F)
            return 2
        case 0x800..<0x10000:
            out[0] = UInt8(0xE0 | value >> 12)
            out[1] = UInt8(0x80 | value >> 6 & 0x3F)
            out[2] = UInt8(0x80 | value & 0x3F)
            return 3
        default:
            out[0] = UInt8(0xF0 | value >> 18)
            out[1] = UInt8(0x80 | value >> 12 & 0x3F)
            out[2] = UInt8(0x80 | value >> 6 & 0x3F)
            out[3] = UInt8(0x80 | value & 0x3F)
            return 4
        }
    }
}
