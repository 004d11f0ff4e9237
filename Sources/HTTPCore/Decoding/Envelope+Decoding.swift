import Foundation

extension Envelope {
    /// The business code and message of a body, each in canonical string form (a missing
    /// message is `""`). Reads only the two key paths; the payload is not decoded.
    ///
    /// - Parameters:
    ///   - response: the response whose body is read.
    ///   - decoder: the decoder to parse with (its key strategy applies to the paths).
    ///     Default: a plain `JSONDecoder()`.
    /// - Throws: ``NetworkError/Kind/decodingFailed`` when the body is not JSON or has no code
    ///   at ``codePath`` (the error's `codingPath` names it).
    public func header(of response: HTTPResponse,
                       decoder: JSONDecoder = JSONDecoder()) throws(NetworkError) -> (code: String, message: String) {
        do {
            let header = try KeyPathContext.$codePath.withValue(KeyPathContext.components(codePath)) {
                try KeyPathContext.$messagePath.withValue(KeyPathContext.components(messagePath)) {
                    try decoder.decode(EnvelopeHeader.self, from: response.body)
                }
            }
            return (header.code, header.message)
        } catch {
            var failure = NetworkError.decoding(error, type: Envelope.self, response: response)
            failure.message = "the response is not a \(codePath) envelope: " + failure.message
            throw failure
        }
    }

    /// Checks the business code: returns when it is one of ``successCodes``.
    ///
    /// - Parameters:
    ///   - response: the response whose body is read.
    ///   - decoder: the decoder to parse with. Default: a plain `JSONDecoder()`.
    /// - Throws: ``NetworkError/Kind/business(code:message:)`` with the server's code and
    ///   message (and the response) for any other code; ``NetworkError/Kind/decodingFailed``
    ///   when there is no code to check (see ``header(of:decoder:)``).
    public func check(_ response: HTTPResponse, decoder: JSONDecoder = JSONDecoder()) throws(NetworkError) {
        let (code, message) = try header(of: response, decoder: decoder)
        guard successCodes.contains(code) else {
            throw NetworkError(.business(code: code, message: message),
                               message.isEmpty ? "the server reported business error \(code)"
                                               : "\(message) (business code \(code))",
                               response: response)
        }
    }

    /// Decodes the payload at ``payloadPath`` (the whole body when `nil`) as `type`, walking
    /// the path inside the decoder — the body is parsed once, never re-encoded.
    ///
    /// A missing payload decodes to `nil` when `T` is optional; for any other type it is a
    /// ``NetworkError/Kind/decodingFailed`` error whose `codingPath` names the missing key.
    /// A `null` payload decodes only into an optional.
    ///
    /// - Parameters:
    ///   - type: the payload's type.
    ///   - response: the response whose body is read.
    ///   - decoder: the decoder to use (its strategies apply to the payload). Default: a plain `JSONDecoder()`.
    public func decodePayload<T: Decodable>(_ type: T.Type, from response: HTTPResponse,
                                            decoder: JSONDecoder = JSONDecoder()) throws(NetworkError) -> T {
        try Envelope.decode(type, at: payloadPath, from: response, decoder: decoder)
    }

    /// The payload at ``payloadPath`` (the whole body when `nil`) as Foundation objects
    /// (`[String: Any]`, `[Any]`, `String`, `NSNumber`, `NSNull`), via `JSONSerialization`.
    /// A missing payload is `NSNull()`.
    ///
    /// - Throws: ``NetworkError/Kind/decodingFailed`` when the body is not JSON or an object on
    ///   the path is not an object.
    public func payloadJSON(from response: HTTPResponse) throws(NetworkError) -> Any {
        try Envelope.json(at: payloadPath, from: response)
    }

    /// The value at a dotted key path of a JSON body (the whole body when `path` is `nil` or
    /// empty) as Foundation objects, via `JSONSerialization`; fragments are allowed and a
    /// missing key gives `NSNull()`.
    ///
    /// - Throws: ``NetworkError/Kind/decodingFailed`` when the body is not JSON or a value on
    ///   the path is not an object.
    public static func json(at path: String?, from response: HTTPResponse) throws(NetworkError) -> Any {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed])
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
    /// empty), through nested containers of `decoder` — the shared helper of both front ends.
    ///
    /// - Throws: ``NetworkError/Kind/decodingFailed`` with the coding path of the failure.
    public static func decode<T: Decodable>(_ type: T.Type = T.self, at path: String?, from response: HTTPResponse,
                                            decoder: JSONDecoder = JSONDecoder()) throws(NetworkError) -> T {
        do {
            return try KeyPathContext.$payloadPath.withValue(KeyPathContext.components(path)) {
                try decoder.decode(KeyPathPayload<T>.self, from: response.body).value
            }
        } catch {
            throw NetworkError.decoding(error, type: T.self, response: response)
        }
    }
}
