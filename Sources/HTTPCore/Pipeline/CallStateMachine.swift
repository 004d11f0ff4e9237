import Foundation

/// The stages of one call through the pipeline, as a value: events in, one action out. It does
/// no I/O, touches no queue and reads no clock (the delays it schedules are given to it), so
/// every transition is tested on its own; ``PipelineCall`` performs the actions and feeds the
/// outcomes back as events.
///
///     idle ─start─▶ adapting ─adapted─▶ [cacheStep ─networkRequested─▶] transferring | stubbing
///     transferring ─transferFinished(a followed 3xx)─▶ redirecting ─redirectDecided(next)─▶
///         adapting (the hop) ─adapted─▶ transferring …
///     transferring ─transferFinished─▶ askingRetriers ─retryDecided(retry)─▶ waitingToRetry
///     waitingToRetry ─retryTimerFired─▶ adapting (again) ─adapted─▶ transferring …
///     the network's end ─▶ handedToCache (with a cache step) | finished (a final delivery)
///     cacheStep / handedToCache ─cacheDelivered(final)─▶ finished
///
/// A request that could not be built starts straight into a final delivery of its error (the
/// hooks still see it); a stub or the responders answer the transfer step instead of the
/// transport. A redirect the request's ``RedirectPolicy`` follows is a loop inside the network step: each hop is
/// adapted and sent like an attempt, the hops are counted against the policy's maximum, and
/// the attempt's result (what the retriers and the cache step see) is the last hop's, with
/// the hops in ``HTTPResponse/redirects`` and their times in its timings. A retry starts the
/// chain again from the first request. Whatever
/// comes in a state that does not expect it is answered with ``Action/ignore`` — a second
/// answer of an interceptor, a timer that fires after a cancel, anything after the final
/// delivery — so the caller's closure runs exactly once (twice for a `.fileFirst` hit).
///
/// ``Event/stopped(_:)`` (a cancel or the total timeout) is handled in every state: during a
/// wait (an interceptor, a retry delay, a stub's delay, the cache step) the call fails at once;
/// during a transfer the transport's own cancel ends it, and its result carries the error.
package struct CallStateMachine: Sendable {
    /// What answers the transfer step.
    package enum Answer: Sendable, Hashable {
        /// The transport (libcurl).
        case transport
        /// The call's ``Stub``, after its delay, or its ``TransferResponder``s (which may still
        /// hand the request to the transport): a cancel ends the wait at once.
        case stub
        /// Nothing: the request could not be built; the call fails with this error.
        case unbuildable(NetworkError)
    }

    /// Where the call is.
    package enum State: Sendable, Hashable {
        /// Not started.
        case idle
        /// The interceptors adapt the request: before the first send (`isFirstSend`, which
        /// goes on to the cache step), or before a retry or a redirect hop (straight to the transfer).
        case adapting(isFirstSend: Bool)
        /// The cache step holds the call (a lookup) and has not asked for the network.
        case cacheStep
        /// The transport carries the request.
        case transferring(HTTPRequest)
        /// The stub's (or the responders') answer is awaited.
        case stubbing(HTTPRequest)
        /// The pipeline works out the next hop of the redirect `response` to `request`.
        /// Boxed, as ``askingRetriers``.
        indirect case redirecting(HTTPRequest, HTTPResponse)
        /// The interceptors decide about a retry of `result`. Boxed: only calls with
        /// interceptors get here, and inline the result would make every state (and every
        /// copy of the machine) hundreds of bytes wide.
        indirect case askingRetriers(HTTPRequest, Result<HTTPResponse, NetworkError>)
        /// A retry's delay runs.
        case waitingToRetry
        /// The network's result went back to the cache step, whose delivery is awaited.
        case handedToCache
        /// The final delivery is decided; every later event is ignored.
        case finished
    }

    /// What happened.
    package enum Event: Sendable {
        /// The call begins.
        case start
        /// The interceptors adapted the request.
        case adapted(HTTPRequest)
        /// An interceptor failed the request.
        case adaptFailed(NetworkError)
        /// The cache step asks for the network with this request.
        case networkRequested(HTTPRequest)
        /// The transfer (or the stub) answered.
        case transferFinished(Result<HTTPResponse, NetworkError>)
        /// The pipeline worked out the redirect's next hop: the request to send, or `nil` when
        /// a handler stopped (the redirect response is the attempt's result).
        case redirectDecided(next: HTTPRequest?)
        /// The redirect's next hop could not be made (a `Location` that is no URL, a scheme
        /// that is not followed): the attempt fails with this error.
        case redirectFailed(NetworkError)
        /// The interceptor at `index` decided (`.doNotRetry` when none wanted a retry).
        case retryDecided(RetryDecision, by: Int)
        /// A retry's delay is over.
        case retryTimerFired
        /// The cache step delivers: a stored copy first (`isFinal == false`), or the final result.
        case cacheDelivered(Result<HTTPResponse, NetworkError>, isFinal: Bool)
        /// The call was cancelled, or its total timeout passed: the error says which.
        case stopped(NetworkError)
    }

    /// What to do next.
    package enum Action: Sendable, Hashable {
        /// Nothing: the event does not apply to the state.
        case ignore
        /// Run the interceptors' `adapt` on the request, in order.
        case runAdapters(HTTPRequest)
        /// Hand the adapted request to the cache step.
        case runCacheStep(HTTPRequest)
        /// Send the request through the transport (and tell the hooks it is sent).
        case startTransfer(HTTPRequest)
        /// Answer the transfer step with the stub (and tell the hooks it is sent).
        case answerFromStub(HTTPRequest)
        /// Work out the next hop after the redirect `response` to `request` (the policy's
        /// handler included), then report ``Event/redirectDecided(next:)`` or ``Event/redirectFailed(_:)``.
        case followRedirect(HTTPRequest, response: HTTPResponse, history: [HTTPRedirect])
        /// Ask the interceptors in order about a retry of `result`.
        case askRetriers(HTTPRequest, result: Result<HTTPResponse, NetworkError>, attempts: AttemptContext)
        /// Wait `seconds`, then report ``Event/retryTimerFired``.
        case scheduleRetry(after: TimeInterval)
        /// Validate a network response on the callback queue, then hand the result to the cache step.
        case returnToCache(Result<HTTPResponse, NetworkError>)
        /// Validate and decode on the callback queue, tell the hooks, deliver.
        case deliver(Result<HTTPResponse, NetworkError>, request: HTTPRequest, isFinal: Bool)
        /// The transport carries the call: its own cancel, attached to the task, ends the transfer.
        case cancelTransfer
    }

    /// The longest wait the machine schedules, in seconds (about 31 years): a longer retry or
    /// stub delay is cut to it, so it lasts until a cancel or the total timeout ends it.
    package static let longestWait: TimeInterval = 1e9

    /// Where the call is; ``State/idle`` until ``Event/start``.
    package private(set) var state: State = .idle
    /// The request as the caller made it; retries adapt it again.
    private let original: HTTPRequest
    private let interceptorCount: Int
    private let usesCache: Bool
    private let answer: Answer
    /// The request of the deliveries: the first adaptation's (the original until then).
    private var sent: HTTPRequest
    /// The attempts so far, for the retriers.
    package private(set) var attempts = AttemptContext()
    /// Whether the cache step asked for the network: its end then goes back to the cache step.
    private var isNetworkForCache = false
    /// Why the call was stopped during a transfer, for the transfer's result.
    private var stopError: NetworkError?
    /// The redirects followed in this attempt, oldest first, and what those hops cost.
    package private(set) var hops: [HTTPRedirect] = []
    private var hopsTime: TimeInterval = 0
    private var hopsConnections = 0

    /// Makes the machine of one call.
    package init(request: HTTPRequest, interceptorCount: Int, usesCache: Bool, answer: Answer) {
        original = request
        sent = request
        self.interceptorCount = interceptorCount
        self.usesCache = usesCache
        self.answer = answer
    }

    /// Moves on with `event` and says what to do.
    package mutating func handle(_ event: Event) -> Action {
        switch event {
        case .start: start()
        case .adapted(let request): adapted(request)
        case .adaptFailed(let error): adaptFailed(error)
        case .networkRequested(let request): networkRequested(request)
        case .transferFinished(let result): transferFinished(result)
        case .redirectDecided(let next): redirectDecided(next)
        case .redirectFailed(let error): redirectFailed(error)
        case .retryDecided(let decision, let index): retryDecided(decision, by: index)
        case .retryTimerFired: retryTimerFired()
        case .cacheDelivered(let result, let isFinal): cacheDelivered(result, isFinal: isFinal)
        case .stopped(let error): stopped(error)
        }
    }

    private mutating func start() -> Action {
        guard state == .idle else { return .ignore }
        if case .unbuildable(let error) = answer { return finish(.failure(error)) }
        if interceptorCount > 0 {
            state = .adapting(isFirstSend: true)
            return .runAdapters(original)
        }
        return afterAdapting(original)
    }

    private mutating func adapted(_ request: HTTPRequest) -> Action {
        guard case .adapting(let isFirstSend) = state else { return .ignore }
        guard isFirstSend else { return beginTransfer(request) }
        return afterAdapting(request)
    }

    private mutating func afterAdapting(_ request: HTTPRequest) -> Action {
        sent = request
        guard usesCache else { return beginTransfer(request) }
        state = .cacheStep
        return .runCacheStep(request)
    }

    private mutating func adaptFailed(_ error: NetworkError) -> Action {
        guard case .adapting(let isFirstSend) = state else { return .ignore }
        return isFirstSend ? finish(.failure(error)) : attemptEnded(.failure(error))
    }

    private mutating func networkRequested(_ request: HTTPRequest) -> Action {
        switch state {
        case .cacheStep where !isNetworkForCache:
            isNetworkForCache = true
            return beginTransfer(request)
        case .finished:
            // Stopped during the lookup: the cache step still gets an answer, so it ends too.
            return .returnToCache(.failure(stopError ?? NetworkError(.cancelled, "the request was cancelled")))
        default:
            return .ignore
        }
    }

    private mutating func beginTransfer(_ request: HTTPRequest) -> Action {
        if answer == .stub {
            state = .stubbing(request)
            return .answerFromStub(request)
        }
        state = .transferring(request)
        return .startTransfer(request)
    }

    private mutating func transferFinished(_ result: Result<HTTPResponse, NetworkError>) -> Action {
        let request: HTTPRequest
        switch state {
        case .transferring(let sending), .stubbing(let sending): request = sending
        default: return .ignore
        }
        if let stopError {
            guard case .failure = result else { return networkEnded(withHops(result)) }
            return networkEnded(withHops(.failure(stopError)))
        }
        if case .success(let response) = result, let maximum = request.redirectPolicy.maximumHops,
           RedirectPolicy.follows(response.statusCode), response.headers.contains("Location") {
            guard hops.count < maximum else {
                let error = NetworkError(.tooManyRedirects, "more redirects than allowed (\(max(0, maximum)))",
                                         response: response)
                return attemptEnded(.failure(error), by: request)
            }
            state = .redirecting(request, response)
            return .followRedirect(request, response: response, history: hops)
        }
        return attemptEnded(result, by: request)
    }

    private mutating func redirectDecided(_ next: HTTPRequest?) -> Action {
        guard case .redirecting(let request, let response) = state else { return .ignore }
        guard let next else { return attemptEnded(.success(response), by: request) }
        hops.append(HTTPRedirect(url: response.url, statusCode: response.statusCode))
        hopsTime += response.timings.total
        hopsConnections += response.timings.newConnections
        guard interceptorCount > 0 else { return beginTransfer(next) }
        state = .adapting(isFirstSend: false)
        return .runAdapters(next)
    }

    private mutating func redirectFailed(_ error: NetworkError) -> Action {
        guard case .redirecting(let request, _) = state else { return .ignore }
        return attemptEnded(.failure(error), by: request)
    }

    /// An attempt's transfers are over (its redirects followed): the retriers decide, when
    /// there are any; `request` is the last hop's (`nil`: an adaptation before a hop failed).
    private mutating func attemptEnded(_ result: Result<HTTPResponse, NetworkError>,
                                       by request: HTTPRequest? = nil) -> Action {
        let result = withHops(result)
        // A cancelled transfer is never retried: the caller asked for the end.
        guard interceptorCount > 0, let request else { return networkEnded(result) }
        if case .failure(let error) = result, error.kind == .cancelled { return networkEnded(result) }
        state = .askingRetriers(request, result)
        return .askRetriers(request, result: result, attempts: attempts)
    }

    /// `result` with the attempt's redirects: in the response's ``HTTPResponse/redirects``, and
    /// their times in its timings (`redirect` sums the earlier hops, `total` adds them, the
    /// phases are the last hop's, as libcurl reports a chain it follows).
    private func withHops(_ result: Result<HTTPResponse, NetworkError>) -> Result<HTTPResponse, NetworkError> {
        guard !hops.isEmpty else { return result }
        func merged(_ response: HTTPResponse) -> HTTPResponse {
            var response = response
            response.redirects = hops
            response.timings.redirect += hopsTime
            response.timings.total += hopsTime
            response.timings.newConnections += hopsConnections
            response.timings.redirectCount = hops.count
            return response
        }
        switch result {
        case .success(let response):
            return .success(merged(response))
        case .failure(var error):
            if let response = error.response { error.response = merged(response) }
            return .failure(error)
        }
    }

    private mutating func retryDecided(_ decision: RetryDecision, by index: Int) -> Action {
        guard case .askingRetriers(_, let result) = state else { return .ignore }
        switch decision {
        case .doNotRetry:
            return networkEnded(result)
        case .fail(let error):
            return networkEnded(.failure(error))
        case .retry(let delay):
            // NaN and negative delays mean at once; a huge one waits until a cancel or the total timeout.
            let delay = delay > 0 ? min(delay, Self.longestWait) : 0
            attempts.recordRetry(by: index, of: interceptorCount, delay: delay)
            guard delay > 0 else { return retryTimerFiredNow() }
            state = .waitingToRetry
            return .scheduleRetry(after: delay)
        }
    }

    private mutating func retryTimerFired() -> Action {
        guard state == .waitingToRetry else { return .ignore }
        return retryTimerFiredNow()
    }

    private mutating func retryTimerFiredNow() -> Action {
        // A retry starts a redirect chain again from the first request.
        hops = []
        hopsTime = 0
        hopsConnections = 0
        state = .adapting(isFirstSend: false)
        return .runAdapters(original)
    }

    /// The network step is over (after its retries): back to the cache step, or the end.
    private mutating func networkEnded(_ result: Result<HTTPResponse, NetworkError>) -> Action {
        guard isNetworkForCache else { return finish(result) }
        state = .handedToCache
        return .returnToCache(result)
    }

    private mutating func cacheDelivered(_ result: Result<HTTPResponse, NetworkError>, isFinal: Bool) -> Action {
        guard usesCache, state != .finished, state != .idle else { return .ignore }
        guard isFinal else { return .deliver(result, request: sent, isFinal: false) }
        return finish(result)
    }

    private mutating func stopped(_ error: NetworkError) -> Action {
        switch state {
        case .finished:
            return .ignore
        case .transferring:
            stopError = error
            return .cancelTransfer
        case .idle, .adapting, .cacheStep, .stubbing, .redirecting, .askingRetriers, .waitingToRetry, .handedToCache:
            // A wait ends at once: whatever it waited for is ignored when it comes.
            stopError = error
            return finish(.failure(error))
        }
    }

    private mutating func finish(_ result: Result<HTTPResponse, NetworkError>) -> Action {
        state = .finished
        return .deliver(result, request: sent, isFinal: true)
    }
}

/// The attempts of one call so far.
package struct AttemptContext: Sendable, Hashable {
    /// The attempt in flight, counting from 1.
    package var attempt = 1
    /// Seconds waited in retry delays so far.
    package var totalDelay: TimeInterval = 0
    /// The retries each interceptor asked for, by its index; empty until the first retry.
    package var retries: [Int] = []

    /// The context of a first attempt: attempt 1, no delay, no retries.
    package init() {}

    /// What the interceptor at `index` is told about the attempt that just finished.
    package func retryContext(for index: Int) -> RetryContext {
        RetryContext(attempt: attempt, totalDelay: totalDelay, retriesRequested: index < retries.count ? retries[index] : 0)
    }

    /// Counts a retry the interceptor at `index` of `count` asked for, after `delay` seconds.
    mutating func recordRetry(by index: Int, of count: Int, delay: TimeInterval) {
        if retries.isEmpty { retries = Array(repeating: 0, count: count) }
        if index < retries.count { retries[index] += 1 }
        attempt += 1
        totalDelay += delay
    }
}
