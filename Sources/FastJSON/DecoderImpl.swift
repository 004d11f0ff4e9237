import Foundation

/// The `Decoder` handed to `init(from:)`: one per decode call, re-pointed at
/// each nested value instead of allocating a decoder per value (as
/// Foundation's implementation does).
///
/// Its current position is `valueIndex`, and its coding path is
/// `pathParent` plus the not-yet-materialised last key `pathKey`, so decoding
/// a leaf value allocates no path node.
final class DecoderImpl {
    let document: JSONDocument
    let bytes: UnsafePointer<UInt8>
    let tape: UnsafePointer<TapeEntry>
    let options: DecodingOptions
    // The position changes around every nested value; only this decoder's
    // own (single-threaded, non-reentrant) methods touch it, so the dynamic
    // exclusivity checks class properties get by default would be pure cost.
    /// Tape index of the value `init(from:)` is reading.
    @exclusivity(unchecked) private(set) var valueIndex: Int
    /// The node of the current value's parent (or of the value itself once a
    /// container has been made for it).
    @exclusivity(unchecked) private(set) var pathParent: CodingPathNode?
    /// The current value's own path component, until a container adopts it.
    @exclusivity(unchecked) private(set) var pathKey: PathKey
    @exclusivity(unchecked) private var cachedUserInfo: [CodingUserInfoKey: Any]?
    /// `convertFromSnakeCase` results by raw key: documents repeat their keys.
    @exclusivity(unchecked) var snakeCaseKeys: [String: String] = [:]

    init(document: JSONDocument, options: DecodingOptions, valueIndex: Int, pathParent: CodingPathNode?, pathKey: PathKey) {
        self.document = document
        bytes = UnsafePointer(document.bytes)
        tape = UnsafePointer(document.tape)
        self.options = options
        self.valueIndex = valueIndex
        self.pathParent = pathParent
        self.pathKey = pathKey
    }

    /// Runs `body` with the decoder pointed at another value.
    @inline(__always)
    func with<R>(_ index: Int, parent: CodingPathNode?, key: PathKey, _ body: () throws -> R) rethrows -> R {
        // Swapping moves the old position out and back without copying it.
        let savedIndex = valueIndex
        var savedParent = parent
        var savedKey = key
        valueIndex = index
        swap(&savedParent, &pathParent)
        swap(&savedKey, &pathKey)
        defer {
            valueIndex = savedIndex
            swap(&savedParent, &pathParent)
            swap(&savedKey, &pathKey)
        }
        return try body()
    }

    // MARK: Errors, worded as Foundation words them

    static func describe(_ entry: TapeEntry) -> String {
        switch entry.kind {
        case .string: return "a string"
        case .number: return "number"
        case .true, .false: return "bool"
        case .null: return "null"
        case .object: return "a dictionary"
        case .array: return "an array"
        }
    }

    func typeMismatch(_ type: Any.Type, _ path: [any CodingKey], _ entry: TapeEntry) -> DecodingError {
        DecodingError.typeMismatch(type, DecodingError.Context(
            codingPath: path, debugDescription: "Expected to decode \(type) but found \(Self.describe(entry)) instead."))
    }

    func valueNotFound(_ type: Any.Type, _ path: [any CodingKey]) -> DecodingError {
        DecodingError.valueNotFound(type, DecodingError.Context(
            codingPath: path, debugDescription: "Cannot get value of type \(type) -- found null value instead"))
    }
}

extension DecoderImpl: Decoder {
    var codingPath: [any CodingKey] { CodingPathNode.path(pathParent, appending: pathKey) }

    var userInfo: [CodingUserInfoKey: Any] {
        if let cachedUserInfo { return cachedUserInfo }
        let converted = options.userInfo.mapValues { $0 as Any }
        cachedUserInfo = converted
        return converted
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let entry = tape[valueIndex]
        switch entry.kind {
        case .object:
            // The node is not kept as this decoder's path: it points back at
            // the decoder, and a decoder that outlives the call (a super
            // decoder) would keep the pair alive forever.
            let node = try ObjectNode(impl: self, parent: pathParent, key: pathKey, object: valueIndex)
            return KeyedDecodingContainer(KeyedContainer<Key>(node: node))
        case .null:
            throw DecodingError.valueNotFound([String: Any].self, DecodingError.Context(
                codingPath: codingPath, debugDescription: "Cannot get keyed decoding container -- found null value instead"))
        default:
            throw typeMismatch([String: Any].self, codingPath, entry)
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let entry = tape[valueIndex]
        switch entry.kind {
        case .array:
            let node = ArrayNode(impl: self, parent: pathParent, key: pathKey, array: valueIndex)
            return UnkeyedContainer(node: node)
        case .null:
            throw DecodingError.valueNotFound([Any].self, DecodingError.Context(
                codingPath: codingPath, debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
        default:
            throw typeMismatch([Any].self, codingPath, entry)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }
}
