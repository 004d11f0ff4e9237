import HTTPCore
extension KeyedDecodingContainer {
    /// Lets a missing key decode to ``StringNumber/empty``: synthesized `Decodable`
    /// conformances call `decode(_:forKey:)`, which would otherwise throw `keyNotFound`.
    public func decode(_ type: StringNumber.Type, forKey key: Key) throws -> StringNumber {
        try decodeIfPresent(type, forKey: key) ?? .empty
    }

    /// Lets a missing key or `null` decode to ``Empty/value``, so a generic model such as
    /// `BaseData<Empty>` decodes whatever its `data` holds.
    public func decode(_ type: Empty.Type, forKey key: Key) throws -> Empty {
        Empty.value
    }
}
