import HTTPCore
/// The keyed container of ``TolerantDecoder``: the backend's container, with missing keys and
/// `null`s made up and scalars converted.
struct TolerantKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let inner: KeyedDecodingContainer<Key>
    /// The declared defaults of the type whose keys these are.
    let defaults: [String: Any]

    var codingPath: [any CodingKey] { inner.codingPath }
    var allKeys: [Key] { inner.allKeys }

    func contains(_ key: Key) -> Bool { inner.contains(key) }

    /// A missing key counts as `null`.
    func decodeNil(forKey key: Key) throws -> Bool {
        guard inner.contains(key) else { return true }
        return try inner.decodeNil(forKey: key)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if try decodeNil(forKey: key) {
            if let value = defaults[key.stringValue] as? T ?? TolerantDecoder.madeUpValue(T.self, at: codingPath + [key]) {
                return value
            }
            // The backend's own error for the missing key or the `null`.
            return try inner.decode(T.self, forKey: key)
        }
        if T.self is any TolerantPassthrough.Type { return try inner.decode(T.self, forKey: key) }
        do {
            return try TolerantDecoder.decode(T.self, from: inner.superDecoder(forKey: key))
        } catch let error where isUnknownRawValue(error, of: T.self, at: key) {
            guard let value = defaults[key.stringValue] as? T else { throw error }
            return value
        }
    }

    /// A missing key or `null` gives the declared default when there is one (even for an
    /// optional), else `nil`; so does a raw value the enum has no case for.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        if try decodeNil(forKey: key) { return defaults[key.stringValue].flatMap { $0 as? T } }
        do {
            return try decode(T.self, forKey: key)
        } catch let error where isUnknownRawValue(error, of: T.self, at: key) {
            guard let value = defaults[key.stringValue] else { throw error }
            return value as? T
        }
    }

    /// Whether `error` is an enum's own rejection of the raw value at `key` (the
    /// `dataCorrupted` of `RawRepresentable`'s `init(from:)`), which the declared default
    /// stands in for, as in HandyJSON; a raw value of the wrong type still fails.
    private func isUnknownRawValue<T>(_ error: any Error, of type: T.Type, at key: Key) -> Bool {
        guard T.self is any RawRepresentable.Type, defaults[key.stringValue] != nil,
              case DecodingError.dataCorrupted(let context) = error else { return false }
        return context.codingPath.map(\.stringValue) == (codingPath + [key]).map(\.stringValue)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type, key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try decodeIfPresent(type, key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type,
                                               forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try nestedDecoder(forKey: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try nestedDecoder(forKey: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        TolerantDecoder(inner: try inner.superDecoder(), defaults: [:])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try nestedDecoder(forKey: key)
    }

    /// The value at `key`, or nothing (an empty object or array) when it is missing or `null`.
    private func nestedDecoder(forKey key: Key) throws -> TolerantDecoder {
        if try decodeNil(forKey: key) {
            return TolerantDecoder(inner: MissingValueDecoder(codingPath: codingPath + [key]), defaults: [:])
        }
        return TolerantDecoder(inner: try inner.superDecoder(forKey: key), defaults: [:])
    }

    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try decode(type, forKey: key)
    }

    private func decodeIfPresent<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        try decodeIfPresent(type, forKey: key)
    }
}
