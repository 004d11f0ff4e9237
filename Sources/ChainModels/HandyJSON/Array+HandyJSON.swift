import FastJSON
import Foundation
import HTTPFeatures

extension Array where Element: HandyJSON {
    /// HandyJSON's array form: the JSON array at `designatedPath` (default `nil`: the whole
    /// text; the path is walked through objects only, as `HandyJSON.deserialize(from:designatedPath:)`
    /// walks it), each element decoded on its own: `nil` for one that is not an object
    /// (`null` included) or does not decode. `nil` when the text is `nil`, not JSON, or there
    /// is no array there.
    public static func deserialize(from json: String?, designatedPath: String? = nil) -> [Element?]? {
        guard let json, let root = try? JSONValue(parsing: json),
              let array = root.designated(by: designatedPath), array.kind == .array
        else { return nil }
        return array.elements.map { Element.deserialize(from: $0, designatedPath: nil) }
    }
}
