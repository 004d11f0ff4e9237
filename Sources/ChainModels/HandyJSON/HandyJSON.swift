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
    /// Decodes a model from JSON text, at a dotted `designatedPath` (`"data.returnData.comics"`;
    /// default `nil`: the whole text); `nil` when the text is `nil`, not JSON, or does not
    /// decode even tolerantly.
    public static func deserialize(from json: String?, designatedPath: String? = nil) -> Self? {
        guard let json else { return nil }
        return try? JSONDecoding.tolerant().decode(Self.self, from: Data(json.utf8), atKeyPath: designatedPath)
    }

    /// Decodes a model from Foundation objects (`[String: Any]` as `JSONSerialization` makes),
    /// at `designatedPath` (default `nil`); `nil` when the dictionary is `nil`, holds values
    /// JSON has no form for, or does not decode.
    public static func deserialize(from dict: [String: Any]?, designatedPath: String? = nil) -> Self? {
        guard let dict, JSONSerialization.isValidJSONObject(dict),
              let data = try? JSONSerialization.data(withJSONObject: dict) else { return nil }
        return try? JSONDecoding.tolerant().decode(Self.self, from: data, atKeyPath: designatedPath)
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
