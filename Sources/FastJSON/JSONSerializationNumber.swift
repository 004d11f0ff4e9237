import Foundation

/// The number objects `JSONSerialization` produces on Linux, reproduced rule
/// for rule (swift-corelibs-foundation's `NSNumber.fromJSONNumber`), quirks
/// included: only a lowercase `e` counts as an exponent, and "digits" means
/// characters before it, sign and point included.
enum JSONSerializationNumber {
    /// The object for valid number text, or `nil` where `JSONSerialization`
    /// rejects the number as not representable.
    static func object(_ text: UnsafePointer<UInt8>, count: Int, flags: UInt64) -> NSNumber? {
        let string = String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        let buffer = UnsafeBufferPointer(start: text, count: count)
        let pointIndex = buffer.firstIndex(of: UInt8(ascii: "."))
        let exponentIndex = buffer.firstIndex(of: UInt8(ascii: "e"))
        let negative = text[0] == UInt8(ascii: "-")
        let digitCount = exponentIndex ?? count
        if pointIndex == nil, exponentIndex == nil {
            if negative {
                if digitCount <= 19, let value = Int64(string) { return NSNumber(value: value) }
            } else if digitCount <= 20, let value = UInt64(string) {
                return NSNumber(value: value)
            }
        }
        var exponent = 0
        if let exponentIndex {
            let exponentText = String(decoding: UnsafeBufferPointer(rebasing: buffer[(exponentIndex + 1)...]), as: UTF8.self)
            exponent = Int(exponentText) ?? 0
        }
        if digitCount > 17, (-128...127).contains(exponent), let decimal = Decimal(string: string), decimal.isFinite {
            return NSDecimalNumber(decimal: decimal)
        }
        let double = JSONNumberParser.rawDouble(text, count: count)
        guard double.isFinite else { return nil }
        return NSNumber(value: double)
    }
}
