import Foundation
import HTTPCore

/// The decoder of ``JSONDecoding/tolerant(_:)`` mode: a wrapper over whichever backend's
/// decoder runs, so values and errors (case and coding path) are the backend's wherever the
/// rules below do not step in, and the same with both backends where they do.
///
/// - A missing key or `null` gives the declared default (``DefaultsDecodable``), else the
///   type's empty value (``TolerantDefault``), else a ``DefaultsDecodable`` type's `init()`,
///   else the type decoded tolerantly from nothing (all its keys missing); when that fails too,
///   the backend's own error (`keyNotFound`, `valueNotFound`). An enum's unknown raw value
///   gives the declared default too.
/// - Scalars convert as ``LenientScalar`` says; what does not convert throws the
///   `typeMismatch` ``LenientScalar`` throws, at the value's coding path.
/// - ``TolerantPassthrough`` types are read by the backend unchanged.
struct TolerantDecoder: Decoder {
    /// The backend's decoder at this value.
    let inner: any Decoder
    /// The declared defaults of the type being decoded, by property name.
    let defaults: [String: Any]

    /// Deeper than this, a value is not made up from nothing (a type that holds itself).
    static let maximumMadeUpDepth = 64

    var codingPath: [any CodingKey] { inner.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { inner.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(TolerantKeyedContainer(inner: try inner.container(keyedBy: type), defaults: defaults))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        TolerantUnkeyedContainer(inner: try inner.unkeyedContainer())
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TolerantSingleValueContainer(inner: try inner.singleValueContainer(), decoder: inner)
    }

    /// Decodes a value that is present and not `null`, by the rules above.
    static func decode<T: Decodable>(_ type: T.Type, from decoder: any Decoder) throws -> T {
        let inner = (decoder as? TolerantDecoder)?.inner ?? decoder
        if T.self is any TolerantPassthrough.Type {
            return try inner.singleValueContainer().decode(T.self)
        }
        if let scalar = T.self as? any LenientScalar.Type {
            let container = try inner.singleValueContainer()
            guard let value = try convert(scalar, from: container) as? T else {
                throw DecodingError.typeMismatch(T.self, .init(codingPath: container.codingPath, debugDescription: "not a \(T.self)"))
            }
            return value
        }
        return try T(from: TolerantDecoder(inner: inner, defaults: declaredDefaults(of: T.self)))
    }

    /// A scalar as it is, or converted.
    static func convert<S: LenientScalar>(_ scalar: S.Type, from container: any SingleValueDecodingContainer) throws -> S {
        if let value = try? container.decode(S.self) { return value }
        return try S.decodeLeniently(from: container)
    }

    /// What a missing or `null` value gives, or `nil` when the type has nothing to give.
    static func madeUpValue<T: Decodable>(_ type: T.Type, at codingPath: [any CodingKey]) -> T? {
        if let empty = T.self as? any TolerantDefault.Type, let value = empty.tolerantDefault as? T {
            return value
        }
        if let model = T.self as? any DefaultsDecodable.Type, let value = model.init() as? T {
            return value
        }
        guard codingPath.count < maximumMadeUpDepth else { return nil }
        return try? T(from: TolerantDecoder(inner: MissingValueDecoder(codingPath: codingPath), defaults: declaredDefaults(of: T.self)))
    }

    /// The stored properties' values of `T()` by name, for a ``DefaultsDecodable`` type
    /// (a wrapped property under its own name as well as its storage's `_name`).
    static func declaredDefaults<T>(of type: T.Type) -> [String: Any] {
        guard let model = T.self as? any DefaultsDecodable.Type else { return [:] }
        var defaults: [String: Any] = [:]
        var mirror: Mirror? = Mirror(reflecting: model.init())
        while let current = mirror {
            for child in current.children {
                guard let label = child.label else { continue }
                if defaults[label] == nil { defaults[label] = child.value }
                if label.hasPrefix("_"), defaults[String(label.dropFirst())] == nil {
                    defaults[String(label.dropFirst())] = child.value
                }
            }
            mirror = current.superclassMirror
        }
        return defaults
    }

    /// Whether decoding `type` involves a ``DefaultsDecodable`` type at the top: itself, or the
    /// element of an array, dictionary or optional that does.
    static func involvesDefaultsDecodable(_ type: Any.Type) -> Bool {
        if type is any DefaultsDecodable.Type { return true }
        guard let wrapping = type as? any TolerantElementWrapping.Type else { return false }
        return involvesDefaultsDecodable(wrapping.wrappedType)
    }
}
