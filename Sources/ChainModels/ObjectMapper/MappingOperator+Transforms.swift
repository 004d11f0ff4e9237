import Foundation

// Values mapped through a ``TransformType``: `birthday <- (map["birthday"], DateTransform())`.
// The transform gets the value as Foundation objects (``Map/currentValue``), as in ObjectMapper.

/// Maps a value through `right.1`; reading, a value the transform rejects leaves `left`
/// unchanged; writing, a value the transform cannot write is left out.
public func <- <Transform: TransformType>(left: inout Transform.Object, right: (Map, Transform)) {
    let (map, transform) = right
    switch map.mappingType {
    case .fromJSON:
        if map.isKeyPresent, let value = transform.transformFromJSON(map.currentValue) { left = value }
    case .toJSON:
        if let json = transform.transformToJSON(left) { map.write(json) }
    }
}

/// Maps an optional value through `right.1`; reading, a present key sets `left` to what the
/// transform makes (`nil` when it rejects the value).
public func <- <Transform: TransformType>(left: inout Transform.Object?, right: (Map, Transform)) {
    let (map, transform) = right
    switch map.mappingType {
    case .fromJSON:
        if map.isKeyPresent { left = transform.transformFromJSON(map.currentValue) }
    case .toJSON:
        map.write(transform.transformToJSON(left).map { $0 as Any })
    }
}

/// Maps an array through `right.1`, element by element; rejected elements are dropped.
public func <- <Transform: TransformType>(left: inout [Transform.Object], right: (Map, Transform)) {
    let (map, transform) = right
    switch map.mappingType {
    case .fromJSON:
        if map.isKeyPresent, let values = map.currentValue as? [Any] {
            left = values.compactMap { transform.transformFromJSON($0) }
        }
    case .toJSON:
        map.write(left.compactMap { transform.transformToJSON($0) })
    }
}

/// Maps an optional array through `right.1`; rejected elements are dropped.
public func <- <Transform: TransformType>(left: inout [Transform.Object]?, right: (Map, Transform)) {
    let (map, transform) = right
    switch map.mappingType {
    case .fromJSON:
        if map.isKeyPresent { left = (map.currentValue as? [Any]).map { $0.compactMap { transform.transformFromJSON($0) } } }
    case .toJSON:
        map.write(left.map { $0.compactMap { transform.transformToJSON($0) } })
    }
}
