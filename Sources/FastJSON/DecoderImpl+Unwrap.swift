import Foundation

/// Reinterprets a value as `T` after the caller has checked `T.self == U.self`,
/// avoiding a dynamic cast on the hottest paths; it is an identity, never a
/// conversion.
@inline(__always)
private func identity<T, U>(_ value: U, as _: T.Type) -> T {
    unsafeBitCast(value, to: T.self)
}

// Reading scalars and the types Foundation's decoder treats specially. Each
// takes the error path as a closure so no path is built unless it throws.
extension DecoderImpl {
    @inline(__always)
    func unwrapBool(at index: Int, path: () -> [any CodingKey]) throws -> Bool {
        let entry = tape[index]
        switch entry.kind {
        case .true: return true
        case .false: return false
        // Foundation reports null here as a type mismatch, not a missing value.
        default: throw typeMismatch(Bool.self, path(), entry)
        }
    }

    @inline(__always)
    func unwrapString(at index: Int, path: () -> [any CodingKey]) throws -> String {
        let entry = tape[index]
        guard entry.kind == .string else {
            throw entry.kind == .null ? valueNotFound(String.self, path()) : typeMismatch(String.self, path(), entry)
        }
        return try JSONStringDecoder.decode(bytes + entry.offset, length: entry.length, flags: entry.header, documentOffset: entry.offset)
    }

    @inline(__always)
    func unwrapInteger<T: FixedWidthInteger>(_ type: T.Type, at index: Int, path: () -> [any CodingKey]) throws -> T {
        let entry = tape[index]
        guard entry.kind == .number else {
            throw entry.kind == .null ? valueNotFound(T.self, path()) : typeMismatch(T.self, path(), entry)
        }
        return try JSONNumberParser.integer(T.self, bytes + entry.offset, count: entry.length, flags: entry.header, offset: entry.offset)
    }

    @inline(__always)
    func unwrapDouble(at index: Int, path: () -> [any CodingKey]) throws -> Double {
        let entry = tape[index]
        if entry.kind == .number {
            return try JSONNumberParser.double(bytes + entry.offset, count: entry.length, flags: entry.header, offset: entry.offset)
        }
        return try nonConforming(Double.self, entry, path: path)
    }

    @inline(__always)
    func unwrapFloat(at index: Int, path: () -> [any CodingKey]) throws -> Float {
        let entry = tape[index]
        if entry.kind == .number {
            return try JSONNumberParser.float(bytes + entry.offset, count: entry.length, flags: entry.header, offset: entry.offset)
        }
        return try nonConforming(Float.self, entry, path: path)
    }

    /// Infinity and NaN spelled as strings, when the strategy allows it; only
    /// escape-free strings qualify, compared byte for byte, as in Foundation.
    private func nonConforming<T: BinaryFloatingPoint>(_ type: T.Type, _ entry: TapeEntry, path: () -> [any CodingKey]) throws -> T {
        if entry.kind == .null { throw valueNotFound(T.self, path()) }
        if entry.kind == .string, entry.has(TapeEntry.simpleString),
           case .convertFromString(let positiveInfinity, let negativeInfinity, let nan) = options.nonConformingFloatDecodingStrategy {
            let text = UnsafeBufferPointer(start: bytes + entry.offset, count: entry.length)
            if text.elementsEqual(positiveInfinity.utf8) { return T.infinity }
            if text.elementsEqual(negativeInfinity.utf8) { return -T.infinity }
            if text.elementsEqual(nan.utf8) { return T.nan }
        }
        throw typeMismatch(T.self, path(), entry)
    }

    // MARK: Any Decodable

