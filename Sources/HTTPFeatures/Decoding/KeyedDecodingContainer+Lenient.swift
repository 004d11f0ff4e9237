import HTTPCore
extension KeyedDecodingContainer {
    /// Lets a missing key decode to ``LenientScalar/lenientDefault``: synthesized `Decodable`
    /// conformances call `decode(_:forKey:)` for wrapped properties, which would otherwise
    /// throw `keyNotFound`.
    public func decode<Value>(_ type: Lenient<Value>.Type, forKey key: Key) throws -> Lenient<Value> {
        try decodeIfPresent(type, forKey: key) ?? Lenient(wrappedValue: Value.lenientDefault)
    }

    /// Lets a missing key decode to `nil` (see the ``Lenient`` overload).
    public func decode<Value>(_ type: LenientOptional<Value>.Type, forKey key: Key) throws -> LenientOptional<Value> {
        try decodeIfPresent(type, forKey: key) ?? LenientOptional(wrappedValue: nil)
    }
}
