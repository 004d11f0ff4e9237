/// An HTTP request method.
///
/// The common methods are static members; any other token (`PROPFIND`, `PURGE`, …) can be
/// made with ``init(rawValue:)``. Methods compare case-sensitively, as RFC 9110 requires.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method token sent on the request line, for example `"GET"`.
    public let rawValue: String

    /// Makes a method from its token. No validation happens here; the client rejects a token
    /// that is empty or contains characters outside RFC 9110's `tchar` set before sending.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Makes a method from a string literal, e.g. `let purge: HTTPMethod = "PURGE"`.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// `GET`
    public static let get: HTTPMethod = "GET"
    /// `HEAD` — the response has no body.
    public static let head: HTTPMethod = "HEAD"
    /// `POST`
    public static let post: HTTPMethod = "POST"
    /// `PUT`
    public static let put: HTTPMethod = "PUT"
    /// `PATCH`
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE`
    public static let delete: HTTPMethod = "DELETE"
    /// `OPTIONS`
    public static let options: HTTPMethod = "OPTIONS"

    /// Whether repeating the request has the same effect as sending it once (RFC 9110 §9.2.2).
    /// The retry policy only retries idempotent methods unless told otherwise.
    public var isIdempotent: Bool {
        switch rawValue {
        case "GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE": true
        default: false
        }
    }

    /// Whether parameters go into the URL query by default (`GET`, `HEAD`, `DELETE`), as
    /// AFNetworking's `HTTPMethodsEncodingParametersInURI` does; every other method puts
    /// them in the body.
    public var encodesParametersInURL: Bool {
        rawValue == "GET" || rawValue == "HEAD" || rawValue == "DELETE"
    }

    /// Whether the token is a valid RFC 9110 method token (non-empty, `tchar` only).
    package var isValidToken: Bool {
        !rawValue.isEmpty && rawValue.utf8.allSatisfy(HTTPHeaders.isTokenCharacter)
    }

    public var description: String { rawValue }
}
