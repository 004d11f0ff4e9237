import FastJSON

/// A type `<-` reads straight from FastJSON's parsed value, with the conversions `as?` makes
/// from the `NSNumber`s and strings of `JSONSerialization` in ObjectMapper.
protocol MapScalar {
    /// The value, or `nil` when `json` does not convert exactly.
    init?(mapping json: JSONValue)
}

extension MapScalar where Self: FixedWidthInteger {
    init?(mapping json: JSONValue) {
        if let bool = json.boolValue {
            self = bool ? 1 : 0
        } else if let int = json.intValue {
            guard let value = Self(exactly: int) else { return nil }
            self = value
        } else if let text = json.numberText, let value = Self(text) {
            // Beyond `Int`: an unsigned 64-bit integer written without a point or exponent.
            self = value
        } else {
            return nil
        }
    }
}

extension Int: MapScalar {}
extension Int8: MapScalar {}
extension Int16: MapScalar {}
extension Int32: MapScalar {}
extension Int64: MapScalar {}
extension UInt: MapScalar {}
extension UInt8: MapScalar {}
extension UInt16: MapScalar {}
extension UInt32: MapScalar {}
extension UInt64: MapScalar {}

extension Double: MapScalar {
    init?(mapping json: JSONValue) {
        if let bool = json.boolValue {
            self = bool ? 1 : 0
        } else if let double = json.doubleValue, double.isFinite {
            self = double
        } else {
            return nil
        }
    }
}

extension Float: MapScalar {
    init?(mapping json: JSONValue) {
        guard let double = Double(mapping: json), Float(double).isFinite else { return nil }
        self = Float(double)
    }
}

extension Bool: MapScalar {
    init?(mapping json: JSONValue) {
        if let bool = json.boolValue {
            self = bool
        } else {
            switch json.intValue {
            case 0: self = false
            case 1: self = true
            default: return nil
            }
        }
    }
}

extension String: MapScalar {
    init?(mapping json: JSONValue) {
        guard let string = json.stringValue else { return nil }
        self = string
    }
}

extension Array: MapScalar where Element: MapScalar {
    /// All elements or nothing, as `as? [Int]` on a mixed array.
    init?(mapping json: JSONValue) {
        guard json.kind == .array else { return nil }
        var elements: [Element] = []
        elements.reserveCapacity(json.count)
        for element in json.elements {
            guard let value = Element(mapping: element) else { return nil }
            elements.append(value)
        }
        self = elements
    }
}

extension Dictionary: MapScalar where Key == String, Value: MapScalar {
    /// All values or nothing; the last of duplicate keys wins and the values it replaces are
    /// not converted, as with `JSONSerialization`'s objects.
    init?(mapping json: JSONValue) {
        guard json.kind == .object else { return nil }
        var dictionary: [String: Value] = [:]
        for (key, member) in json.members.reversed() where dictionary[key] == nil {
            guard let value = Value(mapping: member) else { return nil }
            dictionary[key] = value
        }
        self = dictionary
    }
}
