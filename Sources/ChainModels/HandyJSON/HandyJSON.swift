import FastJSON
import Foundation
import HTTPFeatures

/// A model as HandyJSON users write it, on `Codable`: `struct Comic: HandyJSON { var level:
/// Int = 1 }`. It is always decoded tolerantly (``JSONDecoding/tolerant(_:)``, whatever the
/// request's setting) and a missing key or `null` keeps the property's declared default
/// (see ``DefaultsDecodable``), so `.response(Comic.self)` and `manager.GET(..., as:
/// Comic.self, ...)` work as they are.
///
/// Limits, compared with HandyJSON: every stored property must be `Codable`; key mapping is a
/// `CodingKeys` enum instead of `HelpingMapper` (a raw value other than the property's name
/// loses the declared default for that key: it gets the type's zero); a subclass must
/// override `init(from:)`; a class needs `@unchecked Sendable` (with a reason) for the typed
/// front-end methods, which require `Sendable`.
public protocol HandyJSON: Codable, DefaultsDecodable {}

extension HandyJSON {
    /// Decodes a model from JSON text, at a dotted `designatedPath` (`"data.returnData.comic"`;
    /// default `nil`: the whole text); `nil` when the text is `nil` or not JSON, when the path
    /// is missing or names something other than an object (the walk goes through objects
    /// only, as HandyJSON's), or when the object does not decode even tolerantly.
    public static func deserialize(from json: String?, designatedPath: String? = nil) -> Self? {
        guard let json, let root = try? JSONValue(parsing: json) else { return nil }
        return deserialize(from: root, designatedPath: designatedPath)
    }

    /// Decodes a model from Foundation objects (`[String: Any]` as `JSONSerialization` makes),
    /// at `designatedPath` (default `nil`), as `deserialize(from:designatedPath:)`
    /// does from text; `nil` when the dictionary is `nil` or holds values JSON has no form for.
    public static func deserialize(from dict: [String: Any]?, designatedPath: String? = nil) -> Self? {
        guard let dict, let data = try? JSONSerialization.data(withJSONObject: dict),
              // The nesting is what the caller holds already; the parse is not recursive.
              let root = try? JSONValue(parsing: data, maximumDepth: .max)
        else { return nil }
        return deserialize(from: root, designatedPath: designatedPath)
    }

    /// The object at `designatedPath` in `root`, decoded tolerantly; `nil` when there is none.
    static func deserialize(from root: JSONValue, designatedPath: String?) -> Self? {
        guard let object = root.designated(by: designatedPath), object.kind == .object else { return nil }
        return try? JSONDecoding.tolerant().decode(Self.self, from: object.rawData)
    }

    /// The model as Foundation objects (FastJSON parses what `JSONEncoder` wrote); `nil` when
    /// it does not encode or is not an object.
    public func toJSON() -> [String: Any]? {
        guard let data = try? JSONEncoder().encode(self) else { return nil }
        return (try? JSONValue.jsonObject(with: data)) as? [String: Any]
    }

    /// The model as JSON text, indented when `prettyPrint` (default `false`, with sorted keys
    /// then too); `nil` when it does not encode.
    public func toJSONString(prettyPrint: Bool = false) -> String? {
        let encoder = JSONEncoder()
        if prettyPrint { encoder.outputFormatting = [.prettyPrinted, .sortedKeys] }
        guard let data = try? encoder.encode(self) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
