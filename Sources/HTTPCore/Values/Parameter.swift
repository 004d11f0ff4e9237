import Foundation

/// A request parameter value: a Sendable, canonical form of the `[String: Any]` dictionaries
/// that AFNetworking and Alamofire accept.
///
/// Dictionaries keep no order of their own: every encoder writes keys sorted, so the same
/// parameters always give the same bytes (and the same cache key).
public enum Parameter: Sendable, Hashable {
    /// A string.
    case string(String)
    /// An integer.
    case int(Int)
    /// A floating-point number. NaN and infinity are rejected by the JSON encoder.
    case double(Double)
    /// A Boolean; the URL and form encoders write it as `1`/`0`, as AFNetworking does.
    case bool(Bool)
    /// JSON `null`; the URL and form encoders write the bare key, as AFNetworking does.
    case null
    /// An array, encoded as `key[]=value` pairs in URLs and forms.
    case array([Parameter])
    /// A nested dictionary, encoded as `key[sub]=value` pairs in URLs and forms.
    case dictionary([String: Parameter])

    /// Converts a value from a `[String: Any]`-style tree.
    ///
    /// Accepts `String`, `Substring`, every integer type, `Double`, `Float`, `Bool`,
    /// `NSNumber`, `Decimal`, `Date` (ISO 8601), `URL`, `NSNull`, optionals, arrays and
    /// string-keyed dictionaries of those, and ``Parameter`` itself.
    /// - Throws: ``NetworkError`` of kind ``NetworkError/Kind/invalidParameters`` naming the
    ///   key path and type of the first value it cannot represent.
    public init(any value: Any, path: String = "") throws(NetworkError) {
        // A real NSNumber (from JSONSerialization, say) is checked by its boxed kind first:
        // casting it to Bool or Int would succeed for 0 and 1 alike and lose the kind.
        if let number = value as? NSNumber, Swift.type(of: value) is NSNumber.Type {
            if NumberKind.isBoolean(number) { self = .bool(number.boolValue) }
            else if NumberKind.isInteger(number) { self = .int(number.intValue) }
            else { self = .double(number.doubleValue) }
            return
        }
        switch value {
        case let p as Parameter: self = p
        case let s as String: self = .string(s)
        case let s as Substring: self = .string(String(s))
        case let b as Bool where Swift.type(of: value) == Bool.self: self = .bool(b)
        case let i as Int where Swift.type(of: value) == Int.self: self = .int(i)
        case let i as any BinaryInteger:
            guard let int = Int(exactly: i) else {
                throw NetworkError(.invalidParameters, "parameter \(path.isEmpty ? "value" : path) \(i) does not fit in Int")
            }
            self = .int(int)
        case let d as Double where Swift.type(of: value) == Double.self: self = .double(d)
        case let f as Float: self = .double(Double(f))
        case let d as Decimal: self = .double(NSDecimalNumber(decimal: d).doubleValue)
        case let date as Date: self = .string(ISO8601DateFormatter().string(from: date))
        case let url as URL: self = .string(url.absoluteString)
        case is NSNull: self = .null
        case let array as [Any]:
            var items: [Parameter] = []
            items.reserveCapacity(array.count)
            for (index, item) in array.enumerated() {
                items.append(try Parameter(any: item, path: "\(path)[\(index)]"))
            }
            self = .array(items)
        case let dictionary as [String: Any]:
            self = .dictionary(try Parameter.dictionary(from: dictionary, path: path))
        default:
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional {
                if let child = mirror.children.first {
                    self = try Parameter(any: child.value, path: path)
                } else {
                    self = .null
                }
                return
            }
            throw NetworkError(.invalidParameters,
                               "parameter \(path.isEmpty ? "value" : path) has unsupported type \(type(of: value))")
        }
    }

    /// Converts a `[String: Any]` dictionary (see ``init(any:path:)``).
    public static func dictionary(from dictionary: [String: Any], path: String = "") throws(NetworkError) -> [String: Parameter] {
        var result: [String: Parameter] = [:]
        result.reserveCapacity(dictionary.count)
        for (key, item) in dictionary {
            result[key] = try Parameter(any: item, path: path.isEmpty ? key : "\(path).\(key)")
        }
        return result
    }

    /// The value as Foundation objects (`String`, `Int`, `Double`, `Bool`, `NSNull`, arrays,
    /// dictionaries), the shape `JSONSerialization` produces.
    public var anyValue: Any {
        switch self {
        case .string(let s): s
        case .int(let i): i
        case .double(let d): d
        case .bool(let b): b
        case .null: NSNull()
        case .array(let a): a.map(\.anyValue)
        case .dictionary(let d): d.mapValues(\.anyValue)
        }
    }
}

/// Tells NSNumber's boxed kinds apart without CoreFoundation, which is not public on Linux.
enum NumberKind {
    static func isBoolean(_ number: NSNumber) -> Bool {
        let type = String(cString: number.objCType)
        return type == "c" || type == "B"
    }

    static func isInteger(_ number: NSNumber) -> Bool {
        switch String(cString: number.objCType) {
        case "f", "d": false
        default: true
        }
    }
}
