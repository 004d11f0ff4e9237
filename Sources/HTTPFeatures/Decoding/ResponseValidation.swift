import Foundation
import HTTPCore

/// Decides whether a response is acceptable: its status (a ``StatusAcceptance``), then
/// ``contentCheck`` if set, then (with an ``Envelope``) its business code. Runs in a
/// ``ResponsePlan``'s `validate` step, so a response it rejects is never stored by the cache.
///
/// Defaults: statuses `200..<300`, no envelope, no error-body type, FastJSON (`.fast()`).
public struct ResponseValidation: Sendable {
    /// The statuses that pass. Default ``StatusAcceptance/successCodes``.
    public var status: StatusAcceptance
    /// Whether the status (or anything else about the response) is acceptable: ``status`` as a
    /// closure; setting it makes ``status`` ``StatusAcceptance/custom(_:)``.
    /// Default: the status is in `200..<300`.
    public var isAcceptable: @Sendable (HTTPResponse) -> Bool {
        get { status.accepts }
        set { status = .custom(newValue) }
    }
    /// A check of the response after its status and before the envelope (AFStyle's acceptable
    /// content types); it throws the error to deliver: a ``NetworkError`` as it is, any other
    /// error as ``NetworkError/Kind/invalidResponse`` with it as the underlying error (so a
    /// plain closure will do). Default `nil`: none.
    public var contentCheck: (@Sendable (HTTPResponse) throws -> Void)?
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

    /// Accepts what `status` accepts.
    ///
    /// - Parameters:
    ///   - status: the statuses that pass.
    ///   - envelope: the envelope to check after the status. Default `nil`.
    ///   - errorBody: the error-body decoder for rejected statuses. Default `nil`.
    ///   - decoding: the decoder for the envelope's code. Default `.fast()`.
    public init(status: StatusAcceptance, envelope: Envelope? = nil, errorBody: ErrorBodyDecoder? = nil,
                decoding: JSONDecoding = .fast()) {
        self.status = status
        self.envelope = envelope
        self.errorBody = errorBody
        self.decoding = decoding
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
        self.init(status: .codes(acceptableStatusCodes), envelope: envelope, errorBody: errorBody, decoding: decoding)
    }

    /// ``init(acceptableStatusCodes:envelope:errorBody:decoding:)`` with Foundation's
    /// `decoder` (`.foundation(decoder)`); the other arguments have the same defaults.
    public init(acceptableStatusCodes: some Sequence<Int> = 200..<300, envelope: Envelope? = nil,
                errorBody: ErrorBodyDecoder? = nil, decoder: JSONDecoder) {
        self.init(acceptableStatusCodes: acceptableStatusCodes, envelope: envelope, errorBody: errorBody,
                  decoding: .foundation(decoder))
    }

    /// Accepts what `isAcceptable` accepts (``StatusAcceptance/custom(_:)``).
    ///
    /// - Parameters:
    ///   - isAcceptable: returns whether the response passes; a rejected response fails with
    ///     ``NetworkError/Kind/unacceptableStatus(_:)``.
    ///   - envelope: the envelope to check after the status. Default `nil`.
    ///   - errorBody: the error-body decoder for rejected responses. Default `nil`.
    ///   - decoding: the decoder for the envelope's code. Default `.fast()`.
    public init(isAcceptable: @escaping @Sendable (HTTPResponse) -> Bool, envelope: Envelope? = nil,
                errorBody: ErrorBodyDecoder? = nil, decoding: JSONDecoding = .fast()) {
        self.init(status: .custom(isAcceptable), envelope: envelope, errorBody: errorBody, decoding: decoding)
    }

    /// ``init(isAcceptable:envelope:errorBody:decoding:)`` with Foundation's `decoder`
    /// (`.foundation(decoder)`); the other arguments have the same defaults.
    public init(isAcceptable: @escaping @Sendable (HTTPResponse) -> Bool, envelope: Envelope? = nil,
                errorBody: ErrorBodyDecoder? = nil, decoder: JSONDecoder) {
        self.init(isAcceptable: isAcceptable, envelope: envelope, errorBody: errorBody, decoding: .foundation(decoder))
    }

    /// Accepts every response (no status check); an envelope, if set, is still checked.
    public static var anyStatus: ResponseValidation { ResponseValidation(status: .anyStatus) }

    /// Throws when the response is not acceptable.
    /// - Throws: ``NetworkError/Kind/unacceptableStatus(_:)`` (see ``statusError(for:)``), then
    ///   what ``contentCheck`` throws, then ``NetworkError/Kind/business(code:message:)`` or
    ///   ``NetworkError/Kind/decodingFailed`` from the envelope check.
    public func validate(_ response: HTTPResponse) throws(NetworkError) {
        try validateStatus(response)
        if let contentCheck {
            do { try contentCheck(response) } catch {
                throw NetworkError.wrapping(error, as: .invalidResponse, "the response was rejected", response: response)
            }
        }
        try envelope?.check(response, decoding: decoding)
    }

    /// Throws ``statusError(for:)`` unless ``status`` accepts the response; the envelope is
    /// not checked (downloads).
    public func validateStatus(_ response: HTTPResponse) throws(NetworkError) {
        guard status.accepts(response) else { throw statusError(for: response) }
    }

    /// The error for a rejected response (``StatusAcceptance/error(for:decodedBody:)``), with
    /// the body decoded by ``errorBody`` when it decodes.
    public func statusError(for response: HTTPResponse) -> NetworkError {
        StatusAcceptance.error(for: response, decodedBody: errorBody?.decode(response))
    }
}
