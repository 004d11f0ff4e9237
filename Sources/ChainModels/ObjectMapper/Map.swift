import FastJSON
import Foundation

/// What a model's ``BaseMappable/mapping(map:)`` reads from or writes to, ObjectMapper's `Map`.
///
/// Reading, it wraps FastJSON's parsed ``JSONValue``: `map["key"]` looks the key up in the
/// parsed document and `<-` converts only that value, without building Foundation objects.
/// Writing, it collects the values `<-` hands it into ``JSON``.
///
/// A key containing `.` is a key path by default (`map["data.user.name"]`, with integer
/// components indexing arrays: `map["items.0.id"]`); `map["a.b", nested: false]` reads the key
/// `a.b` itself. A key that is missing leaves the property unchanged; one that is `null` sets an
/// optional property to `nil` and leaves a non-optional one unchanged, as in ObjectMapper.
///
/// A map is used on one thread, by one mapping at a time (it is not `Sendable`).
public final class Map {
    /// The direction of this mapping.
    public let mappingType: MappingType
    /// Writing, whether a `nil` optional is written as `null` (default `false`: left out).
    public var shouldIncludeNilValues: Bool
    /// Reading, whether the last subscripted key exists (a `null` value counts as present).
    public private(set) var isKeyPresent = false
    /// The last subscripted key.
    public private(set) var currentKey: String?
    /// The delimiter of the last subscripted key's path (default `.`).
    public private(set) var nestedKeyDelimiter = "."

    /// Reading, the parsed value at the current key; `nil` when missing or `null`.
    private(set) var currentJSON: JSONValue?
    private var keyIsNested = false
    private let root: JSONValue?
    private var written: [String: Any] = [:]
    private var rootObject: [String: Any]?

    /// A map reading `root` (an object).
    init(reading root: JSONValue) {
        mappingType = .fromJSON
        self.root = root
        shouldIncludeNilValues = false
    }

    /// A map collecting a model's values.
    init(writingNilValues shouldIncludeNilValues: Bool) {
        mappingType = .toJSON
        root = nil
        self.shouldIncludeNilValues = shouldIncludeNilValues
    }

    /// Reading, the whole JSON object as Foundation objects (`NSNumber`, `NSNull`, `String`,
    /// `[Any]`, `[String: Any]`), made on first use; writing, what has been written so far.
    public var JSON: [String: Any] {
        guard mappingType == .fromJSON else { return written }
        if let rootObject { return rootObject }
        let object = root?.foundationObject as? [String: Any] ?? [:]
        rootObject = object
        return object
    }

    /// Reading, the value at the current key as Foundation objects (as ``JSON``); `nil` when
    /// the key is missing or `null`. Transforms get this value.
    public var currentValue: Any? { currentJSON?.foundationObject }

    /// Selects `key`, a key path when it contains `.`.
    public subscript(key: String) -> Map {
        self[key, delimiter: ".", ignoreNil: false]
    }

    /// Selects `key`, a key path split at `delimiter` when it contains it.
    public subscript(key: String, delimiter delimiter: String) -> Map {
        self[key, delimiter: delimiter, ignoreNil: false]
    }

    /// Selects `key`: a key path split at `.` when `nested`, else the key as it is.
    public subscript(key: String, nested nested: Bool) -> Map {
        self[key, nested: nested, delimiter: ".", ignoreNil: false]
    }

    /// Selects `key`: a key path split at `delimiter` when `nested`, else the key as it is.
    public subscript(key: String, nested nested: Bool, delimiter delimiter: String) -> Map {
        self[key, nested: nested, delimiter: delimiter, ignoreNil: false]
    }

    /// Selects `key` (a key path when it contains `.`); with `ignoreNil`, a `null` value counts
    /// as missing, so even an optional property keeps its value.
    public subscript(key: String, ignoreNil ignoreNil: Bool) -> Map {
        self[key, delimiter: ".", ignoreNil: ignoreNil]
    }

