import HTTPCore
/// Decodes a scalar property from whichever form the server sends — `12`, `"12"` or `12.0`
/// for an `Int`; `true`, `"true"`, `1` or `"1"` for a `Bool` — the counterpart of the
/// `TStrInt` helper types of iOS code bases. Opt-in per property; nothing else changes.
///
/// ```swift
/// struct RankItem: Codable {
///     var title: String
///     @Lenient var argValue: Int         // 1, "2", 3.0 all decode
///     var rankingType: StringNumber      // "月票值" as well as 2: text kept, number when there is one
///     @LenientOptional var badge: Int?   // missing or null → nil
/// }
/// ```
///
/// A value that is not a number (`"月票值"` for an `Int`) still fails: declare such a field
/// ``StringNumber``.
///
/// A missing key or `null` decodes to the type's ``LenientScalar/lenientDefault`` (`0`,
/// `false`, `""`); use ``LenientOptional`` to tell "missing" from "zero". Encoding writes the
/// natural form (`12`, `true`), which decodes again.
@propertyWrapper
public struct Lenient<Value: LenientScalar>: Codable, Sendable {
    /// The decoded value.
    public var wrappedValue: Value

    /// Wraps a value.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    /// Decodes leniently; `null` gives ``LenientScalar/lenientDefault``.
    /// - Throws: `DecodingError.typeMismatch` when the scalar does not represent a `Value`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? Value.lenientDefault : try Value.decodeLeniently(from: container)
    }

    /// Encodes the value in its natural form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension Lenient: Equatable where Value: Equatable {}
extension Lenient: Hashable where Value: Hashable {}

extension Lenient: CustomStringConvertible {
    /// The wrapped value's description.
    public var description: String { String(describing: wrappedValue) }
}
