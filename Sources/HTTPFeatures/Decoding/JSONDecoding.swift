import FastJSON
import Foundation
import HTTPCore

/// Which decoder turns JSON bodies into values: FastJSON's `FastJSONDecoder` (the
/// default everywhere) or Foundation's `JSONDecoder`, strictly or (``tolerant(_:)``, opt-in)
/// tolerantly.
///
/// Every typed path of both front ends goes through ``decode(_:from:atKeyPath:)``: models,
/// envelope payloads, envelope codes, error bodies, and the ``Lenient`` fields inside them.
/// Both backends give the same values and the same `DecodingError`s (case and coding path),
/// so a ``NetworkError/Kind/decodingFailed`` error carries the same ``NetworkError/codingPath``
/// whichever ran. `.foundation` is the switch back, e.g. for a `JSONDecoder` subclass or a
/// feature FastJSON leaves out (`allowsJSON5`, `assumesTopLevelDictionary`).
///
/// ```swift
/// .decoding(.fast())                       // the default
/// .decoding(.foundation())                 // Foundation's JSONDecoder()
/// .decoder(snakeCaseJSONDecoder)           // the same as .decoding(.foundation(snakeCaseJSONDecoder))
/// .decoding(.tolerant())                   // tolerant models over FastJSON
/// ```
///
/// A `JSONDecoder` is a class: configure it before handing it over, since every call that
/// uses the setting shares the instance (decoding never changes it). A `FastJSONDecoder` is a
/// value and is copied.
public enum JSONDecoding: Sendable {
    /// FastJSON's decoder, with its strategies. Default argument: `FastJSONDecoder()`
    /// (default keys, `.deferredToDate`, `.base64`, non-conforming floats throw).
    case fast(FastJSONDecoder = FastJSONDecoder())
    /// Foundation's `JSONDecoder`, with its strategies. Default argument: `JSONDecoder()`.
    case foundation(JSONDecoder = JSONDecoder())
    /// Tolerant decoding of `Codable` models (what HandyJSON users expect) over another
    /// setting's backend and strategies. Default argument: `.fast()`. Strict decoding stays the
    /// default everywhere; this is opt-in (`.decoding(.tolerant())`,
    /// `ChainConfiguration.decoding = .tolerant()`, `jsonDecoding = .tolerant(.foundation())`).
    ///
    /// At every depth (nested objects, array elements, dictionary values), in envelope payloads
    /// and at key paths:
    /// - a missing key or `null` gives the property type's empty value: `0` for every integer
    ///   and floating type, `""`, `false`, `[]`, `[:]`, `nil` for an optional, a
    ///   ``DefaultsDecodable`` type's declared defaults, and for another nested `Decodable`
    ///   type the value decoded tolerantly from `{}`; if that fails (a `String` enum, say), the
    ///   decoder's own `keyNotFound` or `valueNotFound` as in strict mode. A missing object
    ///   on the way to a key path is still `keyNotFound`;
    /// - numbers and strings convert both ways as ``LenientScalar`` says (`"12"` → 12, 12 →
    ///   `"12"`, 12.5 → `"12.5"`, `"true"`/`"1"`/1 → true, true → `"true"`);
    /// - a value that cannot convert (`"abc"` or 3.7 for an `Int`, an object for a `String`)
    ///   still throws `DecodingError.typeMismatch` with its coding path: a silent 0 would hide
    ///   a real change on the server. Declare such a property ``StringNumber`` to keep both
    ///   the text and the number.
    ///
    /// ``Lenient``, ``StringNumber``, ``Empty``, dates, data and URLs are read by the backend
    /// as in strict mode. Both backends give the same values and the same errors (case and
    /// coding path). Envelope codes are read strictly (they are lenient already). Limit: under
    /// a key-converting strategy, dictionary keys are converted too.
    indirect case tolerant(JSONDecoding = .fast())

