/// A strict RFC 8259 parser producing `JSONValue`. Written here rather than using
/// JSONSerialization so key order and number spelling survive, and so nesting depth is
/// bounded (a hostile body cannot overflow a connection thread's stack).
struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private let maxDepth: Int

    private struct Failure: Error {}

    /// Parses a whole document; nil if it is not valid JSON or nests deeper than `maxDepth`.
    static func parse(_ bytes: [UInt8], maxDepth: Int = 128) -> JSONValue? {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        do {
            parser.skipWhitespace()
            let value = try parser.parseValue(depth: 0)
            parser.skipWhitespace()
            return parser.index == bytes.count ? value : nil
        } catch {
            return nil
        }
    }

    private init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0d { index += 1 }
    }

    private mutating func expect(_ literal: String) throws(Failure) {
        for byte in literal.utf8 {
            guard current == byte else { throw Failure() }
            index += 1
        }
    }

    private mutating func parseValue(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= maxDepth, let byte = current else { throw Failure() }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        default: return try parseNumber()
        }
    }

    private mutating func parseObject(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw Failure() }
            let key = try parseString()
            skipWhitespace()
            try expect(":")
            skipWhitespace()
            members.append((key, try parseValue(depth: depth)))
            skipWhitespace()
            guard let byte = current else { throw Failure() }
            index += 1
            if byte == UInt8(ascii: "}") { return .object(members) }
            guard byte == UInt8(ascii: ",") else { throw Failure() }
        }
    }

    private mutating func parseArray(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth))
            skipWhitespace()
            guard let byte = current else { throw Failure() }
            index += 1
            if byte == UInt8(ascii: "]") { return .array(items) }
            guard byte == UInt8(ascii: ",") else { throw Failure() }
        }
    }

    private mutating func parseString() throws(Failure) -> String {
        index += 1
        var out: [UInt8] = []
        while true {
            guard let byte = current else { throw Failure() }
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: out, as: UTF8.self) else { throw Failure() }
                return text
            case UInt8(ascii: "\\"):
                guard let escape = current else { throw Failure() }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0c)
                case UInt8(ascii: "n"): out.append(0x0a)
                case UInt8(ascii: "r"): out.append(0x0d)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"): out.append(contentsOf: try parseUnicodeEscape())
                default: throw Failure()
                }
            case 0..<0x20:
                throw Failure()
            default:
                out.append(byte)
            }
        }
    }

    /// The UTF-8 bytes of a `\uXXXX` escape (after the `u`), joining surrogate pairs; a lone
    /// surrogate becomes U+FFFD rather than an error, as most parsers do.
    private mutating func parseUnicodeEscape() throws(Failure) -> [UInt8] {
        var code = try parseHex4()
        if (0xd800..<0xdc00).contains(code), current == UInt8(ascii: "\\"),
           index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") {
            let saved = index
            index += 2
            let low = try parseHex4()
            if (0xdc00..<0xe000).contains(low) {
                code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00)
            } else {
                index = saved
            }
        }
        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count,
              let value = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16),
              bytes[index..<(index + 4)].allSatisfy({ $0.isHexDigit }) else { throw Failure() }
        index += 4
        return value
    }

    private mutating func parseNumber() throws(Failure) -> JSONValue {
        let start = index
        let isDigit = { (byte: UInt8?) -> Bool in
            guard let byte else { return false }
            return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            guard isDigit(current) else { throw Failure() }
            while isDigit(current) { index += 1 }
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard isDigit(current) else { throw Failure() }
            while isDigit(current) { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard isDigit(current) else { throw Failure() }
            while isDigit(current) { index += 1 }
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }
}
