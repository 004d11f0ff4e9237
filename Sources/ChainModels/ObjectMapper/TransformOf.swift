/// A transform made of two closures, ObjectMapper's `TransformOf`.
///
/// ```swift
/// let intFromString = TransformOf<Int, String>(fromJSON: { $0.flatMap(Int.init) }, toJSON: { $0.map(String.init) })
/// ```
public struct TransformOf<ObjectType, JSONType>: TransformType {
    /// The property's type.
    public typealias Object = ObjectType
    /// The JSON form.
    public typealias JSON = JSONType

    private let fromJSON: (JSONType?) -> ObjectType?
    private let toJSON: (ObjectType?) -> JSONType?

    /// Makes the transform; `fromJSON` gets the JSON value when it is a `JSONType` (else `nil`).
    public init(fromJSON: @escaping (JSONType?) -> ObjectType?, toJSON: @escaping (ObjectType?) -> JSONType?) {
        self.fromJSON = fromJSON
        self.toJSON = toJSON
    }

    /// `fromJSON` applied to the value cast to `JSONType` (numbers bridge from `NSNumber`).
    public func transformFromJSON(_ value: Any?) -> ObjectType? {
        fromJSON(value.flatMap(NumberBridge.cast(_:)))
    }

    /// `toJSON` applied to `value`.
    public func transformToJSON(_ value: ObjectType?) -> JSONType? {
        toJSON(value)
    }
}