    /// Decodes `type` from the value at a dotted key path of a JSON document (the whole
    /// document when `keyPath` is `nil` or empty; default `nil`) — straight from the bytes,
    /// without decoding the envelope around the value or re-encoding it.
    ///
    /// Key paths name object keys only (`data.returnData.rankinglist`; empty components are
    /// ignored) and are matched after the decoder's `keyDecodingStrategy` has converted the
    /// keys, the same for both backends. A missing last key gives `nil` when `T` is optional;
    /// a `null` value decodes only into an optional.
    ///
    /// - Throws: the `DecodingError` the decoder threw — `keyNotFound` with the path of the
    ///   object searched for a missing key, `typeMismatch` when a step is not an object,
    ///   `dataCorrupted` with an empty path for a body that is not JSON — or whatever a type's
    ///   `init(from:)` threw.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data, atKeyPath keyPath: String? = nil) throws -> T {
        let path = KeyPathContext.components(keyPath)
        switch self {
        case .tolerant:
            return try KeyPathContext.$payloadPath.withValue(path) {
                try base.decodeDocument(TolerantPayload<T>.self, from: data).value
            }
        case _ where TolerantDecoder.involvesDefaultsDecodable(T.self):
            return try JSONDecoding.tolerant(self).decode(T.self, from: data, atKeyPath: keyPath)
        case .foundation(let decoder):
            // The path is walked inside the decoder by `KeyPathPayload`, through nested
            // containers, so errors carry full coding paths and nothing is re-encoded.
            return try KeyPathContext.$payloadPath.withValue(path) {
                try decoder.decode(KeyPathPayload<T>.self, from: data).value
            }
        case .fast(let decoder):
            if path.isEmpty { return try decoder.decode(T.self, from: data) }
            guard JSONDecoding.fastDecoderMatchesKeysAsWritten(decoder), JSONDecoding.namesObjectKeysOnly(path) else {
                // Converted keys or numeric components: only the container walk has the
                // semantics documented above, and FastJSON runs it as well.
                return try KeyPathContext.$payloadPath.withValue(path) {
                    try decoder.decode(KeyPathPayload<T>.self, from: data).value
                }
            }
            do {
                return try decoder.decode(T.self, from: data, atKeyPath: path.joined(separator: "."))
            } catch {
                // FastJSON reports a missing payload as `keyNotFound` at the parent's path; an
                // error from inside `T` has a path at least as long as the key path.
                if case DecodingError.keyNotFound(let key, let context) = error, key.stringValue == path.last,
                   context.codingPath.count == path.count - 1, let none = KeyPathPayload<T>.missingValue {
                    return none
                }
                throw error
            }
        }
    }

    /// Parses a JSON document into the objects `JSONSerialization.jsonObject(with:options:
    /// .fragmentsAllowed)` returns (`[String: Any]`, `[Any]`, `String`, `NSNumber`, `NSNull`):
    /// with `.fast`, FastJSON's `JSONValue.jsonObject(with:)`, which makes the same objects
    /// (number classes included) and rejects the same input; with `.foundation`,
    /// `JSONSerialization` itself.
    ///
    /// - Throws: FastJSON's `JSONParseError` or `JSONSerialization`'s error for input that is
    ///   not JSON.
    public func jsonObject(with data: Data) throws -> Any {
        switch base {
        case .fast, .tolerant:
            return try JSONValue.jsonObject(with: data)
        case .foundation:
            return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        }
    }

    /// The Foundation decoder this setting stands for: the `JSONDecoder` of `.foundation`
    /// itself, or a new `JSONDecoder` with the strategies and `userInfo` of `.fast`'s decoder
    /// (a copy: changing it changes nothing here).
    public var jsonDecoder: JSONDecoder {
        switch base {
        case .foundation(let decoder):
            return decoder
        case .tolerant:
            // `base` never is `.tolerant`; the case only completes the switch.
            return JSONDecoder()
        case .fast(let fast):
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = fast.keyDecodingStrategy
            decoder.dateDecodingStrategy = fast.dateDecodingStrategy
            decoder.dataDecodingStrategy = fast.dataDecodingStrategy
            decoder.nonConformingFloatDecodingStrategy = fast.nonConformingFloatDecodingStrategy
            decoder.userInfo = fast.userInfo
            return decoder
        }
    }

    /// Decodes the whole document as `type` with the backend's own top-level `decode`
    /// (strictly, also for `.tolerant`).
    func decodeDocument<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        switch base {
        case .foundation(let decoder): try decoder.decode(T.self, from: data)
        case .fast(let decoder): try decoder.decode(T.self, from: data)
        case .tolerant(let inner): try inner.decodeDocument(T.self, from: data)
        }
    }

    /// The setting whose backend runs: `self`, or what `.tolerant` wraps.
    var base: JSONDecoding {
        if case .tolerant(let inner) = self { return inner.base }
        return self
    }

    /// Whether FastJSON's own key-path lookup, which compares keys byte for byte, finds what
    /// the container walk would.
    static func fastDecoderMatchesKeysAsWritten(_ decoder: FastJSONDecoder) -> Bool {
        if case .useDefaultKeys = decoder.keyDecodingStrategy { return true }
        return false
    }

    /// FastJSON's lookup also indexes arrays with numeric components; the documented key paths
    /// do not, so those paths take the container walk.
    static func namesObjectKeysOnly(_ path: [String]) -> Bool {
        !path.contains { Int($0) != nil }
    }
}
