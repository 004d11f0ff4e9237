/// A JSON array read front to back, following Foundation's rules: a failed
/// decode does not advance, `decodeIfPresent` advances even past the end, and
/// reading past the end is `valueNotFound` at the next index.
struct UnkeyedContainer: UnkeyedDecodingContainer {
    private let node: ArrayNode
    /// Tape index of the next element (== `node.end` when exhausted).
    private var cursor: Int
    private(set) var currentIndex: Int = 0

    init(node: ArrayNode) {
        self.node = node
        cursor = node.array + 1
    }

    private var impl: DecoderImpl { node.impl }

    var codingPath: [any CodingKey] { CodingPathNode.path(node) }

    var count: Int? { node.count }

    var isAtEnd: Bool { currentIndex >= node.count }

    @inline(__always)
    private var elementPath: [any CodingKey] { CodingPathNode.path(node, appending: .index(currentIndex)) }

    @inline(__always)
    private func next(_ type: Any.Type, message: String = "Unkeyed container is at end.") throws -> Int {
        guard cursor < node.end else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(codingPath: elementPath, debugDescription: message))
        }
        return cursor
    }

    @inline(__always)
    private mutating func advance() {
        if cursor < node.end { cursor = impl.document.next(after: cursor) }
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        let index = try next(Never.self)
        guard impl.tape[index].kind == .null else { return false }
        advance()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let (node, position) = (node, currentIndex)
        let value = try impl.unwrapBool(at: try next(Bool.self)) { CodingPathNode.path(node, appending: .index(position)) }
        advance()
        return value
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let (node, position) = (node, currentIndex)
        let value = try impl.unwrapString(at: try next(String.self)) { CodingPathNode.path(node, appending: .index(position)) }
        advance()
        return value
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        let (node, position) = (node, currentIndex)
        let value = try impl.unwrapDouble(at: try next(Double.self)) { CodingPathNode.path(node, appending: .index(position)) }
        advance()
        return value
    }

    mutating func decode(_ type: Float.Type) throws -> Float {
        let (node, position) = (node, currentIndex)
        let value = try impl.unwrapFloat(at: try next(Float.self)) { CodingPathNode.path(node, appending: .index(position)) }
        advance()
        return value
    }

    mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try integer() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try integer() }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try impl.unwrap(T.self, at: try next(T.self), parent: node, key: .index(currentIndex))
        advance()
        return value
    }

    mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
        try ifPresent { try $0.decode(Bool.self) }
    }

    mutating func decodeIfPresent(_ type: String.Type) throws -> String? {
        try ifPresent { try $0.decode(String.self) }
    }

    mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? {
        try ifPresent { try $0.decode(Double.self) }
    }

    mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? {
        try ifPresent { try $0.decode(Float.self) }
    }

    mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try ifPresent { try $0.integer() } }
    mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try ifPresent { try $0.integer() } }
    mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try ifPresent { try $0.integer() } }
    mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try ifPresent { try $0.integer() } }
    mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try ifPresent { try $0.integer() } }
    mutating func decodeIfPresent(_ type: Int128.Type) throws -> Int128? { try ifPresent { try $0.integer() } }
    mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try ifPresent { try $0.integer() } }
    mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try ifPresent { try $0.integer() } }
    mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try ifPresent { try $0.integer() } }
    mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try ifPresent { try $0.integer() } }
    mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try ifPresent { try $0.integer() } }
    mutating func decodeIfPresent(_ type: UInt128.Type) throws -> UInt128? { try ifPresent { try $0.integer() } }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        try ifPresent { try $0.decode(T.self) }
    }

    /// `nil` for a null element or past the end (advancing either way), else
    /// the decoded element.
    @inline(__always)
    private mutating func ifPresent<T>(_ decode: (inout UnkeyedContainer) throws -> T) throws -> T? {
        if cursor >= node.end || impl.tape[cursor].kind == .null {
            advance()
            return nil
        }
        return try decode(&self)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let index = try next(KeyedDecodingContainer<NestedKey>.self)
        let container = try impl.with(index, parent: node, key: .index(currentIndex)) {
            try impl.container(keyedBy: type)
        }
        advance()
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let index = try next((any UnkeyedDecodingContainer).self)
        let container = try impl.with(index, parent: node, key: .index(currentIndex)) {
            try impl.unkeyedContainer()
        }
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let index = try next((any Decoder).self, message: "Cannot get superDecoder() -- unkeyed container is at end.")
        let decoder = DecoderImpl(
            document: impl.document, options: impl.options, valueIndex: index,
            pathParent: node, pathKey: .index(currentIndex))
        advance()
        return decoder
    }

    @inline(__always)
    private mutating func integer<T: FixedWidthInteger>() throws -> T {
        let (node, position) = (node, currentIndex)
        let value = try impl.unwrapInteger(T.self, at: try next(T.self)) { CodingPathNode.path(node, appending: .index(position)) }
        advance()
        return value
    }
}
