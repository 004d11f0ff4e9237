import HTTPCore
/// Decodes `Value` found at ``KeyPathContext/payloadPath`` — the envelope's payload — without
/// converting the body to Foundation objects and back.
///
/// A missing key decodes to `nil` when `Value` is optional; otherwise it is a
/// `DecodingError.keyNotFound` naming the key and its path.
struct KeyPathPayload<Value: Decodable>: Decodable {
    let value: Value

    init(from decoder: any Decoder) throws {
        let path = KeyPathContext.payloadPath
        guard let last = path.last else {
            value = try decoder.singleValueContainer().decode(Value.self)
            return
        }
        let container = try KeyPathContext.parentContainer(of: path, in: decoder)
        let key = DynamicCodingKey(last)
        if !container.contains(key), let none = KeyPathPayload.missingValue {
            value = none
            return
        }
        value = try container.decode(Value.self, forKey: key)
    }

    /// What a missing payload decodes to: `nil` when `Value` is optional, else `nil` here
    /// (meaning "no value": the caller reports the missing key).
    static var missingValue: Value? {
        guard let optional = Value.self as? any ExpressibleByNilLiteral.Type else { return nil }
        return optional.init(nilLiteral: ()) as? Value
    }
}
