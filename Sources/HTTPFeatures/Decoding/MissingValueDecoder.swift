import HTTPCore
/// A decoder of nothing — a value that is missing or `null` — that tolerant mode wraps to make
/// up a value: its keyed container has no keys, its unkeyed container no elements, its single
/// value is `null`. Everything it is asked to decode fails as a missing value does.
struct MissingValueDecoder: Decoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(MissingKeyedContainer<Key>(codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        MissingUnkeyedContainer(codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        MissingSingleValueContainer(codingPath: codingPath)
    }
}
