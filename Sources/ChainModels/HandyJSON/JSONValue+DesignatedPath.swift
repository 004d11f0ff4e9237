import FastJSON
import Foundation

extension JSONValue {
    /// The value a HandyJSON `designatedPath` names (`nil`: this value), found as HandyJSON's
    /// walk over `JSONSerialization`'s dictionaries finds it: `.`-separated keys through objects
    /// only (an index is a missing key), blank components skipped, the last of duplicate keys
    /// winning; `nil` when a step is missing or not an object.
    func designated(by path: String?) -> JSONValue? {
        guard let path else { return self }
        var current = self
        for component in path.components(separatedBy: ".")
        where !component.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            guard let next = current.lastMember(named: component) else { return nil }
            current = next
        }
        return current
    }
}
