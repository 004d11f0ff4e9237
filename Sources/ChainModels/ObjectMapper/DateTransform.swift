import Foundation

/// Dates as numbers since 1970, ObjectMapper's `DateTransform`: seconds by default (a number
/// or a numeric string is read; a `Double` is written).
public struct DateTransform: TransformType {
    /// The unit of the number.
    public enum Unit: Double, Sendable {
        /// Seconds (the default).
        case seconds = 1
        /// Milliseconds.
        case milliseconds = 1_000
    }

    /// The property's type.
    public typealias Object = Date
    /// The JSON form.
    public typealias JSON = Double

    private let unit: Unit

    /// Makes the transform; `unit` defaults to `.seconds`.
    public init(unit: Unit = .seconds) {
        self.unit = unit
    }

    /// The date `value` units after 1970; `nil` for anything but a number or numeric string.
    public func transformFromJSON(_ value: Any?) -> Date? {
        guard let number = NumberBridge.double(value), number.isFinite else { return nil }
        return Date(timeIntervalSince1970: number / unit.rawValue)
    }

    /// The date as units since 1970.
    public func transformToJSON(_ value: Date?) -> Double? {
        value.map { $0.timeIntervalSince1970 * unit.rawValue }
    }
}
