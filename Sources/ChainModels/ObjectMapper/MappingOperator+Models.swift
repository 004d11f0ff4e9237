import FastJSON
import Foundation

// Nested models, and arrays and dictionaries of them. As in ObjectMapper, an element that is
// an object but that `init?(map:)` rejects is dropped; a value of the wrong kind (an array
// element that is not an object) fails the whole array, which leaves `left` as it was (a
// non-optional) or `nil` (an optional).

/// Maps a nested model; reading, a value that is not an object, or one the model rejects,
/// leaves `left` unchanged.
public func <- <T: BaseMappable>(left: inout T, right: Map) {
    switch right.mappingType {
    case .fromJSON:
        if right.isKeyPresent, let json = right.currentJSON, let value = Mapper<T>().map(json) { left = value }
    case .toJSON:
        right.write(Mapper<T>(shouldIncludeNilValues: right.shouldIncludeNilValues).toJSON(left))
    }
}

/// Maps an optional nested model; reading, a present key sets `left` to the model, or `nil`
/// when it is `null`, not an object or rejected.
public func <- <T: BaseMappable>(left: inout T?, right: Map) {
    switch right.mappingType {
    case .fromJSON:
        if right.isKeyPresent { left = right.currentJSON.flatMap { Mapper<T>().map($0) } }
    case .toJSON:
        right.write(left.map { Mapper<T>(shouldIncludeNilValues: right.shouldIncludeNilValues).toJSON($0) })
    }
}

/// Maps an array of models (rejected elements dropped).
public func <- <T: BaseMappable>(left: inout [T], right: Map) {
    switch right.mappingType {
    case .fromJSON:
        if right.isKeyPresent, let json = right.currentJSON, let value = Mapper<T>().mapArray(json) { left = value }
    case .toJSON:
        right.write(Mapper<T>(shouldIncludeNilValues: right.shouldIncludeNilValues).toJSONArray(left))
    }
}

/// Maps an optional array of models (rejected elements dropped).
public func <- <T: BaseMappable>(left: inout [T]?, right: Map) {
    switch right.mappingType {
    case .fromJSON:
        if right.isKeyPresent { left = right.currentJSON.flatMap { Mapper<T>().mapArray($0) } }
    case .toJSON:
        right.write(left.map { Mapper<T>(shouldIncludeNilValues: right.shouldIncludeNilValues).toJSONArray($0) })
    }
}

/// Maps a dictionary of models (rejected values dropped).
public func <- <T: BaseMappable>(left: inout [String: T], right: Map) {
    switch right.mappingType {
    case .fromJSON:
        if right.isKeyPresent, let json = right.currentJSON, let value = Mapper<T>().mapDictionary(json) { left = value }
    case .toJSON:
        right.write(Mapper<T>(shouldIncludeNilValues: right.shouldIncludeNilValues).toJSONDictionary(left))
    }
}

/// Maps an optional dictionary of models (rejected values dropped).
public func <- <T: BaseMappable>(left: inout [String: T]?, right: Map) {
    switch right.mappingType {
    case .fromJSON:
        if right.isKeyPresent { left = right.currentJSON.flatMap { Mapper<T>().mapDictionary($0) } }
    case .toJSON:
        right.write(left.map { Mapper<T>(shouldIncludeNilValues: right.shouldIncludeNilValues).toJSONDictionary($0) })
    }
}
