import Foundation

/// The one error type of Chain: every failure of either front end, the cache and the engine
/// is a `NetworkError`.
///
/// Switch on ``kind``; the other properties carry what is known: libcurl's code and message,
/// the HTTP response (status, headers, body) when there was one, the coding path of a
/// decoding failure, the server's business code and message.
public struct NetworkError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong, for `switch`.
    public enum Kind: Sendable, Hashable {
        /// The URL string could not be parsed, or has no host.
        case invalidURL
        /// The scheme (or a redirect's) is not `http` or `https`.
        case unsupportedScheme
        /// The request itself is malformed: a header with CR/LF (injection), an invalid method.
        case invalidRequest
        /// Parameters could not be encoded (NaN in JSON, an unsupported value type).
        case invalidParameters
        /// The host name could not be resolved.
        case dnsFailure
        /// The TCP connection could not be made (refused, unreachable).
        case cannotConnect
        /// The TLS handshake or certificate verification failed, or a pinned key did not match.
        case tls
        /// A connect, idle or total timeout expired.
        case timedOut
        /// The request was cancelled.
        case cancelled
        /// More redirects than the policy allows.
        case tooManyRedirects
        /// The body exceeded the request's size limit.
        case responseTooLarge
        /// The connection closed or was reset before the response was complete.
        case connectionLost
        /// The body was shorter than its `Content-Length`: the data is incomplete.
        case truncatedResponse
        /// The server's reply is not valid HTTP (garbage status line, bad chunked encoding), or
        /// a validation step of the caller's rejected it with an error of its own (then
        /// ``NetworkError/underlyingError``).
        case invalidResponse
        /// The status code was not acceptable to the request's validation.
        case unacceptableStatus(Int)
        /// The body could not be decoded into the requested type.
        case decodingFailed
        /// The server reported a business error in an envelope.
        case business(code: String, message: String)
        /// The cache had no usable entry (`.cacheOnly`).
        case cacheMiss
        /// Reading or writing a file failed (an upload, a download, the cache).
        case fileIO
        /// The proxy wants credentials, or refused the ones given: its `407` (to a request or
        /// to the `CONNECT` of a tunnel), or a SOCKS5 proxy's refusal of the user name and
        /// password. `proxy` names it (its URL without credentials); ``response`` is the
        /// proxy's answer when it was an HTTP one that reached us.
        case proxyAuthenticationRequired(proxy: String)
        /// Any other transport failure libcurl reported; see ``curlCode``.
        case transport
    }

    /// What went wrong.
    public var kind: Kind
    /// A one-line description, for people.
    public var message: String {
        get { storage.message }
        set { storageForWriting.message = newValue }
    }
    /// libcurl's result code (`CURLcode`), when libcurl reported the failure.
    public var curlCode: Int? {
        get { storage.curlCode }
        set { storageForWriting.curlCode = newValue }
    }
    /// libcurl's error-buffer text, when it had one.
    public var curlMessage: String? {
        get { storage.curlMessage }
        set { storageForWriting.curlMessage = newValue }
    }
    /// The response, when one arrived (status, headers, body).
    public var response: HTTPResponse? {
        get { storage.response }
        set { storageForWriting.response = newValue }
    }
    /// The coding path of a decoding failure, as `a.b[2].c`.
    public var codingPath: String? {
        get { storage.codingPath }
        set { storageForWriting.codingPath = newValue }
    }
    /// The error this one wraps: a `DecodingError`, a decoded error body, a POSIX error.
    public var underlyingError: (any Error & Sendable)? {
        get { storage.underlyingError }
        set { storageForWriting.underlyingError = newValue }
    }

    /// The other fields, in one copy-on-write box: inline they made the error about 300 bytes
    /// wide (the response alone is half of it), and with it every `Result<HTTPResponse,
    /// NetworkError>` the pipeline passes along a successful call, whose copies then went
    /// through `memcpy`. The kind stays inline: it is read on every failure.
    private var storage: Storage

    /// The box, copied first when another value shares it.
    private var storageForWriting: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
            return storage
        }
    }

    /// Makes an error.
    public init(_ kind: Kind, _ message: String, curlCode: Int? = nil, curlMessage: String? = nil,
                response: HTTPResponse? = nil, codingPath: String? = nil, underlyingError: (any Error & Sendable)? = nil) {
        self.kind = kind
        storage = Storage(message: message, curlCode: curlCode, curlMessage: curlMessage,
                          response: response, codingPath: codingPath, underlyingError: underlyingError)
    }

    /// The HTTP status code of the response, when one arrived.
    public var statusCode: Int? { response?.statusCode }

    /// Whether the failure happened in transport (no complete HTTP response): the failures
    /// `.networkFirst` falls back to the cache on, and the retry policy may retry.
    public var isTransportFailure: Bool {
        switch kind {
        case .dnsFailure, .cannotConnect, .tls, .timedOut, .connectionLost, .truncatedResponse,
             .invalidResponse, .transport:
            true
        default:
            false
        }
    }

    public var description: String {
        var text = message
        if let statusCode { text += " (HTTP \(statusCode))" }
        if let curlCode, let curlMessage, !curlMessage.isEmpty, !message.contains(curlMessage) {
            text += " [curl \(curlCode): \(curlMessage)]"
        }
        return text
    }

    public var debugDescription: String {
        "NetworkError(\(kind), \(description)\(codingPath.map { ", at \($0)" } ?? ""))"
    }
}

extension NetworkError {
    // Written only through `storageForWriting`, that is while no other error shares the box;
    // a shared box is only read, so handing errors across threads is safe.
    fileprivate final class Storage: @unchecked Sendable {
        var message: String
        var curlCode: Int?
        var curlMessage: String?
        var response: HTTPResponse?
        var codingPath: String?
        var underlyingError: (any Error & Sendable)?

        init(message: String, curlCode: Int?, curlMessage: String?, response: HTTPResponse?,
             codingPath: String?, underlyingError: (any Error & Sendable)?) {
            self.message = message
            self.curlCode = curlCode
            self.curlMessage = curlMessage
            self.response = response
            self.codingPath = codingPath
            self.underlyingError = underlyingError
        }

        convenience init(copying other: Storage) {
            self.init(message: other.message, curlCode: other.curlCode, curlMessage: other.curlMessage,
                      response: other.response, codingPath: other.codingPath, underlyingError: other.underlyingError)
        }
    }
}

extension NetworkError: LocalizedError {
    public var errorDescription: String? { description }
}

/// Errors compare by kind, message, libcurl code, response and coding path (not the underlying error).
extension NetworkError: Hashable {
    public static func == (lhs: NetworkError, rhs: NetworkError) -> Bool {
        lhs.kind == rhs.kind && lhs.message == rhs.message && lhs.curlCode == rhs.curlCode
            && lhs.response == rhs.response && lhs.codingPath == rhs.codingPath
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(message)
    }
}

extension NetworkError {
    /// `error` itself when it is a `NetworkError`; otherwise a `kind` error whose message is
    /// `context` and the error's description, with the response and the error as
    /// ``underlyingError`` — how a caller's plain throwing closure reports through the pipeline.
    package static func wrapping(_ error: any Error, as kind: Kind, _ context: String,
                                 response: HTTPResponse?) -> NetworkError {
        if let error = error as? NetworkError { return error }
        return NetworkError(kind, "\(context): \(error)", response: response, underlyingError: error)
    }
}