    /// Decodes `T` from the value at `index`, whose coding path is `parent`
    /// plus `key`.
    ///
    /// Only metatype comparisons happen here; each special case lives in its
    /// own function because merely mentioning `T?` or a cast to `T` makes the
    /// compiler fetch generic metadata on every call.
    func unwrap<T: Decodable>(_ type: T.Type, at index: Int, parent: CodingPathNode?, key: PathKey) throws -> T {
        // Common leaf types and arrays of them skip the `init(from:)` round
        // trip; results and errors are those `T(from:)` would give.
        if T.self == String.self {
            return identity(try unwrapString(at: index) { CodingPathNode.path(parent, appending: key) }, as: T.self)
        }
        if T.self == Int.self {
            return identity(try unwrapInteger(Int.self, at: index) { CodingPathNode.path(parent, appending: key) }, as: T.self)
        }
        if T.self == Double.self {
            return identity(try unwrapDouble(at: index) { CodingPathNode.path(parent, appending: key) }, as: T.self)
        }
        if T.self == Bool.self {
            return identity(try unwrapBool(at: index) { CodingPathNode.path(parent, appending: key) }, as: T.self)
        }
        if T.self == [String].self {
            return identity(try unwrapArray(at: index, parent: parent, key: key) { try unwrapString(at: $0, path: $1) }, as: T.self)
        }
        if T.self == [Int].self {
            return identity(try unwrapArray(at: index, parent: parent, key: key) { try unwrapInteger(Int.self, at: $0, path: $1) }, as: T.self)
        }
        if T.self == [Double].self {
            return identity(try unwrapArray(at: index, parent: parent, key: key) { try unwrapDouble(at: $0, path: $1) }, as: T.self)
        }
        if T.self == [Bool].self {
            return identity(try unwrapArray(at: index, parent: parent, key: key) { try unwrapBool(at: $0, path: $1) }, as: T.self)
        }
        if T.self == Date.self {
            return identity(try unwrapDate(at: index, parent: parent, key: key), as: T.self)
        }
        if T.self == Data.self {
            return identity(try unwrapData(at: index, parent: parent, key: key), as: T.self)
        }
        if T.self == URL.self {
            return identity(try unwrapURL(at: index, parent: parent, key: key), as: T.self)
        }
        if T.self == Decimal.self {
            return identity(try unwrapDecimal(at: index, parent: parent, key: key), as: T.self)
        }
        if !options.usesDefaultKeys, T.self is any StringKeyedDictionary.Type {
            return try unwrapMarkedDictionary(T.self, at: index, parent: parent, key: key)
        }
        return try with(index, parent: parent, key: key) {
            try T(from: self)
        }
    }

    @inline(never)
    private func unwrapMarkedDictionary<T: Decodable>(_ type: T.Type, at index: Int, parent: CodingPathNode?, key: PathKey) throws -> T {
        if let dictionaryType = T.self as? any StringKeyedDictionary.Type,
           let result = try dictionaryType.decodeWithoutKeyConversion(from: self, at: index, parent: parent, key: key) as? T {
            return result
        }
        return try with(index, parent: parent, key: key) { try T(from: self) }
    }

    /// An array of a leaf type, as `Array.init(from:)` would decode it through
    /// an unkeyed container (same errors, same paths), without the container.
    @inline(__always)
    private func unwrapArray<Element>(
        at index: Int, parent: CodingPathNode?, key: PathKey,
        element: (Int, () -> [any CodingKey]) throws -> Element
    ) throws -> [Element] {
        let entry = tape[index]
        guard entry.kind == .array else {
            let path = CodingPathNode.path(parent, appending: key)
            if entry.kind == .null {
                throw DecodingError.valueNotFound([Any].self, DecodingError.Context(
                    codingPath: path, debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
            }
            throw typeMismatch([Any].self, path, entry)
        }
        var result: [Element] = []
        result.reserveCapacity(entry.count)
        var item = index + 1
        var position = 0
        while item < entry.end {
            result.append(try element(item) {
                let node: CodingPathNode?
                if case .none = key { node = parent } else { node = CodingPathNode(parent: parent, key: key) }
                return CodingPathNode.path(node, appending: .index(position))
            })
            item = document.next(after: item)
            position += 1
        }
        return result
    }

    private func checkNotNull(_ type: Any.Type, at index: Int, parent: CodingPathNode?, key: PathKey) throws {
        if tape[index].kind == .null {
            throw valueNotFound(type, CodingPathNode.path(parent, appending: key))
        }
    }

    private func unwrapDate(at index: Int, parent: CodingPathNode?, key: PathKey) throws -> Date {
        try checkNotNull(Date.self, at: index, parent: parent, key: key)
        switch options.dateDecodingStrategy {
        case .deferredToDate:
            return try with(index, parent: parent, key: key) { try Date(from: self) }
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try unwrapDouble(at: index) { CodingPathNode.path(parent, appending: key) })
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try unwrapDouble(at: index) { CodingPathNode.path(parent, appending: key) } / 1000.0)
        case .iso8601:
            let string = try unwrapString(at: index) { CodingPathNode.path(parent, appending: key) }
            guard let date = try? Date.ISO8601FormatStyle().parse(string) else {
                // Foundation reports this one at the container's path, without the key.
                throw DecodingError.dataCorrupted(DecodingError.Context(
                    codingPath: codingPath, debugDescription: "Expected date string to be ISO8601-formatted."))
            }
            return date
        case .custom(let closure):
            return try with(index, parent: parent, key: key) { try closure(self) }
        @unknown default:
            return try with(index, parent: parent, key: key) { try Date(from: self) }
        }
    }

