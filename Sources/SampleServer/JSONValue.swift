/// A JSON document that keeps object keys in insertion order, so responses read the way
/// they are written here and are byte-for-byte stable across runs (tests compare them).
indirect enum JSONValue: Equatable {
    case null
    case bool(Bool)
    /// A number kept as its JSON text, so parsed numbers echo back unchanged.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// An integer number.
    static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    /// A floating-point number; JSON has no NaN or infinity, so those become null.
    static func double(_ value: Double) -> JSONValue {
        value.isFinite ? .number(String(value)) : .null
    }

    /// The value of `key` in an object (first match), else nil.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// The string if this is a string, else nil.
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The compact UTF-8 encoding.
    func encoded() -> [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    private func encode(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let text): Self.encodeString(text, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.encode(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.encodeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                value.encode(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func encodeString(_ text: String, into out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5c, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5c, 0x5c])
            case 0x0a: out.append(contentsOf: [0x5c, UInt8(ascii: "n")])
            case 0x0d: out.append(contentsOf: [0x5c, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5c, UInt8(ascii: "t")])
            case 0..<0x20:
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0f)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements) }
}
