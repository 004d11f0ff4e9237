import Foundation
import Synchronization

/// Adds a bearer token to requests and, when the server answers 401, refreshes it — exactly
/// one refresh at a time while the other requests wait — then replays them with the new token.
///
/// A request that fails with 401 although it carried the newest token triggers a refresh;
/// one that carried an older token (a refresh finished meanwhile) is replayed at once. Each
/// call is replayed at most ``maximumReplays`` times (default 1), so a server that keeps
/// answering 401 ends in that 401, not a loop. A failed refresh fails every waiting call with
/// the refresh's error, its message prefixed with "the token refresh failed".
public final class TokenRefresher: RequestInterceptor {
    /// Fetches a new token; call the completion exactly once, from any thread.
    public typealias Refresh = @Sendable (_ completion: @escaping @Sendable (Result<String, NetworkError>) -> Void) -> Void

    private struct State {
        var token: String?
        var isRefreshing = false
        var waitingAdapts: [@Sendable () -> Void] = []
        var waitingRetries: [@Sendable (Result<Void, NetworkError>) -> Void] = []
    }

    /// The header the token goes into. Default `Authorization`.
    public let headerName: String
    /// What precedes the token in the header. Default `"Bearer "`.
    public let prefix: String
    /// How often one call is replayed after a 401. Default 1.
    public let maximumReplays: Int
    private let refresh: Refresh
    private let state: Mutex<State>

    /// Makes a refresher.
    /// - Parameters:
    ///   - token: the current token, or `nil` to fetch one before the first request.
    ///   - headerName: default `Authorization`.
    ///   - prefix: default `"Bearer "`.
    ///   - maximumReplays: default 1.
    ///   - refresh: fetches a new token.
    public init(token: String?, headerName: String = "Authorization", prefix: String = "Bearer ",
                maximumReplays: Int = 1, refresh: @escaping Refresh) {
        self.headerName = headerName
        self.prefix = prefix
        self.maximumReplays = maximumReplays
        self.refresh = refresh
        self.state = Mutex(State(token: token))
    }

    /// The current token.
    public var token: String? { state.withLock { $0.token } }

    public func adapt(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPRequest, NetworkError>) -> Void) {
        let apply: @Sendable () -> Void = { [self] in
            var adapted = request
            if let token = state.withLock({ $0.token }) { adapted.headers[headerName] = prefix + token }
            completion(.success(adapted))
        }
        let mustWait = state.withLock { state -> Bool in
            guard state.isRefreshing else { return false }
            state.waitingAdapts.append(apply)
            return true
        }
        if !mustWait { apply() }
    }

    public func retry(_ request: HTTPRequest, result: Result<HTTPResponse, NetworkError>, context: RetryContext,
                      completion: @escaping @Sendable (RetryDecision) -> Void) {
        guard case .success(let response) = result, response.statusCode == 401, context.attempt <= maximumReplays else {
            completion(.doNotRetry)
            return
        }
        let sentToken = request.headers[headerName]
        let resume: @Sendable (Result<Void, NetworkError>) -> Void = { outcome in
            switch outcome {
            case .success: completion(.retry(after: 0))
            case .failure(let error): completion(.fail(error))
            }
        }
        enum Action { case replayNow, wait, startRefresh }
        let action = state.withLock { state -> Action in
            if state.isRefreshing {
                state.waitingRetries.append(resume)
                return .wait
            }
            let current = state.token.map { prefix + $0 }
            if current != nil, current != sentToken { return .replayNow }  // refreshed since it was sent
            state.isRefreshing = true
            state.waitingRetries.append(resume)
            return .startRefresh
        }
        switch action {
        case .replayNow: completion(.retry(after: 0))
        case .wait: break
        case .startRefresh: startRefresh()
        }
    }

    private func startRefresh() {
        refresh { [self] result in
            let (adapts, retries) = state.withLock { state in
                if case .success(let token) = result { state.token = token }
                state.isRefreshing = false
                defer {
                    state.waitingAdapts.removeAll()
                    state.waitingRetries.removeAll()
                }
                return (state.waitingAdapts, state.waitingRetries)
            }
            let outcome: Result<Void, NetworkError> = result.map { _ in () }.mapError { error in
                var failure = error
                failure.message = "the token refresh failed: \(error.message)"
                return failure
            }
            retries.forEach { $0(outcome) }
            adapts.forEach { $0() }
        }
    }
}
