import Foundation

/// A decoded value of any shape, comparable between decoders (floating
/// point by bit pattern).
indirect enum ShapedValue: Equatable {
    case null
    case bool(Bool)
    case string(String)
    case int(Int64)
    case uint(UInt64)
    case double(UInt64)
    case float(UInt32)
    case decimal(Decimal)
    case array([ShapedValue])
    case object([String: ShapedValue])
    case typed(String)
}

/// The root of a schema-driven decode: reads the shape from `userInfo`.
struct ShapedRoot: Decodable, Equatable {
    let value: ShapedValue

    struct MissingShape: Error {}

    init(from decoder: any Decoder) throws {
        guard let key = Shape.userInfoKey, let shape = decoder.userInfo[key] as? Shape else { throw MissingShape() }
        value = try Self.read(shape, from: decoder)
    }

    /// A key for any member name.
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) {
            stringValue = "\(intValue)"
            self.intValue = intValue
        }
    }

    static func read(_ shape: Shape, from decoder: any Decoder) throws -> ShapedValue {
        switch shape {
        case .optional(let inner):
            if try decoder.singleValueContainer().decodeNil() { return .null }
            return try read(inner, from: decoder)
        case .array(let inner):
            var container = try decoder.unkeyedContainer()
            var elements: [ShapedValue] = []
            while !container.isAtEnd {
                elements.append(try readElement(inner, from: &container))
            }
            return .array(elements)
        case .object(let members):
            let container = try decoder.container(keyedBy: AnyKey.self)
            var result: [String: ShapedValue] = [:]
            for member in members {
                result[member.key] = try readMember(member.shape, key: AnyKey(stringValue: member.key), from: container)
            }
            return .object(result)
        case .dictionary(let inner):
            let container = try decoder.container(keyedBy: AnyKey.self)
            var result: [String: ShapedValue] = [:]
            for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                result[key.stringValue] = try read(inner, from: container.superDecoder(forKey: key))
            }
            return .object(result)
        case .typed(let leaf):
            return try readTyped(leaf, from: decoder.singleValueContainer())
        default:
            return try readScalar(shape, from: decoder.singleValueContainer())
        }
    }

    static func readScalar(_ shape: Shape, from container: any SingleValueDecodingContainer) throws -> ShapedValue {
        switch shape {
        case .bool: return .bool(try container.decode(Bool.self))
        case .string: return .string(try container.decode(String.self))
        case .int: return .int(Int64(try container.decode(Int.self)))
        case .int8: return .int(Int64(try container.decode(Int8.self)))
        case .uint8: return .int(Int64(try container.decode(UInt8.self)))
        case .int32: return .int(Int64(try container.decode(Int32.self)))
        case .int64: return .int(try container.decode(Int64.self))
        case .uint64: return .uint(try container.decode(UInt64.self))
        case .double: return .double(try container.decode(Double.self).bitPattern)
        case .float: return .float(try container.decode(Float.self).bitPattern)
        case .decimal: return .decimal(try container.decode(Decimal.self))
        default: return .null
        }
    }

    static func readTyped(_ leaf: Shape.TypedLeaf, from container: any SingleValueDecodingContainer) throws -> ShapedValue {
        switch leaf {
        case .ints: return .typed("\(try container.decode([Int].self))")
        case .strings: return .typed("\(try container.decode([String].self))")
        case .doubles: return .typed("\(try container.decode([Double].self).map(\.bitPattern))")
        case .bools: return .typed("\(try container.decode([Bool].self))")
        case .stringMap: return .typed("\(try container.decode([String: String].self).sorted(by: { $0.key < $1.key }))")
        case .leaf: return .typed("\(try container.decode(Fixtures.Leaf.self))")
        case .optionalInts: return .typed("\(try container.decode([Int?].self))")
        case .date: return .typed("\(try container.decode(Date.self).timeIntervalSinceReferenceDate.bitPattern)")
        case .nestedInts: return .typed("\(try container.decode([[Int]].self))")
        }
    }

    /// Elements use the typed container calls where the shape allows.
    static func readElement(_ shape: Shape, from container: inout any UnkeyedDecodingContainer) throws -> ShapedValue {
        switch shape {
        case .bool: return .bool(try container.decode(Bool.self))
        case .string: return .string(try container.decode(String.self))
        case .int: return .int(Int64(try container.decode(Int.self)))
        case .int8: return .int(Int64(try container.decode(Int8.self)))
        case .uint64: return .uint(try container.decode(UInt64.self))
        case .double: return .double(try container.decode(Double.self).bitPattern)
        case .float: return .float(try container.decode(Float.self).bitPattern)
        case .optional(.int):
            return try container.decodeIfPresent(Int.self).map { .int(Int64($0)) } ?? .null
        case .optional(.string):
            return try container.decodeIfPresent(String.self).map { .string($0) } ?? .null
        case .array(let inner):
            var nested = try container.nestedUnkeyedContainer()
            var elements: [ShapedValue] = []
            while !nested.isAtEnd { elements.append(try readElement(inner, from: &nested)) }
            return .array(elements)
        case .typed(.leaf):
            return .typed("\(try container.decode(Fixtures.Leaf.self))")
        default:
            return try read(shape, from: container.superDecoder())
        }
    }

    static func readMember(_ shape: Shape, key: AnyKey, from container: KeyedDecodingContainer<AnyKey>) throws -> ShapedValue {
        switch shape {
        case .bool: return .bool(try container.decode(Bool.self, forKey: key))
        case .string: return .string(try container.decode(String.self, forKey: key))
        case .int: return .int(Int64(try container.decode(Int.self, forKey: key)))
        case .int8: return .int(Int64(try container.decode(Int8.self, forKey: key)))
        case .uint8: return .int(Int64(try container.decode(UInt8.self, forKey: key)))
        case .int32: return .int(Int64(try container.decode(Int32.self, forKey: key)))
        case .int64: return .int(try container.decode(Int64.self, forKey: key))
        case .uint64: return .uint(try container.decode(UInt64.self, forKey: key))
        case .double: return .double(try container.decode(Double.self, forKey: key).bitPattern)
        case .float: return .float(try container.decode(Float.self, forKey: key).bitPattern)
        case .decimal: return .decimal(try container.decode(Decimal.self, forKey: key))
        case .optional(.int):
            return try container.decodeIfPresent(Int.self, forKey: key).map { .int(Int64($0)) } ?? .null
        case .optional(.double):
            return try container.decodeIfPresent(Double.self, forKey: key).map { .double($0.bitPattern) } ?? .null
        case .optional(.string):
            return try container.decodeIfPresent(String.self, forKey: key).map { .string($0) } ?? .null
        case .optional(.bool):
            return try container.decodeIfPresent(Bool.self, forKey: key).map { .bool($0) } ?? .null
        case .optional(.typed(.leaf)):
            return try container.decodeIfPresent(Fixtures.Leaf.self, forKey: key).map { .typed("\($0)") } ?? .null
        case .optional:
            if !container.contains(key) { return .typed("absent") }
            if try container.decodeNil(forKey: key) { return .null }
            return try read(shape, from: container.superDecoder(forKey: key))
        case .array(let inner):
            var nested = try container.nestedUnkeyedContainer(forKey: key)
            var elements: [ShapedValue] = []
            while !nested.isAtEnd { elements.append(try readElement(inner, from: &nested)) }
            return .array(elements)
        case .object(let members):
            let nested = try container.nestedContainer(keyedBy: AnyKey.self, forKey: key)
            var result: [String: ShapedValue] = [:]
            for member in members {
                result[member.key] = try readMember(member.shape, key: AnyKey(stringValue: member.key), from: nested)
            }
            return .object(result)
        case .typed(.ints): return .typed("\(try container.decode([Int].self, forKey: key))")
        case .typed(.strings): return .typed("\(try container.decode([String].self, forKey: key))")
        case .typed(.leaf): return .typed("\(try container.decode(Fixtures.Leaf.self, forKey: key))")
        default:
            return try read(shape, from: container.superDecoder(forKey: key))
        }
    }
}
