// ObjectMapper's conveniences on models: `User(JSONString:)`, `user.toJSONString()`.

extension Mappable {
    /// The model made from JSON text that is an object; `nil` when it is not, or when
    /// `init?(map:)` rejects it.
    public init?(JSONString: String) {
        guard let model = Mapper<Self>().map(JSONString: JSONString) else { return nil }
        self = model
    }

    /// The model made from a JSON object as Foundation objects; `nil` when `init?(map:)`
    /// rejects it.
    public init?(JSON: [String: Any]) {
        guard let model = Mapper<Self>().map(JSON: JSON) else { return nil }
        self = model
    }
}

extension BaseMappable {
    /// The model as a JSON object (`nil` optionals left out).
    public func toJSON() -> [String: Any] {
        Mapper<Self>().toJSON(self)
    }

    /// The model as JSON text (`prettyPrint` default `false`); `nil` when a value cannot be
    /// written as JSON.
    public func toJSONString(prettyPrint: Bool = false) -> String? {
        Mapper<Self>().toJSONString(self, prettyPrint: prettyPrint)
    }
}

extension Array where Element: BaseMappable {
    /// Each model as a JSON object.
    public func toJSON() -> [[String: Any]] {
        Mapper<Element>().toJSONArray(self)
    }

    /// The models as JSON text (`prettyPrint` default `false`); `nil` when a value cannot be
    /// written as JSON.
    public func toJSONString(prettyPrint: Bool = false) -> String? {
        Mapper<Element>().toJSONString(self, prettyPrint: prettyPrint)
    }
}
