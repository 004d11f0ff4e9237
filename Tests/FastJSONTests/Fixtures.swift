import Foundation

/// Model types the equivalence tests decode with both decoders.
enum Fixtures {
    /// Every scalar type a container can decode directly.
    struct Scalars: Codable, Equatable {
        var bool: Bool
        var string: String
        var double: Double
        var float: Float
        var int: Int
        var int8: Int8
        var int16: Int16
        var int32: Int32
        var int64: Int64
        var uint: UInt
        var uint8: UInt8
        var uint16: UInt16
        var uint32: UInt32
        var uint64: UInt64
    }

    static let scalarsJSON = """
        {"bool":true,"string":"s","double":1.5,"float":2.25,"int":-3,"int8":-8,"int16":16,"int32":-32,
        "int64":-64,"uint":3,"uint8":8,"uint16":16,"uint32":32,"uint64":64}
        """

    struct Optionals: Codable, Equatable {
        var int: Int?
        var string: String?
        var bool: Bool?
        var double: Double?
        var array: [Int]?
        var nested: Leaf?
    }

    struct Leaf: Codable, Equatable {
        var name: String
        var value: Int
    }

    /// Arrays and dictionaries, nested.
    struct Collections: Codable, Equatable {
        var ints: [Int]
        var matrix: [[Double]]
        var names: [String: String]
        var groups: [String: [Int]]
        var leaves: [Leaf]
        var optionalItems: [Int?]
        var bools: [Bool]
    }

    enum Color: String, Codable, Equatable {
        case red, green, blue
    }

    enum Level: Int, Codable, Equatable {
        case low = 1, high = 2
    }

    struct WithEnums: Codable, Equatable {
        var color: Color
        var level: Level
        var palette: [Color]?
    }

    struct Dates: Codable, Equatable {
        var date: Date
        var dates: [Date]
        var optional: Date?
    }

    struct Special: Codable, Equatable {
        var data: Data
        var url: URL
        var decimal: Decimal
    }

    /// Keys that `convertFromSnakeCase` must map.
    struct Snake: Codable, Equatable {
        var userName: String
        var accountID: Int?
        var homeAddress: SnakeAddress
        var rawValues: [String: Int]
        var _private: Bool?
    }

    struct SnakeAddress: Codable, Equatable {
        var streetName: String
        var zipCode: String?
    }

    /// Floating point values compared by bit pattern, so NaN equals NaN.
    struct Floats: Decodable, Equatable {
        var double: Double
        var float: Float

        static func == (lhs: Floats, rhs: Floats) -> Bool {
            lhs.double.bitPattern == rhs.double.bitPattern && lhs.float.bitPattern == rhs.float.bitPattern
        }
    }

    /// A top-level array of doubles compared by bit pattern.
    struct DoubleBits: Decodable, Equatable {
        var bits: [UInt64]

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var bits: [UInt64] = []
            while !container.isAtEnd { bits.append(try container.decode(Double.self).bitPattern) }
            self.bits = bits
        }
    }

    /// A top-level array of floats compared by bit pattern.
    struct FloatBits: Decodable, Equatable {
        var bits: [UInt32]

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var bits: [UInt32] = []
            while !container.isAtEnd { bits.append(try container.decode(Float.self).bitPattern) }
            self.bits = bits
        }
    }

    /// Exercises the container API by hand: nested containers, super
    /// decoders, `decodeNil`, `contains`, `allKeys`, counts and indices.
    struct Manual: Decodable, Equatable {
        var id: Int
        var point: [Double]
        var meta: [String]
        var hasExtra: Bool
        var nilAtStart: Bool
        var superValue: String?
        var superCount: Int?
        var inner: [Int]

        enum Keys: String, CodingKey {
            case id, point, meta, extra, inner, parent, list
        }

        enum MetaKeys: String, CodingKey {
            case name, tags
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            id = try container.decode(Int.self, forKey: .id)
            var point = try container.nestedUnkeyedContainer(forKey: .point)
            var values: [Double] = []
            nilAtStart = try point.decodeNil()
            while !point.isAtEnd {
                if try point.decodeNil() {
                    values.append(-1)
                } else {
                    values.append(try point.decode(Double.self))
                }
            }
            values.append(Double(point.currentIndex))
            values.append(Double(point.count ?? -1))
            self.point = values
            let meta = try container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
            var metaValues = [try meta.decode(String.self, forKey: .name)]
            metaValues += try meta.decodeIfPresent([String].self, forKey: .tags) ?? ["none"]
            metaValues.append(contentsOf: meta.allKeys.map(\.stringValue).sorted())
            self.meta = metaValues
            hasExtra = container.contains(.extra)
            let parent = try container.superDecoder(forKey: .parent)
            superValue = try parent.singleValueContainer().decodeNil() ? nil : try parent.singleValueContainer().decode(String.self)
            let list = try container.superDecoder()
            if let listContainer = try? list.unkeyedContainer() {
                superCount = listContainer.count
            }
            var inner: [Int] = []
            if container.contains(.inner) {
                var outer = try container.nestedUnkeyedContainer(forKey: .inner)
                while !outer.isAtEnd {
                    var nested = try outer.nestedUnkeyedContainer()
                    while !nested.isAtEnd { inner.append(try nested.decode(Int.self)) }
                    inner.append(-1)
                }
                inner.append(try outer.decodeIfPresent(Int.self) ?? -2)
                inner.append(outer.currentIndex)
            }
            self.inner = inner
        }
    }

    /// A subclass decoded through `superDecoder()`.
    class Base: Decodable, Equatable {
        var baseValue: Int

        private enum Keys: String, CodingKey { case baseValue }

        required init(from decoder: any Decoder) throws {
            baseValue = try decoder.container(keyedBy: Keys.self).decode(Int.self, forKey: .baseValue)
        }

        static func == (lhs: Base, rhs: Base) -> Bool {
            type(of: lhs) == type(of: rhs) && lhs.isEqual(to: rhs)
        }

        func isEqual(to other: Base) -> Bool { baseValue == other.baseValue }
    }

    final class Derived: Base {
        var derivedValue: String

        private enum Keys: String, CodingKey { case derivedValue }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            derivedValue = try container.decode(String.self, forKey: .derivedValue)
            try super.init(from: container.superDecoder())
        }

        override func isEqual(to other: Base) -> Bool {
            guard let other = other as? Derived else { return false }
            return baseValue == other.baseValue && derivedValue == other.derivedValue
        }
    }

    /// Nested arrays of any depth, counted.
    struct Nesting: Decodable, Equatable {
        var depth: Int

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            depth = container.isAtEnd ? 1 : try container.decode(Nesting.self).depth + 1
        }
    }

    /// The `{errcode, errmsg, data}` envelope of the sample APIs.
    struct Envelope<Payload: Codable & Equatable>: Codable, Equatable {
        var errcode: Int
        var errmsg: String
        var data: Payload
    }

    /// Reads `decoder.userInfo` so both decoders must pass it through.
    struct UserInfoEcho: Decodable, Equatable {
        var value: Int
        var info: String

        static let key = CodingUserInfoKey(rawValue: "test.echo")

        init(from decoder: any Decoder) throws {
            value = try decoder.singleValueContainer().decode(Int.self)
            info = Self.key.flatMap { decoder.userInfo[$0] as? String } ?? "missing"
        }
    }
}
