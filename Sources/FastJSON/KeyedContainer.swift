/// A JSON object seen through `Key`: a thin typed face on `ObjectNode`,
/// holding one reference so the standard library's box copies it cheaply.
struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    private let node: ObjectNode

    init(node: ObjectNode) {
        self.node = node
    }

    var codingPath: [any CodingKey] { CodingPathNode.path(node) }

    var allKeys: [Key] { node.names.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool {
        node.valueIndex(named: key.stringValue) != nil
    }

    @inline(__always)
    private func value(for key: Key) throws -> Int {
        guard let index = node.valueIndex(named: key.stringValue) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return index
    }

    @inline(__always)
    private func presentValue(for key: Key) -> Int? {
        guard let index = node.valueIndex(named: key.stringValue), node.impl.tape[index].kind != .null else { return nil }
        return index
    }

    @inline(__always)
    private func path(_ key: Key) -> [any CodingKey] {
        CodingPathNode.path(node, appending: .key(key))
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        node.impl.tape[try value(for: key)].kind == .null
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try node.impl.unwrapBool(at: try value(for: key)) { path(key) }
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try node.impl.unwrapString(at: try value(for: key)) { path(key) }
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try node.impl.unwrapDouble(at: try value(for: key)) { path(key) }
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try node.impl.unwrapFloat(at: try value(for: key)) { path(key) }
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try integer(key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try node.impl.unwrap(T.self, at: try value(for: key), parent: node, key: .key(key))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let index = presentValue(for: key) else { return nil }
        return try node.impl.unwrapBool(at: index) { path(key) }
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let index = presentValue(for: key) else { return nil }
        return try node.impl.unwrapString(at: index) { path(key) }
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let index = presentValue(for: key) else { return nil }
        return try node.impl.unwrapDouble(at: index) { path(key) }
    }

    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        guard let index = presentValue(for: key) else { return nil }
        return try node.impl.unwrapFloat(at: index) { path(key) }
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? { try integerIfPresent(key) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = presentValue(for: key) else { return nil }
        return try node.impl.unwrap(T.self, at: index, parent: node, key: .key(key))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let index = try value(for: key)
        let impl = node.impl
        return try impl.with(index, parent: node, key: .key(key)) { try impl.container(keyedBy: type) }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let index = try value(for: key)
        let impl = node.impl
        return try impl.with(index, parent: node, key: .key(key)) { try impl.unkeyedContainer() }
    }

    func superDecoder() throws -> any Decoder {
        decoder(for: JSONCodingKey.super)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder(for: key)
    }

    /// A separate decoder for the value at `key`, or for `null` when it is
    /// missing (Foundation's behaviour), so it stays valid if the caller keeps it.
    private func decoder(for key: some CodingKey) -> DecoderImpl {
        let impl = node.impl
        let index = node.valueIndex(named: key.stringValue) ?? impl.document.nullIndex
        return DecoderImpl(document: impl.document, options: impl.options, valueIndex: index, pathParent: node, pathKey: .key(key))
    }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ key: Key) throws -> T {
        try node.impl.unwrapInteger(T.self, at: try value(for: key)) { path(key) }
    }

    @inline(__always)
    private func integerIfPresent<T: FixedWidthInteger>(_ key: Key) throws -> T? {
        guard let index = presentValue(for: key) else { return nil }
        return try node.impl.unwrapInteger(T.self, at: index) { path(key) }
    }
}
