import HTTPCore
/// The keyed container of ``MissingValueDecoder``: no keys.
struct MissingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let codingPath: [any CodingKey]
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { false }
    func decodeNil(forKey key: Key) throws -> Bool { throw missing(key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { throw missing(key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { throw missing(key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { throw missing(key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { throw missing(key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw missing(key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { throw missing(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { throw missing(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { throw missing(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { throw missing(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { throw missing(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { throw missing(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { throw missing(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { throw missing(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { throw missing(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { throw missing(key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type,
                                               forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw missing(key)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw missing(key) }
    func superDecoder() throws -> any Decoder { MissingValueDecoder(codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { MissingValueDecoder(codingPath: codingPath + [key]) }

    private func missing(_ key: Key) -> DecodingError {
        .keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)."))
    }
}

/// The unkeyed container of ``MissingValueDecoder``: no elements.
struct MissingUnkeyedContainer: UnkeyedDecodingContainer {
    let codingPath: [any CodingKey]
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    mutating func decodeNil() throws -> Bool { throw atEnd(Never?.self) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw atEnd(type) }
    mutating func decode(_ type: Bool.Type) throws -> Bool { throw atEnd(type) }
    mutating func decode(_ type: String.Type) throws -> String { throw atEnd(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { throw atEnd(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { throw atEnd(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { throw atEnd(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { throw atEnd(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { throw atEnd(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { throw atEnd(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { throw atEnd(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { throw atEnd(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { throw atEnd(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { throw atEnd(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { throw atEnd(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { throw atEnd(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        throw atEnd(type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw atEnd((any UnkeyedDecodingContainer).self) }
    mutating func superDecoder() throws -> any Decoder { throw atEnd((any Decoder).self) }

    private func atEnd(_ type: Any.Type) -> DecodingError {
        .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "Unkeyed container is at end."))
    }
}

/// The single-value container of ``MissingValueDecoder``: `null`.
struct MissingSingleValueContainer: SingleValueDecodingContainer {
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { true }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { throw null(type) }
    func decode(_ type: Bool.Type) throws -> Bool { throw null(type) }
    func decode(_ type: String.Type) throws -> String { throw null(type) }
    func decode(_ type: Double.Type) throws -> Double { throw null(type) }
    func decode(_ type: Float.Type) throws -> Float { throw null(type) }
    func decode(_ type: Int.Type) throws -> Int { throw null(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { throw null(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { throw null(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { throw null(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { throw null(type) }
    func decode(_ type: UInt.Type) throws -> UInt { throw null(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { throw null(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { throw null(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { throw null(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { throw null(type) }

    private func null(_ type: Any.Type) -> DecodingError {
        .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "Expected \(type) value but found null instead."))
    }
}
