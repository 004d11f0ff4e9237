import Foundation

/// Adapts requests before they are sent and decides about retries — Alamofire's
/// `RequestInterceptor`, OkHttp's application interceptors.
///
/// Both methods have defaults (pass the request through; never retry). Interceptors run in
/// order: global ones (``HTTPClient/interceptors``) first, then the request's own. Their
/// completions may be called from any thread, later (a token refresh, say), but exactly once.
public protocol RequestInterceptor: Sendable {
    /// Changes the request before it is sent (an auth header, common parameters, a signature),
    /// or fails it. Called before every attempt, retries included, so a refreshed token is used.
    func adapt(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPRequest, NetworkError>) -> Void)

    /// Decides whether a finished attempt should be retried. `result` is the attempt's outcome:
    /// a response of any status (so a 503 or a 401 can be retried) or a transport error.
    /// `attempt` counts from 1 for the first try.
    func retry(_ request: HTTPRequest, result: Result<HTTPResponse, NetworkError>, attempt: Int,
               completion: @escaping @Sendable (RetryDecision) -> Void)
}

extension RequestInterceptor {
    /// Passes the request through unchanged.
    public func adapt(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPRequest, NetworkError>) -> Void) {
        completion(.success(request))
    }

    /// Never retries.
    public func retry(_ request: HTTPRequest, result: Result<HTTPResponse, NetworkError>, attempt: Int,
                      completion: @escaping @Sendable (RetryDecision) -> Void) {
        completion(.doNotRetry)
    }
}

/// What an interceptor decided about a finished attempt.
public enum RetryDecision: Sendable, Hashable {
    /// Deliver the attempt's result.
    case doNotRetry
    /// Send the request again after the delay (seconds, 0 for at once).
    case retry(after: TimeInterval)
    /// Fail the call with this error instead (a failed token refresh, say).
    case fail(NetworkError)
}
