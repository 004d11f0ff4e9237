import Foundation
import TestSupport

/// The shape of a value for schema-driven decoding: `ShapedValue` reads
/// exactly what its shape says, through the container calls the shape
/// names, so one random shape exercises both decoders identically.
indirect enum Shape: Sendable, CustomStringConvertible {
    case bool, string, int, int8, uint8, int32, int64, uint64, double, float, decimal
    /// Read with `decodeIfPresent` / `decodeNil`.
    case optional(Shape)
    /// Read element by element from an unkeyed container.
    case array(Shape)
    /// Read member by member from a keyed container.
    case object([Member])
    /// Read through `allKeys` (sorted, so error order is deterministic).
    case dictionary(Shape)
    /// Read through `decode(T.self)` with a concrete Decodable type.
    case typed(TypedLeaf)

    struct Member: Sendable {
        var key: String
        var shape: Shape
    }

    /// Concrete types decoded through the generic `decode(_:)` entry points.
    enum TypedLeaf: Sendable, CaseIterable {
        case ints, strings, doubles, bools, stringMap, leaf, optionalInts, date, nestedInts
    }

    var description: String {
        switch self {
        case .bool: return "Bool"
        case .string: return "String"
        case .int: return "Int"
        case .int8: return "Int8"
        case .uint8: return "UInt8"
        case .int32: return "Int32"
        case .int64: return "Int64"
        case .uint64: return "UInt64"
        case .double: return "Double"
        case .float: return "Float"
        case .decimal: return "Decimal"
        case .optional(let inner): return "\(inner)?"
        case .array(let inner): return "[\(inner)]"
        case .object(let members): return "{" + members.map { "\($0.key): \($0.shape)" }.joined(separator: ", ") + "}"
        case .dictionary(let inner): return "[String: \(inner)]"
        case .typed(let leaf): return "typed(\(leaf))"
        }
    }

    static let userInfoKey = CodingUserInfoKey(rawValue: "test.shape")

    /// A random shape of bounded depth.
    static func random(depth: Int, using rng: inout SplitMix64) -> Shape {
        let scalars: [Shape] = [.bool, .string, .int, .int8, .uint8, .int32, .int64, .uint64, .double, .float, .decimal]
        guard depth > 0 else { return rng.pick(scalars) }
        switch Int.random(in: 0..<10, using: &rng) {
        case 0...2: return rng.pick(scalars)
        case 3: return .optional(random(depth: depth - 1, using: &rng))
        case 4: return .array(random(depth: depth - 1, using: &rng))
        case 5: return .dictionary(random(depth: depth - 1, using: &rng))
        case 6: return .typed(rng.pick(TypedLeaf.allCases))
        default:
            let count = Int.random(in: 0...5, using: &rng)
            let names = ["id", "name", "value", "items", "a_b", "nested", "flag", "x", "data", "key_name"]
            var members: [Member] = []
            for name in names.shuffled(using: &rng).prefix(count) {
                members.append(Member(key: name, shape: random(depth: depth - 1, using: &rng)))
            }
            return .object(members)
        }
    }
}
