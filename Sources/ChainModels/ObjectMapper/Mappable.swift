/// A ``BaseMappable`` model that ``Mapper`` can create: `init?(map:)` runs first (return
/// `nil` to reject the JSON, e.g. when a required key is missing), then
/// ``BaseMappable/mapping(map:)`` fills the properties.
///
/// ```swift
/// class User: Mappable {
///     var name: String?
///     required init?(map: Map) {}
///     func mapping(map: Map) { name <- map["name"] }
/// }
/// ```
public protocol Mappable: BaseMappable {
    /// Makes the model before mapping, or `nil` to reject `map`'s JSON.
    init?(map: Map)
}
