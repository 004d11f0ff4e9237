import Foundation
import HTTPCore

extension FixedWidthInteger where Self: LenientScalar {
    /// `0`.
    public static var lenientDefault: Self { 0 }

    /// Integers, integral doubles (`12.0`) and strings holding either (`"12"`, `" 12 "`, `"12.0"`).
    public static func lenientValue(from token: LenientToken) -> Self? {
        switch token {
        case .integer(let value): Self(exactly: value)
        case .unsigned(let value): Self(exactly: value)
        case .double(let value): value.isFinite ? Self(exactly: value) : nil
        case .string(let string):
            Self(string.trimmingCharacters(in: .whitespaces))
                ?? Double(string.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? Self(exactly: $0) : nil }
        case .bool: nil
        }
    }
}

extension Int: LenientScalar {}
extension Int8: LenientScalar {}
extension Int16: LenientScalar {}
extension Int32: LenientScalar {}
extension Int64: LenientScalar {}
extension UInt: LenientScalar {}
extension UInt8: LenientScalar {}
extension UInt16: LenientScalar {}
extension UInt32: LenientScalar {}
extension UInt64: LenientScalar {}

extension Double: LenientScalar {
    /// `0`.
    public static var lenientDefault: Double { 0 }

    /// Numbers and numeric strings (`"12.5"`).
    public static func lenientValue(from token: LenientToken) -> Double? {
        switch token {
        case .integer(let value): Double(value)
        case .unsigned(let value): Double(value)
        case .double(let value): value
        case .string(let string): Double(string.trimmingCharacters(in: .whitespaces))
        case .bool: nil
        }
    }
}

extension Float: LenientScalar {
    /// `0`.
    public static var lenientDefault: Float { 0 }

    /// Numbers and numeric strings (`"12.5"`).
    public static func lenientValue(from token: LenientToken) -> Float? {
        Double.lenientValue(from: token).map(Float.init)
    }
}

extension Bool: LenientScalar {
    /// `false`.
    public static var lenientDefault: Bool { false }

    /// `true`/`false`, `1`/`0`, and the strings `"true"`/`"false"`/`"1"`/`"0"` (any case).
    public static func lenientValue(from token: LenientToken) -> Bool? {
        switch token {
        case .bool(let value): value
        case .integer(let value): value == 1 ? true : value == 0 ? false : nil
        case .unsigned: nil
        case .double(let value): value == 1 ? true : value == 0 ? false : nil
        case .string(let string):
            switch string.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "1": true
            case "false", "0": false
            default: nil
            }
        }
    }
}

extension String: LenientScalar {
    /// `""`.
    public static var lenientDefault: String { "" }

    /// Strings as they are; numbers in their shortest form (`12`, `12.5`); Booleans as `"true"`/`"false"`.
    public static func lenientValue(from token: LenientToken) -> String? {
        switch token {
        case .string(let value): value
        case .integer(let value): String(value)
        case .unsigned(let value): String(value)
        case .double(let value): EnvelopeCode.canonical(value)
        case .bool(let value): value ? "true" : "false"
        }
    }
}
