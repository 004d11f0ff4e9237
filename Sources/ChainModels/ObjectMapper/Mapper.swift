import FastJSON
import Foundation

/// Makes models from JSON and JSON from models, ObjectMapper's `Mapper`.
///
/// JSON text is parsed by FastJSON and read as ``JSONValue``; malformed JSON, or a top level
/// of the wrong kind (not an object for `map`, not an array for `mapArray`), gives `nil`, as
/// in ObjectMapper. The front ends report those cases as ``NetworkError/Kind/decodingFailed``.
public struct Mapper<N: BaseMappable> {
    /// Whether `toJSON` writes `nil` optionals as `null`.
    public var shouldIncludeNilValues: Bool

    /// Makes a mapper; `shouldIncludeNilValues` defaults to `false` (`nil` optionals left out).
    public init(shouldIncludeNilValues: Bool = false) {
        self.shouldIncludeNilValues = shouldIncludeNilValues
    }

    /// The model made from JSON text that is an object; `nil` when it is not, or when
    /// `init?(map:)` rejects it.
    public func map(JSONString: String) -> N? {
        (try? JSONValue(parsing: JSONString)).flatMap(map(_:))
    }

    /// The model made from a JSON object as Foundation objects; `nil` when they are not
    /// valid JSON or `init?(map:)` rejects them.
    public func map(JSON: [String: Any]) -> N? {
        Mapper.parse(JSON).flatMap(map(_:))
    }

    /// The model made from `JSONObject` when it is a `[String: Any]`; else `nil`.
    public func map(JSONObject: Any?) -> N? {
        (JSONObject as? [String: Any]).flatMap { map(JSON: $0) }
    }

    /// The models made from JSON text that is an array of objects (rejected ones dropped);
    /// `nil` when it is not such an array.
    public func mapArray(JSONString: String) -> [N]? {
        (try? JSONValue(parsing: JSONString)).flatMap(mapArray(_:))
    }

    /// The models made from each object (rejected ones dropped).
    public func mapArray(JSONArray: [[String: Any]]) -> [N] {
        JSONArray.compactMap { map(JSON: $0) }
    }

    /// The model made from a parsed value; `nil` unless it is an object the model accepts.
    public func map(_ json: JSONValue) -> N? {
        guard json.kind == .object, let type = N.self as? any Mappable.Type else { return nil }
        let map = Map(reading: json)
        guard var model = type.init(map: map) as? N else { return nil }
        model.mapping(map: map)
        return model
    }

    /// The models made from a parsed array of objects (rejected ones dropped); `nil` when it
    /// is not an array or an element is not an object.
    public func mapArray(_ json: JSONValue) -> [N]? {
        guard json.kind == .array else { return nil }
        let elements = json.elements
        guard elements.allSatisfy({ $0.kind == .object }) else { return nil }
        return elements.compactMap(map(_:))
    }

    /// The models made from a parsed object of objects (rejected ones dropped); `nil` when it
    /// is not an object or a value is not an object. Of duplicate keys the last wins, and the
    /// values it replaces are not looked at, as with `JSONSerialization`'s objects.
    func mapDictionary(_ json: JSONValue) -> [String: N]? {
        guard json.kind == .object else { return nil }
        var models: [String: N] = [:]
        var seen: Set<String> = []
        for (key, member) in json.members.reversed() where seen.insert(key).inserted {
            guard member.kind == .object else { return nil }
            if let model = map(member) { models[key] = model }
        }
        return models
    }

    /// The model as a JSON object of Swift values (`Int`, `String`, `[String: Any]`, …).
    public func toJSON(_ object: N) -> [String: Any] {
        var model = object
        let map = Map(writingNilValues: shouldIncludeNilValues)
        model.mapping(map: map)
        return map.JSON
    }

    /// Each model as a JSON object.
    public func toJSONArray(_ array: [N]) -> [[String: Any]] {
        array.map(toJSON(_:))
    }

    /// Each model as a JSON object, by key.
    public func toJSONDictionary(_ dictionary: [String: N]) -> [String: [String: Any]] {
        dictionary.mapValues(toJSON(_:))
    }

    /// The model as JSON text (`prettyPrint` default `false`); `nil` when a value cannot be
    /// written as JSON (e.g. an infinite number).
    public func toJSONString(_ object: N, prettyPrint: Bool = false) -> String? {
        Mapper.text(toJSON(object), prettyPrint: prettyPrint)
    }

    /// The models as JSON text (`prettyPrint` default `false`); `nil` when a value cannot be
    /// written as JSON.
    public func toJSONString(_ array: [N], prettyPrint: Bool = false) -> String? {
        Mapper.text(toJSONArray(array), prettyPrint: prettyPrint)
    }

    // `data(withJSONObject:)` alone decides what can be written: on Linux it throws for values
    // JSON has no form for, and `isValidJSONObject` would also refuse nesting past 512 levels.
    static func text(_ object: Any, prettyPrint: Bool) -> String? {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: prettyPrint ? [.prettyPrinted] : [])
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The caller's objects as a parsed value. The nesting is what the caller already holds in
    /// memory and `JSONSerialization` just wrote, so it is not limited again (the walk that
    /// parses is not recursive).
    private static func parse(_ object: [String: Any]) -> JSONValue? {
        guard let data = try? JSONSerialization.data(withJSONObject: object) else { return nil }
        return try? JSONValue(parsing: data, maximumDepth: .max)
    }
}
