import Foundation

/// Adapts requests before they are sent and decides about retries — Alamofire's
/// `RequestInterceptor`, OkHttp's application interceptors.
///
/// Both methods have defaults (pass the request through; never retry). Interceptors run in
/// order: global ones (``HTTPClient/Configuration/interceptors``) first, then the request's own. Their
/// completions may be called from any thread, later (a token refresh, say), but exactly once.
public protocol RequestInterceptor: Sendable {
    /// Changes the request before it is sent (an auth header, common parameters, a signature),
    /// or fails it. Called before every attempt, retries included, so a refreshed token is used.
    func adapt(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPRequest, NetworkError>) -> Void)

    /// Decides whether a finished attempt should be retried. `result` is the attempt's outcome:
    /// a response of any status (so a 503 or a 401 can be retried) or a transport error.
    /// `context` says which attempt this was, how long the call has waited between attempts,
    /// and how many retries this interceptor asked for so far (count those against a limit:
    /// ``RetryContext/attempt`` also counts the retries other interceptors asked for).
    func retry(_ request: HTTPRequest, result: Result<HTTPResponse, NetworkError>, context: RetryContext,
               completion: @escaping @Sendable (RetryDecision) -> Void)
}

extension RequestInterceptor {
    /// Passes the request through unchanged.
    public func adapt(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPRequest, NetworkError>) -> Void) {
        completion(.success(request))
    }

    /// Never retries.
    public func retry(_ request: HTTPRequest, result: Result<HTTPResponse, NetworkError>, context: RetryContext,
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

/// Where a call stands when an interceptor is asked about a retry.
public struct RetryContext: Sendable, Hashable {
    /// The attempt that just finished, counting from 1 for the first try — every attempt of
    /// the call, whichever interceptor asked for the retries before it.
    public var attempt: Int
    /// Seconds the call has already waited in retry delays.
    public var totalDelay: TimeInterval
    /// The retries the interceptor being asked has itself asked for in this call: 0 before its
    /// first. Each interceptor has its own count, so a retry policy's retries of a 503 do not
    /// use up a token refresher's replay, nor the other way round.
    public var retriesRequested: Int

    /// Makes a context; `retriesRequested` defaults to 0.
    public init(attempt: Int, totalDelay: TimeInterval, retriesRequested: Int = 0) {
        self.attempt = attempt
        self.totalDelay = totalDelay
        self.retriesRequested = retriesRequested
    }
}