    /// Selects `key`, a key path split at `delimiter` when it contains it; `ignoreNil` as in
    /// ``subscript(_:ignoreNil:)``.
    public subscript(key: String, delimiter delimiter: String, ignoreNil ignoreNil: Bool) -> Map {
        self[key, nested: !delimiter.isEmpty && key.contains(delimiter), delimiter: delimiter, ignoreNil: ignoreNil]
    }

    /// Selects `key`: a key path split at `.` when `nested`; `ignoreNil` as in
    /// ``subscript(_:ignoreNil:)``.
    public subscript(key: String, nested nested: Bool, ignoreNil ignoreNil: Bool) -> Map {
        self[key, nested: nested, delimiter: ".", ignoreNil: ignoreNil]
    }

    /// Selects `key`: a key path split at `delimiter` when `nested`, else the key as it is;
    /// `ignoreNil` as in ``subscript(_:ignoreNil:)``.
    public subscript(key: String, nested nested: Bool, delimiter delimiter: String, ignoreNil ignoreNil: Bool) -> Map {
        currentKey = key
        keyIsNested = nested && !delimiter.isEmpty
        nestedKeyDelimiter = delimiter
        guard mappingType == .fromJSON, let root else { return self }
        let components = keyIsNested ? key.components(separatedBy: delimiter) : [key]
        (isKeyPresent, currentJSON) = Map.lookup(components[...], in: root)
        if ignoreNil, currentJSON == nil { isKeyPresent = false }
        return self
    }

    /// Reading, the value at the current key converted to `T` (`nil` when missing, `null` or
    /// of another type). Numbers convert exactly (`12` or `12.0` to `Int`, not `12.5` or
    /// `"12"`); `0` and `1` convert to `Bool` and `true`/`false` to numbers, as `NSNumber`
    /// does; other types (`[String: Any]`, `Any`, `NSNumber`) get the Foundation objects.
    public func value<T>() -> T? {
        currentJSON.flatMap { Map.convert($0, to: T.self) }
    }

    static func convert<T>(_ json: JSONValue, to type: T.Type) -> T? {
        if let scalar = T.self as? any MapScalar.Type { return scalar.init(mapping: json) as? T }
        return json.foundationObject as? T
    }

    /// Writing, stores `value` at the current key (`nil` as `null` only with
    /// ``shouldIncludeNilValues``).
    func write(_ value: Any?) {
        guard mappingType == .toJSON, let key = currentKey else { return }
        let stored: Any
        if let value {
            stored = value
        } else if shouldIncludeNilValues {
            stored = NSNull()
        } else {
            return
        }
        let components = keyIsNested ? key.components(separatedBy: nestedKeyDelimiter) : [key]
        Map.store(stored, at: components[...], in: &written)
    }

    /// Walks `components`; a `null` on the way ends the walk as present with no value, and of
    /// duplicate keys the last wins, as in ObjectMapper over `JSONSerialization`'s objects.
    private static func lookup(_ components: ArraySlice<String>, in root: JSONValue) -> (Bool, JSONValue?) {
        var current = root
        for (offset, component) in components.enumerated() {
            let next: JSONValue?
            switch current.kind {
            case .object:
                next = current.lastMember(named: component)
            case .array:
                next = Int(component).flatMap { $0 >= 0 ? current[$0] : nil }
            default:
                return (false, nil)
            }
            guard let next else { return (false, nil) }
            if next.isNull { return (true, nil) }
            if offset == components.count - 1 { return (true, next) }
            current = next
        }
        return (false, nil)
    }

    private static func store(_ value: Any, at components: ArraySlice<String>, in dictionary: inout [String: Any]) {
        guard let first = components.first else { return }
        guard components.count > 1 else {
            dictionary[first] = value
            return
        }
        var child = dictionary[first] as? [String: Any] ?? [:]
        store(value, at: components.dropFirst(), in: &child)
        dictionary[first] = child
    }
}
