/// Converts between a property's type and its JSON form, for `<-` with `(map["key"], transform)`.
public protocol TransformType {
    /// The property's type.
    associatedtype Object
    /// The JSON form written (`String`, `Double`, …).
    associatedtype JSON

    /// The property's value from the JSON value as Foundation objects (`nil` when missing or
    /// `null`); `nil` rejects it.
    func transformFromJSON(_ value: Any?) -> Object?
    /// The JSON form of `value`; `nil` leaves the key out.
    func transformToJSON(_ value: Object?) -> JSON?
}
