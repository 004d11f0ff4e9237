import Foundation
import HTTPCore

/// Turns the body of a rejected response into a typed error, such as the
/// `{"error":"…","error_code":"1001"}` bodies of many JSON APIs.
///
/// When the status is not acceptable, ``ResponseValidation`` asks its error-body decoder;
/// a decoded value becomes the ``NetworkError/underlyingError`` of the
/// ``NetworkError/Kind/unacceptableStatus(_:)`` error (the kind keeps the HTTP status).
/// A body that does not decode — HTML, empty, not UTF-8 — gives `nil`, never a crash, and the
/// caller falls back to a generic status error carrying the raw body.
///
/// ```swift
/// struct APIError: Decodable, Error { let error: String; let error_code: String }
/// let errorBody = ErrorBodyDecoder(APIError.self)
/// // later: (networkError.underlyingError as? APIError)?.error_code == "1001"
/// ```
public struct ErrorBodyDecoder: Sendable {
    private let decodeBody: @Sendable (HTTPResponse) -> (any Error)?

    /// Decodes the body as `type` with `decoding` (default `.fast()`, FastJSON).
    public init<Body: Decodable & Error>(_ type: Body.Type, decoding: JSONDecoding = .fast()) {
        decodeBody = { response in
            guard !response.body.isEmpty else { return nil }
            return try? decoding.decode(Body.self, from: response.body)
        }
    }

    /// Decodes the body as `type` with Foundation's `decoder` (`.foundation(decoder)`).
    public init<Body: Decodable & Error>(_ type: Body.Type, decoder: JSONDecoder) {
        self.init(type, decoding: .foundation(decoder))
    }

    /// Uses a closure that returns the error a response's body stands for, or `nil`.
    public init(_ decode: @escaping @Sendable (HTTPResponse) -> (any Error)?) {
        decodeBody = decode
    }

    /// The error `response`'s body stands for, or `nil` when it does not decode.
    public func decode(_ response: HTTPResponse) -> (any Error)? {
        decodeBody(response)
    }
}
