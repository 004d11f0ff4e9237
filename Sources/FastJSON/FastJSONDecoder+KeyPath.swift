import Foundation

// Decoding the value at a dotted key path (`data.returnData.rankinglist`)
// straight from the parsed bytes: the envelope around it is never decoded.
extension FastJSONDecoder {
    /// Decodes a value of `type` found at `keyPath` in a JSON document.
    ///
    /// `keyPath` is a dot-separated list of object keys, matched against the
    /// JSON keys as written (no key decoding strategy, first of duplicates);
    /// a component that is a non-negative integer also indexes into an array.
    /// An empty key path decodes the whole document. Keys containing dots
    /// cannot be addressed. Coding paths in errors start at the document root,
    /// as if the envelope had been decoded as nested types.
    ///
    /// - Throws: `DecodingError.keyNotFound` for a missing key, with the path
    ///   of the object searched; `typeMismatch`/`valueNotFound` when a step is
    ///   not an object (or array); otherwise as `decode(_:from:)`. A `null` at
    ///   the path itself is decoded like any value, so `Optional` works.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data, atKeyPath keyPath: String) throws -> T {
        try Self.reportingInvalidJSON {
            let document = try JSONDocument.parse(data, maximumDepth: maximumDepth, strict: false)
            return try decode(T.self, in: document, from: 0, keyPath: keyPath)
        }
    }

    /// Decodes a value of `type` found at `keyPath` inside an already parsed
    /// value; the same rules as `decode(_:from:atKeyPath:)`, with coding paths
    /// starting at `value`.
    ///
    /// - Throws: `DecodingError`, as `decode(_:from:atKeyPath:)` does.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, atKeyPath keyPath: String) throws -> T {
        try Self.reportingInvalidJSON {
            try decode(T.self, in: value.document, from: value.index, keyPath: keyPath)
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, in document: JSONDocument, from root: Int, keyPath: String) throws -> T {
        let impl = DecoderImpl(document: document, options: options, valueIndex: root, pathParent: nil, pathKey: .none)
        var index = root
        var node: CodingPathNode?
        var key = PathKey.none
        let components = keyPath.isEmpty ? [] : keyPath.split(separator: ".", omittingEmptySubsequences: false)
        for component in components {
            if case .none = key {} else { node = CodingPathNode(parent: node, key: key) }
            let name = String(component)
            let entry = document.entry(index)
            switch entry.kind {
            case .object:
                guard let found = try document.member(named: name, inObject: index) else {
                    let missing = JSONCodingKey(stringValue: name)
                    throw DecodingError.keyNotFound(missing, DecodingError.Context(
                        codingPath: CodingPathNode.path(node),
                        debugDescription: "No value associated with key \(missing) (\"\(name)\")."))
                }
                index = found
                key = .key(JSONCodingKey(stringValue: name))
            case .array:
                guard let position = Int(name), position >= 0 else {
                    throw impl.typeMismatch([String: Any].self, CodingPathNode.path(node), entry)
                }
                guard let found = document.element(position, inArray: index) else {
                    throw DecodingError.valueNotFound(T.self, DecodingError.Context(
                        codingPath: CodingPathNode.path(node, appending: .index(position)),
                        debugDescription: "Unkeyed container is at end."))
                }
                index = found
                key = .index(position)
            case .null:
                throw DecodingError.valueNotFound([String: Any].self, DecodingError.Context(
                    codingPath: CodingPathNode.path(node),
                    debugDescription: "Cannot get keyed decoding container -- found null value instead"))
            default:
                throw impl.typeMismatch([String: Any].self, CodingPathNode.path(node), entry)
            }
        }
        return try impl.unwrap(T.self, at: index, parent: node, key: key)
    }
}
