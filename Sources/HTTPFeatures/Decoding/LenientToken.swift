import HTTPCore
/// A JSON scalar as it was sent, handed to ``LenientScalar/lenientValue(from:)``.
public enum LenientToken: Sendable, Hashable {
    /// `true` or `false`.
    case bool(Bool)
    /// A number without fraction that fits in `Int64`.
    case integer(Int64)
    /// A number without fraction above `Int64.max`.
    case unsigned(UInt64)
    /// Any other number.
    case double(Double)
    /// A string, as sent.
    case string(String)

    /// Reads the scalar a single-value container holds (not `null`).
    /// - Throws: `DecodingError.typeMismatch` for an array or an object.
    public init(from container: any SingleValueDecodingContainer) throws {
        // Order matters: decoding Int64 from `true` fails, but decoding Double from `12` succeeds.
        if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let unsigned = try? container.decode(UInt64.self) {
            self = .unsigned(unsigned)
        } else if let double = try? container.decode(Double.self) {
            self = .double(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else {
            throw DecodingError.typeMismatch(LenientToken.self, .init(codingPath: container.codingPath,
                                                                      debugDescription: "expected a number, a string or a Boolean"))
        }
    }
}
