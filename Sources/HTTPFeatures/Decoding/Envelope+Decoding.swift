import FastJSON
import Foundation
import HTTPCore

extension Envelope {
    /// The business code and message of the first check (``checks``), each in canonical
    /// string form (a missing message is `""`). Reads only those two key paths; the payload is
    /// not decoded.
    ///
    /// - Parameters:
    ///   - response: the response whose body is read.
    ///   - decoding: the decoder to parse with (its key strategy applies to the paths).
    ///     Default `.fast()`, which reads the paths from FastJSON's `JSONValue` without
    ///     `Decodable` when the keys need no conversion.
    /// - Throws: ``NetworkError/Kind/decodingFailed`` when the body is not JSON, the envelope
    ///   has no check, or there is no code at ``codePath`` (the error's `codingPath` names it).
    public func header(of response: HTTPResponse,
                       decoding: JSONDecoding = .fast()) throws(NetworkError) -> (code: String, message: String) {
        guard let first = checks.first else {
            throw NetworkError(.decodingFailed, "the envelope has no code check", response: response)
        }
        let header = try Envelope.header(of: first, in: response, scanned: decoding.scannedRoot(of: response.body),
                                         decoding: decoding)
        return (header.code, header.message)
    }

    /// ``header(of:decoding:)`` with Foundation's `decoder` (`.foundation(decoder)`).
    public func header(of response: HTTPResponse, decoder: JSONDecoder) throws(NetworkError) -> (code: String, message: String) {
        try header(of: response, decoding: .foundation(decoder))
    }

    /// Runs the code checks in order: returns when each code is one of its check's success
    /// codes. An envelope without checks (``keyPath(_:)``) accepts every body, JSON or not;
    /// its payload is read when decoding.
    ///
    /// - Parameters:
    ///   - response: the response whose body is read.
    ///   - decoding: the decoder to parse with. Default `.fast()`.
    /// - Throws: ``NetworkError/Kind/business(code:message:)`` with the first failing check's
    ///   code and message (and the response; the error's `codingPath` is that check's
    ///   ``CodeCheck/codePath``); ``NetworkError/Kind/decodingFailed`` when a check finds no
    ///   code (see ``header(of:decoding:)``). Later checks are not read once one fails.
    public func check(_ response: HTTPResponse, decoding: JSONDecoding = .fast()) throws(NetworkError) {
        guard !checks.isEmpty else { return }
        let scanned = decoding.scannedRoot(of: response.body)
        for check in checks {
            let header = try Envelope.header(of: check, in: response, scanned: scanned, decoding: decoding)
            guard check.successCodes.contains(header.code) else {
                let place = checks.count > 1 ? " at \(check.codePath)" : ""
                throw NetworkError(.business(code: header.code, message: header.message),
                                   header.message.isEmpty ? "the server reported business error \(header.code)\(place)"
                                                          : "\(header.message) (business code \(header.code)\(place))",
                                   response: response, codingPath: check.codePath)
            }
        }
    }

    /// One check's code and message, as a ``NetworkError`` when the body has none.
    private static func header(of check: CodeCheck, in response: HTTPResponse, scanned: JSONValue?,
                               decoding: JSONDecoding) throws(NetworkError) -> EnvelopeHeader {
        do {
            return try decoding.envelopeHeader(of: response.body, scanned: scanned,
                                               codePath: KeyPathContext.components(check.codePath),
                                               messagePath: KeyPathContext.components(check.messagePath))
        } catch {
            var failure = NetworkError.decoding(error, type: Envelope.self, response: response)
            failure.message = "the response is not a \(check.codePath) envelope: " + failure.message
            throw failure
        }
    }

    /// ``check(_:decoding:)`` with Foundation's `decoder` (`.foundation(decoder)`).
    public func check(_ response: HTTPResponse, decoder: JSONDecoder) throws(NetworkError) {
        try check(response, decoding: .foundation(decoder))
    }

    /// Decodes the payload at ``payloadPath`` (the whole body when `nil`) as `type`, straight
    /// from the bytes — the envelope around it is not decoded, nothing is re-encoded.
    ///
    /// A missing payload decodes to `nil` when `T` is optional; for any other type it is a
    /// ``NetworkError/Kind/decodingFailed`` error whose `codingPath` names the missing key.
    /// A `null` payload decodes only into an optional.
    ///
    /// - Parameters:
    ///   - type: the payload's type.
    ///   - response: the response whose body is read.
    ///   - decoding: the decoder to use (its strategies apply to the payload). Default `.fast()`.
    public func decodePayload<T: Decodable>(_ type: T.Type, from response: HTTPResponse,
                                            decoding: JSONDecoding = .fast()) throws(NetworkError) -> T {
        try Envelope.decode(type, at: payloadPath, from: response, decoding: decoding)
    }

    /// ``decodePayload(_:from:decoding:)`` with Foundation's `decoder` (`.foundation(decoder)`).
    public func decodePayload<T: Decodable>(_ type: T.Type, from response: HTTPResponse,
                                            decoder: JSONDecoder) throws(NetworkError) -> T {
        try decodePayload(type, from: response, decoding: .foundation(decoder))
    }

