import Foundation
import HTTPCore

/// What a missing key or `null` gives in tolerant mode for a type with a natural empty value.
protocol TolerantDefault {
    static var tolerantDefault: Self { get }
}

extension FixedWidthInteger {
    static var tolerantDefault: Self { 0 }
}

extension Int: TolerantDefault {}
extension Int8: TolerantDefault {}
extension Int16: TolerantDefault {}
extension Int32: TolerantDefault {}
extension Int64: TolerantDefault {}
extension Int128: TolerantDefault {}
extension UInt: TolerantDefault {}
extension UInt8: TolerantDefault {}
extension UInt16: TolerantDefault {}
extension UInt32: TolerantDefault {}
extension UInt64: TolerantDefault {}
extension UInt128: TolerantDefault {}

extension Double: TolerantDefault {
    static var tolerantDefault: Double { 0 }
}

extension Float: TolerantDefault {
    static var tolerantDefault: Float { 0 }
}

extension Decimal: TolerantDefault {
    static var tolerantDefault: Decimal { 0 }
}

extension Bool: TolerantDefault {
    static var tolerantDefault: Bool { false }
}

extension String: TolerantDefault {
    static var tolerantDefault: String { "" }
}

extension Array: TolerantDefault {
    static var tolerantDefault: Array { [] }
}

extension Dictionary: TolerantDefault {
    static var tolerantDefault: Dictionary { [:] }
}

extension Set: TolerantDefault {
    static var tolerantDefault: Set { [] }
}

extension Optional: TolerantDefault {
    static var tolerantDefault: Optional { nil }
}

extension StringNumber: TolerantDefault {
    static var tolerantDefault: StringNumber { .empty }
}

extension Empty: TolerantDefault {
    static var tolerantDefault: Empty { .value }
}

extension Lenient: TolerantDefault {
    static var tolerantDefault: Lenient { Lenient(wrappedValue: Value.lenientDefault) }
}

extension LenientOptional: TolerantDefault {
    static var tolerantDefault: LenientOptional { LenientOptional(wrappedValue: nil) }
}
