import Foundation
import HTTPCore

/// Decides whether a response is acceptable: its status, then (with an ``Envelope``) its
/// business code. Runs in a ``ResponsePlan``'s `validate` step, so a response it rejects is
/// never stored by the cache.
///
/// Defaults: statuses `200..<300`, no envelope, no error-body type, FastJSON (`.fast()`).
public struct ResponseValidation: Sendable {
    /// Whether the status (or anything else about the response) is acceptable.
    /// Default: the status is in `200..<300`.
    public var isAcceptable: @Sendable (HTTPResponse) -> Bool
    /// The envelope whose code is checked after the status. Default `nil`.
    public var envelope: Envelope?
    /// Turns a rejected response's body into a typed error. Default `nil`.
    public var errorBody: ErrorBodyDecoder?
    /// The decoder used to read the envelope's code. Default `.fast()`.
    public var decoding: JSONDecoding
    /// The envelope's decoder as a Foundation `JSONDecoder` (see
    /// ``JSONDecoding/jsonDecoder``); setting it selects `.foundation(newValue)`.
    /// Default: a `JSONDecoder()` standing for the default `.fast()`.
    public var decoder: JSONDecoder {
        get { decoding.jsonDecoder }
        set { decoding = .foundation(newValue) }
    }

    /// Accepts the statuses in `acceptableStatusCodes` (default `200..<300`).
    ///
    /// - Parameters:
    ///   - acceptableStatusCodes: the statuses that pass. Default `200..<300`.
    ///   - envelope: the envelope to check after the status. Default `nil`.
    ///   - errorBody: the error-body decoder for rejected statuses. Default `nil`.
    ///   - decoding: the decoder for the envelope's code. Default `.fast()`.
    public init(acceptableStatusCodes: some Sequence<Int> = 200..<300, envelope: Envelope? = nil,
                errorBody: ErrorBodyDecoder? = nil, decoding: JSONDecoding = .fast()) {
        let codes = Set(acceptableStatusCodes)
        self.init(isAcceptable: { codes.contains($0.statusCode) }, envelope: envelope, errorBody: errorBody,
                  decoding: decoding)
    }

    /// ``init(acceptableStatusCodes:envelope:errorBody:decoding:)`` with Foundation's
    /// `decoder` (`.foundation(decoder)`); the other arguments have the same defaults.
    public init(acceptableStatusCodes: some Sequence<Int> = 200..<300, envelope: Envelope? = nil,
                errorBody: ErrorBodyDecoder? = nil, decoder: JSONDecoder) {
        self.init(acceptableStatusCodes: acceptableStatusCodes, envelope: envelope, errorBody: errorBody,
                  decoding: .foundation(decoder))
    }

    /// Accepts what `isAcceptable` accepts.
    ///
    /// - Parameters:
    ///   - isAcceptable: returns whether the response passes; a rejected response fails with
    ///     ``NetworkError/Kind/unacceptableStatus(_:)``.
    ///   - envelope: the envelope to check after the status. Default `nil`.
    ///   - errorBody: the error-body decoder for rejected responses. Default `nil`.
    ///   - decoding: the decoder for the envelope's code. Default `.fast()`.
    public init(isAcceptable: @escaping @Sendable (HTTPResponse) -> Bool, envelope: Envelope? = nil,
                errorBody: ErrorBodyDecoder? = nil, decoding: JSONDecoding = .fast()) {
        self.isAcceptable = isAcceptable
        self.envelope = envelope
        self.errorBody = errorBody
        self.decoding = decoding
    }

    /// ``init(isAcceptable:envelope:errorBody:decoding:)`` with Foundation's `decoder`
    /// (`.foundation(decoder)`); the other arguments have the same defaults.
    public init(isAcceptable: @escaping @Sendable (HTTPResponse) -> Bool, envelope: Envelope? = nil,
                errorBody: ErrorBodyDecoder? = nil, decoder: JSONDecoder) {
        self.init(isAcceptable: isAcceptable, envelope: envelope, errorBody: errorBody, decoding: .foundation(decoder))
    }

    /// Accepts every response (no status check); an envelope, if set, is still checked.
    public static var anyStatus: ResponseValidation { ResponseValidation(isAcceptable: { _ in true }) }

    /// Throws when the response is not acceptable.
    /// - Throws: ``NetworkError/Kind/unacceptableStatus(_:)`` (see ``statusError(for:)``), then
    ///   ``NetworkError/Kind/business(code:message:)`` or ``NetworkError/Kind/decodingFailed``
    ///   from the envelope check.
    public func validate(_ response: HTTPResponse) throws(NetworkError) {
        guard isAcceptable(response) else { throw statusError(for: response) }
        try envelope?.check(response, decoding: decoding)
    }

    /// The error for a rejected response: with a decodable error body, that body as
    /// ``NetworkError/underlyingError`` and its description in the message; otherwise a
    /// generic status error whose message quotes the start of a textual body.
    public func statusError(for response: HTTPResponse) -> NetworkError {
        let status = response.statusCode
        if let body = errorBody?.decode(response) {
            return NetworkError(.unacceptableStatus(status),
                                "the server answered \(status): \(ResponseValidation.describe(body))",
                                response: response, underlyingError: body)
        }
        var message = "the server answered \(status) for \(response.url.absoluteString)"
        if let excerpt = ResponseValidation.excerpt(of: response.body) { message += ": \(excerpt)" }
        return NetworkError(.unacceptableStatus(status), message, response: response)
    }

    private static func describe(_ error: any Error) -> String {
        if let localized = error as? any LocalizedError, let text = localized.errorDescription { return text }
        return String(describing: error)
    }

    /// The first 200 characters of a UTF-8 body on one line, or `nil` for an empty or binary body.
    static func excerpt(of body: Data) -> String? {
        guard !body.isEmpty else { return nil }
        // The cut may split a character: back off up to three bytes (the longest UTF-8 tail).
        let limit = min(body.count, 400)
        let cuts = limit == body.count ? [limit] : Array((limit - 3...limit).reversed())
        guard let text = cuts.lazy.compactMap({ String(data: body.prefix($0), encoding: .utf8) }).first else { return nil }
        let line = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        guard !line.isEmpty else { return nil }
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }
}