    /// The payload at ``payloadPath`` (the whole body when `nil`) as Foundation objects
    /// (`[String: Any]`, `[Any]`, `String`, `NSNumber`, `NSNull`), the objects
    /// `JSONSerialization` makes (see ``JSONDecoding/jsonObject(with:)``). A missing payload is
    /// `NSNull()`.
    ///
    /// - Parameter decoding: which parser makes the objects. Default `.fast()`.
    /// - Throws: ``NetworkError/Kind/decodingFailed`` when the body is not JSON or an object on
    ///   the path is not an object.
    public func payloadJSON(from response: HTTPResponse, decoding: JSONDecoding = .fast()) throws(NetworkError) -> Any {
        try Envelope.json(at: payloadPath, from: response, decoding: decoding)
    }

    /// The value at a dotted key path of a JSON body (the whole body when `path` is `nil` or
    /// empty) as the Foundation objects `JSONSerialization` makes; fragments are allowed and a
    /// missing key gives `NSNull()`.
    ///
    /// - Parameters:
    ///   - path: the dotted key path, or `nil`.
    ///   - response: the response whose body is read.
    ///   - decoding: `.fast` parses with FastJSON (the same objects, number classes included),
    ///     `.foundation` with `JSONSerialization`. Default `.fast()`.
    /// - Throws: ``NetworkError/Kind/decodingFailed`` when the body is not JSON or a value on
    ///   the path is not an object.
    public static func json(at path: String?, from response: HTTPResponse,
                            decoding: JSONDecoding = .fast()) throws(NetworkError) -> Any {
        let root: Any
        do {
            root = try decoding.jsonObject(with: response.body)
        } catch {
            throw NetworkError(.decodingFailed, "the body is not JSON", response: response, underlyingError: error)
        }
        var current = root
        var walked: [String] = []
        for key in KeyPathContext.components(path) {
            guard let object = current as? [String: Any] else {
                throw NetworkError(.decodingFailed, "expected an object at \(walked.isEmpty ? "the top level" : walked.joined(separator: "."))",
                                   response: response, codingPath: walked.isEmpty ? nil : walked.joined(separator: "."))
            }
            walked.append(key)
            current = object[key] ?? NSNull()
        }
        return current
    }

    /// Decodes `type` at a dotted key path of a body (the whole body when `path` is `nil` or
    /// empty) with ``JSONDecoding/decode(_:from:atKeyPath:)`` — the shared helper of both
    /// front ends, and the one place that turns decoding errors into ``NetworkError``s.
    ///
    /// - Parameters:
    ///   - type: the type to decode. Default: inferred.
    ///   - path: the dotted key path, or `nil`.
    ///   - response: the response whose body is read.
    ///   - decoding: the decoder to use. Default `.fast()`.
    /// An ``EmptyResponse`` type (``Empty``) decodes to its ``EmptyResponse/emptyValue()`` from
    /// an empty body (only white space counts as empty) and from any JSON body, whatever is at
    /// `path`; a body that is not JSON still fails.
    ///
    /// - Throws: ``NetworkError/Kind/decodingFailed`` with the coding path of the failure; for
    ///   an empty body and a type other than an ``EmptyResponse``, the message says so with the
    ///   status ("the body is empty (HTTP 204)").
    public static func decode<T: Decodable>(_ type: T.Type = T.self, at path: String?, from response: HTTPResponse,
                                            decoding: JSONDecoding = .fast()) throws(NetworkError) -> T {
        if let empty = T.self as? any EmptyResponse.Type, let value = try emptyValue(empty, from: response) as? T {
            return value
        }
        do {
            return try decoding.decode(T.self, from: response.body, atKeyPath: path)
        } catch {
            var failure = NetworkError.decoding(error, type: T.self, response: response)
            if isBlank(response.body) {
                failure.message = "could not decode \(T.self): the body is empty (HTTP \(response.statusCode)); "
                    + "decode `Empty` for an answer without content"
            }
            throw failure
        }
    }

    /// What an ``EmptyResponse`` decodes to: its empty value, when the body is empty or JSON.
    private static func emptyValue<E: EmptyResponse>(_ type: E.Type, from response: HTTPResponse) throws(NetworkError) -> E {
        guard !isBlank(response.body) else { return E.emptyValue() }
        do {
            _ = try JSONValue(parsing: response.body)
        } catch {
            throw NetworkError(.decodingFailed, "could not decode \(E.self): the body is not JSON", response: response,
                               underlyingError: error)
        }
        return E.emptyValue()
    }

    /// Whether a body has no bytes but JSON white space.
    private static func isBlank(_ body: Data) -> Bool {
        body.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    }

    /// ``decode(_:at:from:decoding:)`` with Foundation's `decoder` (`.foundation(decoder)`).
    public static func decode<T: Decodable>(_ type: T.Type = T.self, at path: String?, from response: HTTPResponse,
                                            decoder: JSONDecoder) throws(NetworkError) -> T {
        try decode(type, at: path, from: response, decoding: .foundation(decoder))
    }
}
