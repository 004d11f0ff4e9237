import Foundation

/// `as?` from the Foundation objects a transform gets, with `NSNumber` converted to Swift's
/// number types explicitly: the bridging `as?` on Apple platforms does it, but not every
/// Foundation does it the same way.
enum NumberBridge {
    static func cast<T>(_ value: Any) -> T? {
        if let value = value as? T { return value }
        guard let number = value as? NSNumber else { return nil }
        switch T.self {
        case is Int.Type: return Int(exactly: number.doubleValue).map { _ in number.intValue } as? T
        case is Int64.Type: return Int64(exactly: number.doubleValue).map { _ in number.int64Value } as? T
        case is Double.Type: return number.doubleValue as? T
        case is Float.Type: return number.floatValue as? T
        case is Bool.Type: return number.boolValue as? T
        default: return nil
        }
    }

    /// The number as seconds (or other units), also from a numeric string, as ObjectMapper's
    /// `DateTransform` reads it.
    static func double(_ value: Any?) -> Double? {
        if let number = value as? NSNumber { return number.doubleValue }
        if let string = value as? String { return Double(string) }
        return nil
    }
}
