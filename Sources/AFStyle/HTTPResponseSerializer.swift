import Foundation

/// Checks a response and turns its body into the `responseObject` a `success` closure gets:
/// the counterpart of `AFJSONResponseSerializer` (``json``, the default),
/// `AFHTTPResponseSerializer` (``data``) and a string serializer (``string``).
///
/// A response whose status is not in ``acceptableStatusCodes`` fails with
/// ``NetworkError/Kind/unacceptableStatus(_:)``; one with a body whose MIME type is not in
/// ``acceptableContentTypes`` fails with ``NetworkError/Kind/decodingFailed`` and a message
/// naming the type. The status is checked first, as AFNetworking reports it first.
public struct HTTPResponseSerializer: Sendable, Hashable {
    /// What the body becomes.
    public enum Kind: Sendable, Hashable {
        /// The parsed JSON as `Any` (`[String: Any]`, `[Any]`, `String`, `NSNumber`, `NSNull`,
        /// as `JSONSerialization` makes them; parsed by FastJSON unless the manager's
        /// `jsonDecoding` is `.foundation`); `nil` for an empty body.
        case json
        /// The body as `Data`.
        case data
        /// The body as `String`, decoded with the `Content-Type` charset (default UTF-8).
        case string
    }

    /// What the body becomes.
    public var kind: Kind
    /// The statuses that count as success, checked as a ``StatusAcceptance``.
    /// Default `200...299`.
    public var acceptableStatusCodes: IndexSet
    /// The MIME types (lower case, without parameters) a non-empty body may have, or `nil`
    /// for any. Default for ``json``: `application/json`, `text/json`, `text/javascript`;
    /// `nil` for ``data`` and ``string``.
    public var acceptableContentTypes: Set<String>?
    /// Whether ``Kind/json`` drops dictionary keys whose value is `null`, at any depth.
    /// Default `false`.
    public var removesKeysWithNullValues: Bool

    /// `AFJSONResponseSerializer`, the manager's default.
    public static var json: HTTPResponseSerializer {
        HTTPResponseSerializer(kind: .json, acceptableContentTypes: ["application/json", "text/json", "text/javascript"])
    }

    /// `AFHTTPResponseSerializer`: the body as `Data`, any content type.
    public static var data: HTTPResponseSerializer { HTTPResponseSerializer(kind: .data) }

    /// The body as a `String`, any content type.
    public static var string: HTTPResponseSerializer { HTTPResponseSerializer(kind: .string) }

    /// Makes a serializer; every argument but `kind` has the default stated on its property
    /// (`acceptableContentTypes` defaults to `nil`, any type).
    public init(kind: Kind, acceptableStatusCodes: IndexSet = IndexSet(integersIn: 200..<300),
                acceptableContentTypes: Set<String>? = nil, removesKeysWithNullValues: Bool = false) {
        self.kind = kind
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
        self.removesKeysWithNullValues = removesKeysWithNullValues
    }

    /// Throws unless the status and the content type are acceptable (`validateResponse:data:`).
    /// An empty body passes whatever its type, as in AFNetworking.
    public func validate(_ response: HTTPResponse) throws(NetworkError) {
        try validation(envelope: nil, decoding: .fast()).validate(response)
    }

    /// The checks of ``validate(_:)`` as the validation step every plan uses: the status, the
    /// content type (when ``acceptableContentTypes`` is set), then `envelope`'s code.
    package func validation(envelope: Envelope?, decoding: JSONDecoding) -> ResponseValidation {
        var validation = ResponseValidation(status: statusAcceptance, envelope: envelope, decoding: decoding)
        if let acceptableContentTypes {
            validation.contentCheck = { response throws(NetworkError) in
                try HTTPResponseSerializer.checkContentType(of: response, in: acceptableContentTypes)
            }
        }
        return validation
    }

    /// Throws ``NetworkError/Kind/decodingFailed`` naming the type unless a non-empty body's
    /// MIME type is one of `acceptableContentTypes`.
    private static func checkContentType(of response: HTTPResponse,
                                         in acceptableContentTypes: Set<String>) throws(NetworkError) {
        guard !response.body.isEmpty else { return }
        let mimeType = response.mimeType ?? ""
        guard acceptableContentTypes.contains(mimeType) else {
            throw NetworkError(.decodingFailed,
                               "unacceptable content type \(mimeType.isEmpty ? "(none)" : mimeType) from \(response.url.absoluteString); expected \(acceptableContentTypes.sorted().joined(separator: ", "))",
                               response: response)
        }
    }

    /// Throws ``NetworkError/Kind/unacceptableStatus(_:)`` unless the status is acceptable
    /// (``StatusAcceptance/check(_:)``); the message quotes the start of a textual body.
    public func validateStatus(_ response: HTTPResponse) throws(NetworkError) {
        try statusAcceptance.check(response)
    }

    /// ``acceptableStatusCodes`` as the one status check.
    var statusAcceptance: StatusAcceptance { .codes(acceptableStatusCodes) }

    /// The `responseObject` for a validated response (`responseObjectForResponse:data:error:`).
    ///
    /// - Parameters:
    ///   - response: the response, already validated.
    ///   - envelope: for ``Kind/json``, the envelope whose payload (at its `payloadPath`) is the
    ///     object; a missing payload is `NSNull()`. ``Kind/data`` and ``Kind/string`` ignore it.
    ///     Default `nil`.
    ///   - decoding: for ``Kind/json``, which parser makes the objects: `.fast` FastJSON (the
    ///     objects `JSONSerialization` makes, number classes included), `.foundation`
    ///     `JSONSerialization`. Default `.fast()`; the manager passes its
    ///     ``HTTPSessionManager/jsonDecoding``.
    /// - Throws: ``NetworkError/Kind/decodingFailed`` for a body that is not JSON or not text
    ///   in its charset.
    public func responseObject(for response: HTTPResponse, envelope: Envelope? = nil,
                               decoding: JSONDecoding = .fast()) throws(NetworkError) -> Any? {
        switch kind {
        case .data:
            return response.body
        case .string:
            return try response.text()
        case .json:
            let object: Any
            if let envelope {
                object = try envelope.payloadJSON(from: response, decoding: decoding)
            } else {
                guard let parsed = try HTTPResponseSerializer.jsonObject(from: response, decoding: decoding) else {
                    return nil
                }
                object = parsed
            }
            return removesKeysWithNullValues ? HTTPResponseSerializer.removingNulls(object) : object
        }
    }

    /// The parsed body, or `nil` when it is empty or white space only.
    static func jsonObject(from response: HTTPResponse, decoding: JSONDecoding) throws(NetworkError) -> Any? {
        // AFNetworking treats a lone space (Rails' `head :ok`) like no body; so do we for any white space.
        guard response.body.contains(where: { !HTTPResponseSerializer.isJSONWhiteSpace($0) }) else { return nil }
        return try Envelope.json(at: nil, from: response, decoding: decoding)
    }

    static func removingNulls(_ object: Any) -> Any {
        if let dictionary = object as? [String: Any] {
            return dictionary.filter { !($0.value is NSNull) }.mapValues(removingNulls)
        }
        if let array = object as? [Any] {
            return array.map(removingNulls)
        }
        return object
    }

    private static func isJSONWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
