import FastJSON

// Enums with raw values, read through the raw value's conversion (`"vip"` for a `String`
// raw value, `2` for an `Int` one) and written as the raw value.

/// Maps an enum; reading, an unknown raw value leaves `left` unchanged.
public func <- <T: RawRepresentable>(left: inout T, right: Map) {
    switch right.mappingType {
    case .fromJSON:
        if right.isKeyPresent, let raw: T.RawValue = right.value(), let value = T(rawValue: raw) { left = value }
    case .toJSON:
        right.write(left.rawValue)
    }
}

/// Maps an optional enum; reading, a present key sets `left` to the case, or `nil` when the
/// raw value is `null` or unknown.
public func <- <T: RawRepresentable>(left: inout T?, right: Map) {
    switch right.mappingType {
    case .fromJSON:
        if right.isKeyPresent { left = right.value().flatMap { (raw: T.RawValue) in T(rawValue: raw) } }
    case .toJSON:
        right.write(left.map { $0.rawValue as Any })
    }
}

/// Maps an array of enums; unknown raw values are dropped, as ObjectMapper's `EnumTransform`.
public func <- <T: RawRepresentable>(left: inout [T], right: Map) {
    switch right.mappingType {
    case .fromJSON:
        if right.isKeyPresent, let value = enumArray(T.self, right.currentJSON) { left = value }
    case .toJSON:
        right.write(left.map(\.rawValue))
    }
}

/// Maps an optional array of enums; unknown raw values are dropped.
public func <- <T: RawRepresentable>(left: inout [T]?, right: Map) {
    switch right.mappingType {
    case .fromJSON:
        if right.isKeyPresent { left = enumArray(T.self, right.currentJSON) }
    case .toJSON:
        right.write(left.map { $0.map(\.rawValue) })
    }
}

private func enumArray<T: RawRepresentable>(_ type: T.Type, _ json: JSONValue?) -> [T]? {
    guard let json, json.kind == .array else { return nil }
    return json.elements.compactMap { element in Map.convert(element, to: T.RawValue.self).flatMap(T.init(rawValue:)) }
}
