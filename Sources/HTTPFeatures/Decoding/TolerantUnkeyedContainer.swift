import HTTPCore
/// The unkeyed container of ``TolerantDecoder``: the backend's container, with `null`
/// elements made up and scalars converted.
struct TolerantUnkeyedContainer: UnkeyedDecodingContainer {
    var inner: any UnkeyedDecodingContainer

    var codingPath: [any CodingKey] { inner.codingPath }
    var count: Int? { inner.count }
    var isAtEnd: Bool { inner.isAtEnd }
    var currentIndex: Int { inner.currentIndex }

    mutating func decodeNil() throws -> Bool { try inner.decodeNil() }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // Both backends' containers are values: the probe looks at the element without
        // moving `inner`, which must still fail with the backend's own error.
        var probe = inner
        if !probe.isAtEnd, try probe.decodeNil() {
            let path = codingPath + [DynamicCodingKey(intValue: currentIndex) ?? DynamicCodingKey("Index \(currentIndex)")]
            if let value = TolerantDecoder.madeUpValue(T.self, at: path) {
                inner = probe
                return value
            }
            return try inner.decode(T.self)
        }
        if T.self is any TolerantPassthrough.Type { return try inner.decode(T.self) }
        return try TolerantDecoder.decode(T.self, from: inner.superDecoder())
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeElement(type) }
    mutating func decode(_ type: String.Type) throws -> String { try decodeElement(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decodeElement(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeElement(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeElement(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeElement(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeElement(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeElement(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeElement(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeElement(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeElement(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeElement(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeElement(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeElement(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try superDecoder().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try superDecoder().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        TolerantDecoder(inner: try inner.superDecoder(), defaults: [:])
    }

    private mutating func decodeElement<T: Decodable>(_ type: T.Type) throws -> T {
        try decode(type)
    }
}