    private func unwrapData(at index: Int, parent: CodingPathNode?, key: PathKey) throws -> Data {
        try checkNotNull(Data.self, at: index, parent: parent, key: key)
        switch options.dataDecodingStrategy {
        case .deferredToData:
            return try with(index, parent: parent, key: key) { try Data(from: self) }
        case .base64:
            let entry = tape[index]
            guard entry.kind == .string else {
                throw typeMismatch(String.self, CodingPathNode.path(parent, appending: key), entry)
            }
            let string = try unwrapString(at: index) { CodingPathNode.path(parent, appending: key) }
            guard let data = Data(base64Encoded: string) else {
                throw DecodingError.dataCorrupted(DecodingError.Context(
                    codingPath: CodingPathNode.path(parent, appending: key), debugDescription: "Encountered Data is not valid Base64."))
            }
            return data
        case .custom(let closure):
            return try with(index, parent: parent, key: key) { try closure(self) }
        @unknown default:
            return try with(index, parent: parent, key: key) { try Data(from: self) }
        }
    }

    private func unwrapURL(at index: Int, parent: CodingPathNode?, key: PathKey) throws -> URL {
        try checkNotNull(URL.self, at: index, parent: parent, key: key)
        let string = try unwrapString(at: index) { CodingPathNode.path(parent, appending: key) }
        guard let url = URL(string: string) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: CodingPathNode.path(parent, appending: key), debugDescription: "Invalid URL string."))
        }
        return url
    }

    private func unwrapDecimal(at index: Int, parent: CodingPathNode?, key: PathKey) throws -> Decimal {
        try checkNotNull(Decimal.self, at: index, parent: parent, key: key)
        let entry = tape[index]
        guard entry.kind == .number else {
            throw DecodingError.typeMismatch(Decimal.self, DecodingError.Context(
                codingPath: CodingPathNode.path(parent, appending: key), debugDescription: ""))
        }
        return try JSONNumberParser.decimal(bytes + entry.offset, count: entry.length, flags: entry.header, offset: entry.offset)
    }

    /// A `[String: Value]` under a key conversion strategy: its keys are data,
    /// not property names, so Foundation leaves them unconverted; first
    /// occurrence of a duplicate wins.
    func unwrapStringKeyedDictionary<Value: Decodable>(
        _ valueType: Value.Type, at index: Int, parent: CodingPathNode?, key: PathKey
    ) throws -> [String: Value] {
        try checkNotNull([String: Any].self, at: index, parent: parent, key: key)
        let entry = tape[index]
        guard entry.kind == .object else {
            throw typeMismatch([String: Any].self, CodingPathNode.path(parent, appending: key), entry)
        }
        let node: CodingPathNode?
        if case .none = key { node = parent } else { node = CodingPathNode(parent: parent, key: key) }
        var result: [String: Value] = [:]
        result.reserveCapacity(entry.count)
        var member = index + 1
        while member < entry.end {
            let name = try unwrapString(at: member) { CodingPathNode.path(node) }
            let value = try unwrap(Value.self, at: member + 1, parent: node, key: .key(JSONCodingKey(stringValue: name)))
            if result[name] == nil { result[name] = value }
            member = document.next(after: member + 1)
        }
        return result
    }
}
