import Foundation
import HTTPCore

/// Makes a caller's value from a validated response: raw data, text, JSON objects, a
/// `Decodable` model or nothing at all (`Void`).
///
/// Serializers run in a ``ResponsePlan``'s `decode` step, after ``ResponseValidation`` (which
/// checks the status and an envelope's code). With an ``Envelope``, ``json`` and
/// ``decodable(_:decoding:)`` unwrap its payload; ``data`` and ``string(defaultEncoding:)``
/// always see the whole body; ``void`` never reads it.
public struct ResponseSerializer<Value>: Sendable {
    /// Makes the value from a response and the envelope in effect (or `nil`).
    public let serialize: @Sendable (HTTPResponse, Envelope?) throws(NetworkError) -> Value

    /// Makes a serializer from a closure that throws ``NetworkError`` only.
    public init(_ serialize: @escaping @Sendable (HTTPResponse, Envelope?) throws(NetworkError) -> Value) {
        self.serialize = serialize
    }

    /// Makes a serializer from a closure that may throw any error — a plain closure, no
    /// `throws(NetworkError)` annotation needed:
    ///
    /// ```swift
    /// ResponseSerializer { response, _ in try MyFormat.parse(response.body) }
    /// ```
    ///
    /// A ``NetworkError`` passes through as it is; any other error becomes
    /// ``NetworkError/Kind/decodingFailed`` with the response, the original error as
    /// ``NetworkError/underlyingError`` and, for a `DecodingError`, its coding path.
    @_disfavoredOverload
    public init(_ serialize: @escaping @Sendable (HTTPResponse, Envelope?) throws -> Value) {
        self.serialize = { response, envelope throws(NetworkError) in
            do { return try serialize(response, envelope) } catch {
                throw NetworkError.decoding(error, type: Value.self, response: response)
            }
        }
    }
}

extension ResponseSerializer where Value == Data {
    /// The body as it arrived (decompressed); never fails.
    public static var data: ResponseSerializer<Data> { ResponseSerializer { response, _ in response.body } }
}

extension ResponseSerializer where Value == String {
    /// The body as text in the `Content-Type` charset, else `defaultEncoding` (default `.utf8`).
    /// Undecodable bytes fail with ``NetworkError/Kind/decodingFailed``.
    public static func string(defaultEncoding: String.Encoding = .utf8) -> ResponseSerializer<String> {
        ResponseSerializer { response, _ throws(NetworkError) in try response.text(defaultEncoding: defaultEncoding) }
    }
}

extension ResponseSerializer where Value == Any {
    /// The body (or the envelope's payload) as the Foundation objects `JSONSerialization`
    /// makes, parsed by FastJSON (``json(decoding:)`` with `.fast()`); fragments (`"text"`,
    /// `1`) are allowed, a missing payload is `NSNull()`. A body that is not JSON fails with
    /// ``NetworkError/Kind/decodingFailed``.
    public static var json: ResponseSerializer<Any> { json(decoding: .fast()) }

    /// The body (or the envelope's payload) as Foundation objects, parsed as `decoding` says:
    /// `.fast` with FastJSON (the same objects, number classes included), `.foundation` with
    /// `JSONSerialization`. Otherwise as ``json``.
    public static func json(decoding: JSONDecoding) -> ResponseSerializer<Any> {
        ResponseSerializer { response, envelope throws(NetworkError) in
            try Envelope.json(at: envelope?.payloadPath, from: response, decoding: decoding)
        }
    }
}

extension ResponseSerializer where Value == Void {
    /// Success or failure only: the body is not read, so an envelope's missing or `null`
    /// payload (and an empty body) is a success.
    public static var void: ResponseSerializer<Void> { ResponseSerializer { _, _ in () } }
}

extension ResponseSerializer where Value: Decodable & Sendable {
    /// The body — or the envelope's payload, decoded straight from the bytes without decoding
    /// the envelope or re-encoding — decoded as `Value`. (`Value` must be `Sendable` because
    /// the decode runs in a `@Sendable` step; plain model structs are.)
    ///
    /// - Parameters:
    ///   - type: the type to decode. Default: inferred.
    ///   - decoding: the decoder to use. Default `.fast()` (FastJSON).
    /// - Returns: a serializer that fails with ``NetworkError/Kind/decodingFailed`` (with the
    ///   coding path, e.g. `data.name`) when the body does not decode; a missing payload is
    ///   `nil` for an optional `Value` and a failure naming the key otherwise.
    public static func decodable(_ type: Value.Type = Value.self,
                                 decoding: JSONDecoding = .fast()) -> ResponseSerializer<Value> {
        ResponseSerializer { response, envelope throws(NetworkError) in
            try Envelope.decode(Value.self, at: envelope?.payloadPath, from: response, decoding: decoding)
        }
    }

    /// ``decodable(_:decoding:)`` with Foundation's `decoder` (`.foundation(decoder)`).
    ///
    /// - Parameters:
    ///   - type: the type to decode. Default: inferred.
    ///   - decoder: the Foundation decoder to use.
    public static func decodable(_ type: Value.Type = Value.self, decoder: JSONDecoder) -> ResponseSerializer<Value> {
        decodable(type, decoding: .foundation(decoder))
    }
}

extension ResponsePlan {
    /// A plan that validates with `validation` (status, then the envelope's code) and makes
    /// the value with `serializer`, which sees `validation`'s envelope.
    public init(validation: ResponseValidation, serializer: ResponseSerializer<Value>) {
        let envelope = validation.envelope
        self.init(validate: { response throws(NetworkError) in try validation.validate(response) },
                  decode: { response throws(NetworkError) in try serializer.serialize(response, envelope) })
    }
}
