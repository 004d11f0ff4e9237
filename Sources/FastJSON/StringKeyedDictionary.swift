/// Marks `[String: Value]` so the decoder can exempt its keys from key
/// conversion strategies, as Foundation's decoder does for the same types.
protocol StringKeyedDictionary {
    static func decodeWithoutKeyConversion(
        from decoder: DecoderImpl, at index: Int, parent: CodingPathNode?, key: PathKey
    ) throws -> Self
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Decodable {
    static func decodeWithoutKeyConversion(
        from decoder: DecoderImpl, at index: Int, parent: CodingPathNode?, key: PathKey
    ) throws -> Self {
        try decoder.unwrapStringKeyedDictionary(Value.self, at: index, parent: parent, key: key)
    }
}
