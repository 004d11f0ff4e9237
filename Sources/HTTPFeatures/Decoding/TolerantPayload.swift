import HTTPCore
/// The top of a tolerant decode: the value at ``KeyPathContext/payloadPath`` (the whole
/// document when it is empty). The objects on the way are walked as ``KeyPathPayload`` walks
/// them (a missing one is the backend's `keyNotFound`); the value itself is missing or `null`
/// by tolerant mode's rules.
struct TolerantPayload<Value: Decodable>: Decodable {
    let value: Value

    init(from decoder: any Decoder) throws {
        let path = KeyPathContext.payloadPath
        guard let last = path.last else {
            value = try TolerantDecoder(inner: decoder, defaults: [:]).singleValueContainer().decode(Value.self)
            return
        }
        let container = try KeyPathContext.parentContainer(of: path, in: decoder)
        value = try TolerantKeyedContainer(inner: container, defaults: [:]).decode(Value.self, forKey: DynamicCodingKey(last))
    }
}
