import Foundation

/// Converts JSON number text to Swift numbers with the results and failures of
/// Foundation's `JSONDecoder`: correctly rounded floating point (as `strtod`),
/// overflow and underflow to zero rejected for `Double`/`Float`, integers read
/// exactly, and a fraction or exponent accepted for an integer type only when
/// the value is whole (`1.0`, `1e2`).
enum JSONNumberParser {
    /// Whether the text follows the JSON grammar `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isValidJSONNumber(_ text: UnsafePointer<UInt8>, count: Int) -> Bool {
        var i = 0
        @inline(__always) func isDigit(_ k: Int) -> Bool { k < count && text[k] &- UInt8(ascii: "0") < 10 }
        if i < count, text[i] == UInt8(ascii: "-") { i += 1 }
        guard isDigit(i) else { return false }
        if text[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while isDigit(i) { i += 1 }
        }
        if i < count, text[i] == UInt8(ascii: ".") {
            i += 1
            guard isDigit(i) else { return false }
            while isDigit(i) { i += 1 }
        }
        if i < count, text[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < count, text[i] == UInt8(ascii: "+") || text[i] == UInt8(ascii: "-") { i += 1 }
            guard isDigit(i) else { return false }
            while isDigit(i) { i += 1 }
        }
        return i == count
    }

    // MARK: Integers

    /// Reads an integer type from a number entry's text.
    @inline(__always)
    static func integer<T: FixedWidthInteger>(
        _ type: T.Type, _ text: UnsafePointer<UInt8>, count: Int, flags: UInt64, offset: Int
    ) throws -> T {
        guard flags & TapeEntry.validNumber != 0 else { throw JSONParseError(.invalidNumber, offset: offset) }
        if flags & TapeEntry.integerNumber != 0 {
            // Up to 18 digits cannot overflow 64 bits.
            let negative = text[0] == UInt8(ascii: "-")
            let first = negative ? 1 : 0
            if count - first <= 18 {
                var magnitude: Int64 = 0
                var i = first
                while i < count {
                    magnitude = magnitude &* 10 &+ Int64(text[i] &- UInt8(ascii: "0"))
                    i &+= 1
                }
                if let value = T(exactly: negative ? -magnitude : magnitude) { return value }
            } else if let value = wideInteger(T.self, text, count: count) {
                return value
            }
            // Foundation falls back to Double then Decimal here; neither can
            // succeed for an integer literal that overflows `T`.
            throw notRepresentable(text, count: count)
        }
        return try slowInteger(T.self, text, count: count)
    }

    /// Digit-by-digit with overflow checks, accumulating toward the sign so
    /// `T.min` is reachable.
    private static func wideInteger<T: FixedWidthInteger>(_ type: T.Type, _ text: UnsafePointer<UInt8>, count: Int) -> T? {
        let negative = text[0] == UInt8(ascii: "-")
        var value: T = 0
        var i = negative ? 1 : 0
        while i < count {
            let digit = T(text[i] &- UInt8(ascii: "0"))
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative
                ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            value = next
            i += 1
        }
        return value
    }

    /// Foundation's path for `1.0`/`1e2` as an integer: through `Double`, and
    /// through `Decimal` where `Double` cannot hold the value exactly.
    private static func slowInteger<T: FixedWidthInteger>(_ type: T.Type, _ text: UnsafePointer<UInt8>, count: Int) throws -> T {
        let double = rawDouble(text, count: count)
        guard let value = T(exactly: double) else { throw notRepresentable(text, count: count) }
        if double.magnitude < 9_007_199_254_740_992 { return value }  // 2^53
        let string = String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        guard let decimal = Decimal(string: string), let exact = integer(T.self, fromDecimal: decimal) else {
            throw notRepresentable(text, count: count)
        }
        return exact
    }

    /// Foundation's `FixedWidthInteger.init?(_: Decimal)`: the significand
    /// must fit 64 bits, a negative exponent truncates, a positive one must
    /// not overflow.
    static func integer<T: FixedWidthInteger>(_ type: T.Type, fromDecimal decimal: Decimal) -> T? {
        guard !decimal.isNaN else { return nil }
        let isNegative = decimal.sign == .minus && !decimal.isZero
        if isNegative && !T.isSigned { return nil }
        // The public surface has no raw mantissa; the significand's digits are it.
        var digits = decimal.significand.description
        if digits.hasPrefix("-") { digits.removeFirst() }
        guard var d = UInt64(digits) else { return nil }
        if decimal.exponent < 0 {
            for _ in 0 ..< -decimal.exponent { d /= 10 }
        } else {
            for _ in 0 ..< decimal.exponent {
                let (product, overflow) = d.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                d = product
            }
        }
        if isNegative {
            guard let magnitude = T(exactly: d) else { return nil }
            return 0 - magnitude
        }
        return T(exactly: d)
    }

    // MARK: Floating point

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
    private static let powersOfTenFloat: [Float] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10]

    /// Decimal significand (up to 19 digits) and power of ten of the text, or
    /// `nil` when there are more significant digits than that.
    @inline(__always)
    private static func decompose(_ text: UnsafePointer<UInt8>, count: Int) -> (negative: Bool, significand: UInt64, exponent: Int)? {
        var i = 0
        let negative = text[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        var significand: UInt64 = 0
        var digits = 0
        var exponent = 0
        while i < count {
            let digit = text[i] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            if significand != 0 || digit != 0 {
                guard digits < 19 else { return nil }
                significand = significand &* 10 &+ UInt64(digit)
                digits += 1
            }
            i += 1
        }
        if i < count, text[i] == UInt8(ascii: ".") {
            i += 1
            while i < count {
                let digit = text[i] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                if significand != 0 || digit != 0 {
                    guard digits < 19 else { return nil }
                    significand = significand &* 10 &+ UInt64(digit)
                    digits += 1
                }
                exponent -= 1
                i += 1
            }
        }
        if i < count, text[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var negativeExponent = false
            if i < count, text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") {
                negativeExponent = text[i] == UInt8(ascii: "-")
                i += 1
            }
            var value = 0
            while i < count {
                let digit = text[i] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                value = min(value * 10 + Int(digit), 1_000_000)
                i += 1
            }
            exponent += negativeExponent ? -value : value
        }
        return (negative, significand, exponent)
    }

    /// The nearest `Double` to valid number text, as `strtod` gives it (±infinity
    /// on overflow, ±0 on underflow).
    @inline(__always)
    static func rawDouble(_ text: UnsafePointer<UInt8>, count: Int) -> Double {
        if let (negative, significand, exponent) = decompose(text, count: count) {
            var value: Double?
            if significand == 0 {
                value = 0
            } else if significand < 1 << 53, exponent == 0 {
                value = Double(significand)
            } else if significand < 1 << 53, exponent > 0, exponent <= 22 {
                // Clinger's fast path: both operands exact, one correctly rounded operation.
                value = Double(significand) * powersOfTen[exponent]
            } else if significand < 1 << 53, exponent < 0, exponent >= -22 {
                value = Double(significand) / powersOfTen[-exponent]
            } else {
                // 17-19 significant digits, as shortest round-trip printing of
                // doubles produces: exact 128-bit integer arithmetic.
                value = exactDouble(significand, exponent)
            }
            if let value { return negative ? -value : value }
        }
        let string = String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        return Double(string) ?? .nan
    }

    private static let integerPowersOfTen: [UInt64] = (0...19).map { power in
        (0..<power).reduce(UInt64(1)) { value, _ in value * 10 }
    }

    /// `significand × 10^exponent`, correctly rounded, for `|exponent| <= 19`:
    /// the product, or a quotient scaled to at least 55 bits plus whether a
    /// remainder was left, holds everything rounding needs.
    private static func exactDouble(_ significand: UInt64, _ exponent: Int) -> Double? {
        guard significand != 0, exponent.magnitude <= 19 else { return nil }
        let power = UInt128(integerPowersOfTen[Int(exponent.magnitude)])
        if exponent >= 0 {
            // Both factors are below 2^64, so the product fits 128 bits.
            return rounded(UInt128(significand) * power, inexact: false, binaryExponent: 0)
        }
        let significandBits = 64 - significand.leadingZeroBitCount
        let powerBits = 128 - power.leadingZeroBitCount
        let shift = max(0, 55 + powerBits - significandBits)
        guard significandBits + shift <= 127 else { return nil }
        let (quotient, remainder) = (UInt128(significand) << shift).quotientAndRemainder(dividingBy: power)
        return rounded(quotient, inexact: remainder != 0, binaryExponent: -shift)
    }

    /// `value × 2^binaryExponent` rounded to nearest, ties to even, where
    /// `inexact` means the true value lies strictly above `value`.
    private static func rounded(_ value: UInt128, inexact: Bool, binaryExponent: Int) -> Double? {
        let bits = 128 - value.leadingZeroBitCount
        guard bits > 53 else {
            guard !inexact else { return nil }
            return Double(sign: .plus, exponent: binaryExponent, significand: Double(UInt64(truncatingIfNeeded: value)))
        }
        let dropped = bits - 53
        var mantissa = UInt64(truncatingIfNeeded: value >> dropped)
        let rest = value & ((UInt128(1) << dropped) - 1)
        let half = UInt128(1) << (dropped - 1)
        if rest > half || (rest == half && (inexact || mantissa & 1 == 1)) {
            mantissa += 1
        }
        return Double(sign: .plus, exponent: binaryExponent + dropped, significand: Double(mantissa))
    }

    /// The nearest `Float` to valid number text, as `strtof` gives it.
    @inline(__always)
    static func rawFloat(_ text: UnsafePointer<UInt8>, count: Int) -> Float {
        if let (negative, significand, exponent) = decompose(text, count: count), significand < 1 << 24 {
            var value: Float?
            if significand == 0 {
                value = 0
            } else if exponent == 0 {
                value = Float(significand)
            } else if exponent > 0, exponent <= 10 {
                value = Float(significand) * powersOfTenFloat[exponent]
            } else if exponent < 0, exponent >= -10 {
                value = Float(significand) / powersOfTenFloat[-exponent]
            }
            if let value { return negative ? -value : value }
        }
        let string = String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        return Float(string) ?? .nan
    }

    /// Reads a `Double` from a number entry, rejecting overflow and underflow to zero.
    @inline(__always)
    static func double(_ text: UnsafePointer<UInt8>, count: Int, flags: UInt64, offset: Int) throws -> Double {
        guard flags & TapeEntry.validNumber != 0 else { throw JSONParseError(.invalidNumber, offset: offset) }
        let value = rawDouble(text, count: count)
        guard value.isFinite, value != 0 || isTrueZero(text, count: count) else { throw notRepresentable(text, count: count) }
        return value
    }

    /// Reads a `Float` from a number entry, rejecting overflow and underflow to zero.
    @inline(__always)
    static func float(_ text: UnsafePointer<UInt8>, count: Int, flags: UInt64, offset: Int) throws -> Float {
        guard flags & TapeEntry.validNumber != 0 else { throw JSONParseError(.invalidNumber, offset: offset) }
        let value = rawFloat(text, count: count)
        guard value.isFinite, value != 0 || isTrueZero(text, count: count) else { throw notRepresentable(text, count: count) }
        return value
    }

    /// Reads a `Decimal` from a number entry.
    static func decimal(_ text: UnsafePointer<UInt8>, count: Int, flags: UInt64, offset: Int) throws -> Decimal {
        guard flags & TapeEntry.validNumber != 0 else { throw JSONParseError(.invalidNumber, offset: offset) }
        let string = String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        guard let value = Decimal(string: string) else { throw notRepresentable(text, count: count) }
        return value
    }

    /// No digit before the exponent is non-zero.
    static func isTrueZero(_ text: UnsafePointer<UInt8>, count: Int) -> Bool {
        for i in 0..<count {
            let byte = text[i]
            if byte | 0x20 == UInt8(ascii: "e") { return true }
            if byte >= UInt8(ascii: "1"), byte <= UInt8(ascii: "9") { return false }
        }
        return true
    }

    static func notRepresentable(_ text: UnsafePointer<UInt8>, count: Int) -> JSONParseError {
        JSONParseError(.numberNotRepresentable(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)))
    }
}
