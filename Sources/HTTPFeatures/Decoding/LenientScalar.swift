import Foundation
import HTTPCore

/// A scalar that ``Lenient`` and ``LenientOptional`` decode from whichever JSON form the
/// server happened to send: a number, a numeric string or a Boolean.
///
/// Conforming types: every standard integer type, `Double`, `Float`, `Bool` and `String`.
/// Conversions are exact — `12.5` or `"abc"` for an `Int` still fail with a `typeMismatch`;
/// leniency is about representation, not about garbage.
public protocol LenientScalar: Codable, Sendable {
    /// What a missing key or `null` decodes to under ``Lenient``: `0`, `false` or `""`.
    static var lenientDefault: Self { get }

    /// Makes a value from the scalar in `token`, or `nil` when it does not represent one.
    static func lenientValue(from token: LenientToken) -> Self?
}

extension LenientScalar {
    /// Decodes leniently from a single-value container that is not `null`.
    static func decodeLeniently(from container: any SingleValueDecodingContainer) throws -> Self {
        let token = try LenientToken(from: container)
        guard let value = lenientValue(from: token) else {
            throw DecodingError.typeMismatch(Self.self, .init(codingPath: container.codingPath,
                                                              debugDescription: "\(token) does not represent a \(Self.self)"))
        }
        return value
    }
}
