import Foundation
import TestSupport

/// Writes random JSON text that mostly fits a `Shape`: values of the wrong
/// type, missing, duplicate and extra keys, unusual number spellings,
/// escapes, invalid bytes, random whitespace and trailing commas, and now
/// and then a structural break.
struct RandomDocument {
    private var rng: SplitMix64
    private var bytes: [UInt8] = []
    /// Chance that a value ignores its shape.
    private let mismatch: Double

    static func make(for shape: Shape, using rng: inout SplitMix64, mismatch: Double = 0.06) -> [UInt8] {
        var writer = RandomDocument(rng: SplitMix64(seed: rng.next()), mismatch: mismatch)
        writer.space()
        writer.value(shape, depth: 0)
        writer.space()
        if writer.rng.chance(0.03) { writer.corrupt() }
        return writer.bytes
    }

    private init(rng: SplitMix64, mismatch: Double) {
        self.rng = rng
        self.mismatch = mismatch
    }

    private mutating func emit(_ text: String) { bytes.append(contentsOf: text.utf8) }

    private mutating func space() {
        if rng.chance(0.15) { emit(rng.pick([" ", "\n", "\t", "\r\n", "  "])) }
    }

    private mutating func corrupt() {
        guard !bytes.isEmpty else { return }
        let index = Int.random(in: 0..<bytes.count, using: &rng)
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: bytes.removeSubrange(index...)
        case 1: bytes.insert(rng.pick([0x7B, 0x5D, 0x2C, 0x22, 0x3A, 0x78, 0x00, 0xFF]), at: index)
        default: bytes.remove(at: index)
        }
    }

    private mutating func value(_ shape: Shape, depth: Int) {
        if rng.chance(mismatch) {
            anyValue(depth: depth)
            return
        }
        switch shape {
        case .bool: emit(rng.chance(0.5) ? "true" : "false")
        case .string: string()
        case .int, .int8, .uint8, .int32, .int64, .uint64: integer()
        case .double, .float, .decimal: floating()
        case .optional(let inner):
            if rng.chance(0.3) { emit("null") } else { value(inner, depth: depth) }
        case .array(let inner):
            array(count: Int.random(in: 0...4, using: &rng)) { writer in writer.value(inner, depth: depth + 1) }
        case .dictionary(let inner):
            let keys = (0..<Int.random(in: 0...4, using: &rng)).map { _ in rng.pick(["a", "b", "c_d", "e", "f"]) }
            object(keys.map { ($0, inner) }, depth: depth)
        case .object(let members):
            var entries = members.map { ($0.key, $0.shape) }
            if rng.chance(0.1), !entries.isEmpty { entries.remove(at: Int.random(in: 0..<entries.count, using: &rng)) }
            if rng.chance(0.1), let first = entries.first { entries.append(first) }
            if rng.chance(0.2) { entries.append(("extra", Shape.string)) }
            entries.shuffle(using: &rng)
            object(entries, depth: depth)
        case .typed(let leaf):
            typed(leaf, depth: depth)
        }
    }

    private mutating func typed(_ leaf: Shape.TypedLeaf, depth: Int) {
        switch leaf {
        case .ints: value(.array(.int), depth: depth)
        case .strings: value(.array(.string), depth: depth)
        case .doubles: value(.array(.double), depth: depth)
        case .bools: value(.array(.bool), depth: depth)
        case .stringMap:
            // `[String: String]` decodes its members in `allKeys` order, which
            // Foundation leaves to hashing: at most one bad member keeps the
            // first error well defined.
            let count = Int.random(in: 0...4, using: &rng)
            let bad = rng.chance(0.2) ? Int.random(in: 0..<max(count, 1), using: &rng) : -1
            emit("{")
            for index in 0..<count {
                if index > 0 { emit(",") }
                emit("\"k\(index)\":")
                if index == bad { anyValue(depth: depth + 1) } else { emit("\"v\(Int.random(in: 0...9, using: &rng))\"") }
            }
            emit("}")
        case .leaf: value(.object([Shape.Member(key: "name", shape: .string), Shape.Member(key: "value", shape: .int)]), depth: depth)
        case .optionalInts: value(.array(.optional(.int)), depth: depth)
        case .date: floating()
        case .nestedInts: value(.array(.array(.int)), depth: depth)
        }
    }

    private mutating func array(count: Int, element: (inout RandomDocument) -> Void) {
        emit("[")
        for index in 0..<count {
            if index > 0 { emit(",") }
            space()
            element(&self)
            space()
        }
        if count > 0, rng.chance(0.05) { emit(",") }
        emit("]")
    }

    private mutating func object(_ entries: [(String, Shape)], depth: Int) {
        emit("{")
        for (index, (key, shape)) in entries.enumerated() {
            if index > 0 { emit(",") }
            space()
            keyText(key)
            space()
            emit(":")
            space()
            value(shape, depth: depth + 1)
            space()
        }
        if !entries.isEmpty, rng.chance(0.05) { emit(",") }
        emit("}")
    }

    private mutating func keyText(_ key: String) {
        if rng.chance(0.05) {
            // The same key spelled with an escape.
            emit("\"")
            for scalar in key.unicodeScalars { emit(String(format: "\\u%04x", scalar.value)) }
            emit("\"")
        } else {
            emit("\"\(key)\"")
        }
    }

    private mutating func anyValue(depth: Int) {
        switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &rng) {
        case 0: emit("null")
        case 1: emit(rng.chance(0.5) ? "true" : "false")
        case 2: string()
        case 3: integer()
        case 4: floating()
        case 5: array(count: Int.random(in: 0...3, using: &rng)) { writer in writer.anyValue(depth: depth + 1) }
        default:
            // A fixed-text name: decoded as `[String: String]` this object may
            // meet its one error at "value" only (see `.stringMap`).
            switch Int.random(in: 0...2, using: &rng) {
            case 0: emit("{}")
            case 1: emit("{\"name\":\"n\"}")
            default:
                emit("{\"name\":\"n\",\"value\":")
                integer()
                emit("}")
            }
        }
    }

    private mutating func integer() {
        let interesting: [String] = [
            "0", "-0", "1", "-1", "7", "127", "128", "-128", "-129", "255", "256", "32767", "-32769", "2147483647",
            "2147483648", "-2147483649", "9007199254740993", "9223372036854775807", "9223372036854775808",
            "-9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
            "1.0", "1e2", "1E+2", "-2.0e0", "12.5", "1e-400", "1e400", "100000000000000000000", "01", "-", "1.",
            "9007199254740993.0", "12345678901234567.5", "-0.0", "0.1e1",
        ]
        if rng.chance(0.5) {
            emit(rng.pick(interesting))
        } else {
            emit("\(Int64.random(in: -100_000...100_000, using: &rng))")
        }
    }

    private mutating func floating() {
        let interesting: [String] = [
            "0", "-0", "0.0", "-0.0", "1.5", "0.1", "1e-7", "1E7", "2.5e+3", "123456789012345678901234567890",
            "0.30000000000000004", "4.9e-324", "5e-324", "2.2250738585072014e-308", "1.7976931348623157e308",
            "1.8e308", "1e-400", "3.4028235e38", "3.4028236e38", "1e39", "1.17549435e-38", "1e-46",
            "0.000000000000000000000000000000001", "1.00000000000000011102230246251565404236316680908203125",
        ]
        if rng.chance(0.3) {
            emit(rng.pick(interesting))
            return
        }
        let value = Double(bitPattern: rng.next())
        guard value.isFinite else {
            emit("1.5")
            return
        }
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: emit("\(value)")
        case 1: emit(String(format: "%.17g", value))
        case 2: emit("\(Float(Double.random(in: -1000...1000, using: &rng)))")
        default: emit(String(format: "%.3f", Double.random(in: -1e6...1e6, using: &rng)))
        }
    }

    private mutating func string() {
        let pieces: [String] = [
            "plain", "with space", "é", "日本", "😀", "\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "\\ud83d\\ude00",
            "\\u0000", "\\t\\r\\b\\f", "", "Index 0", "a_b",
        ]
        let broken: [String] = ["\\x", "\\ud800", "\\udc00", "\\ud800\\u0041", "\\u12G4", "\u{01}"]
        emit("\"")
        for _ in 0..<Int.random(in: 0...3, using: &rng) {
            if rng.chance(0.03) {
                emit(rng.pick(broken))
            } else if rng.chance(0.01) {
                bytes.append(rng.pick([0xFF, 0xC3, 0xED, 0xF4]))
            } else {
                emit(rng.pick(pieces))
            }
        }
        emit("\"")
    }
}
