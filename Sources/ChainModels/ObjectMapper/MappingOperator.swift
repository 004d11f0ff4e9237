import Foundation

/// ObjectMapper's mapping operator: `property <- map["key"]` reads the property from JSON
/// or writes it to JSON, in the direction of the map's ``Map/mappingType``.
infix operator <- : DefaultPrecedence

/// Maps a value of any type: a scalar (`Int`, `Int64`, `Double`, `Float`, `Bool`, `String`,
/// …), an array or dictionary of them, or a Foundation type (`[String: Any]`). Reading, a
/// value of another type (the string `"12"` for an `Int`), `null` or a missing key leaves
/// `left` unchanged; writing, `left` is stored as it is.
public func <- <T>(left: inout T, right: Map) {
    switch right.mappingType {
    case .fromJSON:
        if right.isKeyPresent, let value: T = right.value() { left = value }
    case .toJSON:
        right.write(left)
    }
}

/// Maps an optional (or implicitly unwrapped) value. Reading, a present key sets `left` to
/// the converted value — `nil` when it is `null` or of another type — and a missing key
/// leaves it unchanged; writing, `nil` is left out (see ``Map/shouldIncludeNilValues``).
public func <- <T>(left: inout T?, right: Map) {
    switch right.mappingType {
    case .fromJSON:
        if right.isKeyPresent { left = right.value() }
    case .toJSON:
        right.write(left.map { $0 as Any })
    }
}
