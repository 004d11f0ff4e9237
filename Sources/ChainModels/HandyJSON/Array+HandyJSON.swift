import FastJSON
import Foundation
import HTTPFeatures

extension Array where Element: HandyJSON {
    /// HandyJSON's array form: the JSON array at `designatedPath` (default `nil`: the whole
    /// text), each element decoded on its own (`nil` for one that does not decode); `nil` when
    /// the text is `nil`, not JSON, or there is no array there.
    public static func deserialize(from json: String?, designatedPath: String? = nil) -> [Element?]? {
        guard let json, let root = try? JSONValue(parsing: json) else { return nil }
        guard let array = root.value(atKeyPath: designatedPath ?? ""), array.kind == .array else { return nil }
        return (0..<array.count).map { index in
            array[index].flatMap { element in
                try? JSONDecoding.tolerant().decode(Element.self, from: element.rawData)
            }
        }
    }
}
