import Foundation

/// Dates as strings in a `DateFormatter`'s format, ObjectMapper's `DateFormatterTransform`.
open class DateFormatterTransform: TransformType {
    /// The property's type.
    public typealias Object = Date
    /// The JSON form.
    public typealias JSON = String

    /// The formatter used both ways.
    public let dateFormatter: DateFormatter

    /// Makes the transform with `dateFormatter`.
    public init(dateFormatter: DateFormatter) {
        self.dateFormatter = dateFormatter
    }

    /// The date a string gives; `nil` for anything else.
    open func transformFromJSON(_ value: Any?) -> Date? {
        (value as? String).flatMap(dateFormatter.date(from:))
    }

    /// The date as a string.
    open func transformToJSON(_ value: Date?) -> String? {
        value.map(dateFormatter.string(from:))
    }
}
