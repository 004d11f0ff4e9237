import HTTPCore
/// Like ``Lenient``, for an optional property: a missing key or `null` decodes to `nil`.
///
/// ```swift
/// @LenientOptional var score: Double?   // 9.5, "9.5", null or missing
/// ```
///
/// Encoding writes `null` for `nil` and the natural form otherwise.
@propertyWrapper
public struct LenientOptional<Value: LenientScalar>: Codable, Sendable {
    /// The decoded value, or `nil`.
    public var wrappedValue: Value?

    /// Wraps a value (no default, so the memberwise initialiser of a model takes a `Value?`).
    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    /// Decodes leniently; `null` gives `nil`.
    /// - Throws: `DecodingError.typeMismatch` when the scalar does not represent a `Value`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try Value.decodeLeniently(from: container)
    }

    /// Encodes `null` or the value in its natural form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue {
            try container.encode(wrappedValue)
        } else {
            try container.encodeNil()
        }
    }
}

extension LenientOptional: Equatable where Value: Equatable {}
extension LenientOptional: Hashable where Value: Hashable {}
