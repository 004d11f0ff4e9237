import Foundation
import HTTPCore
import Synchronization

/// Adds a bearer token to requests and, when the server answers 401, refreshes it — exactly
/// one refresh at a time while the other requests wait — then replays them with the new token.
///
/// A request that fails with 401 although it carried the newest token triggers a refresh;
/// one that carried an older token (a refresh finished meanwhile) is replayed at once. Each
/// call is replayed at most ``maximumReplays`` times (default 1, counted apart from other
/// interceptors' retries), so a server that keeps answering 401 ends in that 401, not a loop.
/// A failed refresh fails every waiting call with the refresh's error, its message prefixed
/// with "the token refresh failed". Without a token (`token: nil`) the first request waits
/// for a refresh before it is sent.
///
/// The refresh may send its request through a client or configuration that has this very
/// refresher: a request started from inside the `refresh` closure (synchronously, as
/// `Request.url(…).response { … }` does) neither waits for the refresh nor is replayed on a
/// 401 — its 401 is the refresh's failure.
public final class TokenRefresher: RequestInterceptor {
    /// Fetches a new token; call the completion exactly once, from any thread.
    public typealias Refresh = @Sendable (_ completion: @escaping @Sendable (Result<String, NetworkError>) -> Void) -> Void

    private struct State {
        var token: String?
        var isRefreshing = false
        var waitingAdapts: [@Sendable (Result<Void, NetworkError>) -> Void] = []
        var waitingRetries: [@Sendable (Result<Void, NetworkError>) -> Void] = []
        /// The method and URL of each request the running refresh sent itself.
        var refreshRequests: [RefreshRequest] = []
    }

    /// What identifies a request the refresh sent: its 401 reaches ``retry(_:result:context:completion:)``
    /// after interceptors may have changed its headers, never its method and URL.
    private struct RefreshRequest: Equatable {
        let method: HTTPMethod
        let url: URL
    }

    /// The refresher whose `refresh` closure the current thread (or task) is running.
    @TaskLocal private static var refreshingOnThisThread: ObjectIdentifier?

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
    ///   - maximumReplays: default 1; 0 or less never replays.
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
        let apply: @Sendable (Result<Void, NetworkError>) -> Void = { [self] outcome in
            switch outcome {
            case .failure(let error):
                completion(.failure(error))
            case .success:
                var adapted = request
                if let token = state.withLock({ $0.token }) { adapted.headers[headerName] = prefix + token }
                completion(.success(adapted))
            }
        }
        // The common case, a token and no refresh running, reads no task-local value.
        let isReady = state.withLock { !$0.isRefreshing && $0.token != nil }
        if isReady {
            apply(.success(()))
            return
        }
        let isFromRefresh = TokenRefresher.refreshingOnThisThread == ObjectIdentifier(self)
        enum Action { case sendNow, wait, startRefresh }
        let action = state.withLock { state -> Action in
            if state.isRefreshing {
                guard !isFromRefresh else {
                    state.refreshRequests.append(RefreshRequest(method: request.method, url: request.url))
                    return .sendNow
                }
                state.waitingAdapts.append(apply)
                return .wait
            }
            guard state.token == nil else { return .sendNow }
            state.isRefreshing = true
            state.waitingAdapts.append(apply)
            return .startRefresh
        }
        switch action {
        case .sendNow: apply(.success(()))
        case .wait: break
        case .startRefresh: startRefresh()
        }
    }

    public func retry(_ request: HTTPRequest, result: Result<HTTPResponse, NetworkError>, context: RetryContext,
                      completion: @escaping @Sendable (RetryDecision) -> Void) {
        guard case .success(let response) = result, response.statusCode == 401,
              context.retriesRequested < maximumReplays else {
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
        enum Action { case deliver, replayNow, wait, startRefresh }
        let sent = RefreshRequest(method: request.method, url: request.url)
        let action = state.withLock { state -> Action in
            if state.isRefreshing {
                // The refresh's own request: waiting for the refresh would wait for itself.
                if state.refreshRequests.contains(sent) { return .deliver }
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
        case .deliver: completion(.doNotRetry)
        case .replayNow: completion(.retry(after: 0))
        case .wait: break
        case .startRefresh: startRefresh()
        }
    }

    private func startRefresh() {
        // Marks what the closure starts synchronously as the refresh's own (see the type's documentation).
        TokenRefresher.$refreshingOnThisThread.withValue(ObjectIdentifier(self)) {
            refresh { [self] result in
                let (adapts, retries) = state.withLock { state in
                    if case .success(let token) = result { state.token = token }
                    state.isRefreshing = false
                    state.refreshRequests.removeAll()
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
                adapts.forEach { $0(outcome) }
            }
        }
    }
}
