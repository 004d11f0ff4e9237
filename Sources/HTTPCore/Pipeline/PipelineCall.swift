import Dispatch
import Foundation
import Synchronization

/// One call through the pipeline — the single place where the order of steps lives:
///
///     interceptors adapt → [hook: will send] → cache step (may deliver a stored copy)
///       → engine transfer [hook: progress] → interceptors decide about a retry → maybe again
///       → cache step stores what the plan's validation accepts
///       → plan: validate and decode on the callback queue → [hook: finished / failed] → deliver
///
/// Deliveries are at most two (the `.fileFirst` case) and the last one has `isFinal == true`;
/// anything a misbehaving step sends after the final delivery is dropped, so the caller's
/// closure runs exactly once (twice for a `.fileFirst` hit).
final class PipelineCall<Value>: Sendable {
    private let client: HTTPClient
    private let transport: any Transport
    let task: HTTPTask
    private let plan: ResponsePlan<Value>
    private let options: CallOptions
    /// The caller's callback queue; identical requests share a transfer only with the same one.
    private let callerQueue: DispatchQueue
    /// Where every block of this call runs, in the order it was posted (will-send, progress,
    /// the deliveries): the caller's queue when it is a library-made serial one, else a serial
    /// queue of this call that targets it — on a concurrent queue, blocks posted one by one may
    /// run in any order, or at once.
    private let queue: DispatchQueue
    private let hooks: [any HTTPHook]
    private let interceptors: [any RequestInterceptor]
    // The value may be a non-Sendable type (`Any` from JSON); it is made on the callback
    // queue and handed to the caller there, never shared, so the closure is @Sendable only
    // in the sense that it is called from that queue.
    private let deliver: @Sendable (Delivery<Value>) -> Void
    private let state = Mutex(PipelineCallState())

    init(client: HTTPClient, request: HTTPRequest, plan: ResponsePlan<Value>, options: CallOptions,
         deliver: @escaping @Sendable (Delivery<Value>) -> Void) {
        self.client = client
        self.transport = client.transport
        self.task = HTTPTask(originalRequest: request)
        self.plan = plan
        self.options = options
        let callerQueue = options.queue ?? client.callbackQueue
        self.callerQueue = callerQueue
        self.queue = client.transport.isCallbackQueue(callerQueue) ? callerQueue
            : DispatchQueue(label: "chain.call", target: callerQueue)
        self.hooks = (options.usesGlobalHooks ? Hooks.shared.all : []) + options.hooks
        self.interceptors = client.configuration.interceptors + options.interceptors
        self.deliver = deliver
    }

    func start() {
        armTotalTimeout()
        // Without interceptors there is nothing to adapt: skip the asynchronous step.
        guard !interceptors.isEmpty else {
            proceed(with: task.originalRequest)
            return
        }
        let original = task.originalRequest
        awaitStep(request: original, { [self] resume in adapt(original, then: resume) },
                  ended: { [self] error in finish(.failure(error), request: original, isFinal: true) }) { [self] result in
            switch result {
            case .failure(let error):
                finish(.failure(error), request: original, isFinal: true)
            case .success(let request):
                proceed(with: request)
            }
        }
    }

    /// Everything after adaptation: the cache step when there is one, else the transfer.
    private func proceed(with request: HTTPRequest) {
        guard let cache = options.cache else {
            transport(request, context: AttemptContext()) { [self] result, isOnQueue in
                finish(result, request: request, isFinal: true, isOnQueue: isOnQueue)
            }
            return
        }
        let plan = self.plan
        cache.run(request, isCacheable: { (try? plan.validate($0)) != nil },
                  network: { [self] request, done in
                      transport(request, context: AttemptContext()) { result, _ in done(result) }
                  },
                  deliver: { [self] result, isFinal in finish(result, request: request, isFinal: isFinal) })
    }

    // MARK: Steps

    /// Runs the interceptors' `adapt` in order.
    private func adapt(_ request: HTTPRequest, from index: Int = 0,
                       then next: @escaping @Sendable (Result<HTTPRequest, NetworkError>) -> Void) {
        guard index < interceptors.count else {
            next(.success(request))
            return
        }
        interceptors[index].adapt(request) { [self] result in
            switch result {
            case .success(let adapted): adapt(adapted, from: index + 1, then: next)
            case .failure(let error): next(.failure(error))
            }
        }
    }

    /// One transfer, then the retry decision; retries re-adapt the original request.
    ///
    /// `done` learns whether it runs on the callback queue: without interceptors the retry
    /// decision is immediate, so the transfer's completion (always on the queue) is the
    /// delivery's block and `finish` need not queue another one.
    private func transport(_ request: HTTPRequest, context: AttemptContext,
                           done: @escaping @Sendable (Result<HTTPResponse, NetworkError>, _ isOnQueue: Bool) -> Void) {
        openContextIfNeeded(for: request)
        if let stub = options.stub {
            let delay = stub.delay > 0 ? min(stub.delay, longestWait) : 0
            awaitStep(request: request, { resume in
                DispatchQueue.global().asyncAfter(deadline: .now() + delay) { resume(()) }
            }, ended: { error in done(.failure(error), false) }) {
                done(stub.error.map { .failure($0) } ?? .success(stub.response(for: request)), false)
            }
            return
        }
        let progress = makeProgressHandler()
        transport.start(request, task: task, queue: queue, sharingQueue: callerQueue,
                        coalesces: options.coalescesIdenticalRequests, progress: progress) { [self] result in
            let result = explained(result)
            guard !interceptors.isEmpty else {
                done(result, true)
                return
            }
            awaitStep(request: request, { [self] resume in decideRetry(request, result: result, context: context, then: resume) },
                      ended: { error in done(.failure(error), false) }) { [self] decision, index in
                switch decision {
                case .doNotRetry:
                    done(result, false)
                case .fail(let error):
                    done(.failure(error), false)
                case .retry(let delay):
                    // NaN and negative delays mean at once; a huge one waits until a cancel or the total timeout.
                    let delay = delay > 0 ? min(delay, longestWait) : 0
                    var next = context
                    next.recordRetry(by: index, of: interceptors.count, delay: delay)
                    retry(after: delay, context: next, done: done)
                }
            }
        }
    }

    /// Waits `delay`, adapts the original request again and sends it.
    private func retry(after delay: TimeInterval, context: AttemptContext,
                       done: @escaping @Sendable (Result<HTTPResponse, NetworkError>, _ isOnQueue: Bool) -> Void) {
        let original = task.originalRequest
        awaitStep(request: original, { resume in
            if delay > 0 {
                DispatchQueue.global().asyncAfter(deadline: .now() + delay) { resume(()) }
            } else {
                resume(())
            }
        }, ended: { error in done(.failure(error), false) }) { [self] in
            awaitStep(request: original, { [self] resume in adapt(original, then: resume) },
                      ended: { error in done(.failure(error), false) }) { [self] adapted in
                switch adapted {
                case .success(let request): transport(request, context: context, done: done)
                case .failure(let error): done(.failure(error), false)
                }
            }
        }
    }

    /// Runs `step`, something the call waits for that is not a transfer (an interceptor's
    /// answer, a retry delay, a stub's delay), so that a cancel or the total timeout ends the
    /// call at once through `ended` instead of when the wait is over. Whichever comes first
    /// wins; the other does nothing.
    private func awaitStep<T: Sendable>(request: HTTPRequest, _ step: (@escaping @Sendable (T) -> Void) -> Void,
                                        ended: @escaping @Sendable (NetworkError) -> Void,
                                        then resume: @escaping @Sendable (T) -> Void) {
        let claim = WaitClaim()
        let end: @Sendable () -> Void = { [task] in
            guard claim.claim() else { return }
            ended(task.stopError ?? NetworkError(.cancelled, "the request was cancelled"))
        }
        guard task.attach(request: request, cancel: end) else {
            end()
            return
        }
        step { value in
            guard claim.claim() else { return }
            resume(value)
        }
    }

    /// A transfer's result, with the reason the pipeline stopped the call in place of the
    /// transfer's own "cancelled" (the total timeout).
    private func explained(_ result: Result<HTTPResponse, NetworkError>) -> Result<HTTPResponse, NetworkError> {
        guard case .failure(let error) = result, error.kind == .cancelled, let stop = task.stopError else { return result }
        return .failure(stop)
    }

    /// Starts the timer of the request's total timeout, which covers the whole call: waiting
    /// behind the per-host cap, every attempt, retry delays and interceptors' waits. At the
    /// deadline it ends the call with ``NetworkError/Kind/timedOut`` wherever it is. 0 (the
    /// default), a negative or NaN value, and anything beyond ``longestWait`` mean no limit.
    private func armTotalTimeout() {
        let total = task.originalRequest.timeouts.total
        guard total > 0, total <= longestWait else { return }
        let error = NetworkError(.timedOut, "the call did not finish within its total timeout of \(total) s")
        let timer = CallTimer(after: total) { [task] in task.end(with: error) }
        state.withLock { $0.totalTimer = timer }
    }

    /// Asks the interceptors in order; the first that does not say `.doNotRetry` decides.
    /// Each is told how many retries it asked for itself, so one's retries never use up
    /// another's limit (a 503 retried by a policy, then a 401 for the token refresher).
    private func decideRetry(_ request: HTTPRequest, result: Result<HTTPResponse, NetworkError>, context: AttemptContext,
                             from index: Int = 0, then decide: @escaping @Sendable ((RetryDecision, by: Int)) -> Void) {
        if case .failure(let error) = result, error.kind == .cancelled {
            decide((.doNotRetry, by: index))
            return
        }
        guard index < interceptors.count else {
            decide((.doNotRetry, by: index))
            return
        }
        interceptors[index].retry(request, result: result, context: context.retryContext(for: index)) { [self] decision in
            if decision == .doNotRetry {
                decideRetry(request, result: result, context: context, from: index + 1, then: decide)
            } else {
                decide((decision, by: index))
            }
        }
    }

    /// Validates and decodes on the callback queue, tells the hooks, delivers.
    ///
    /// The hook pairing is decided here, synchronously, so it follows the order in which the
    /// steps report (the cache step never reports concurrently); the work itself is queued,
    /// unless the caller already runs on the callback queue (`isOnQueue`).
    private func finish(_ result: Result<HTTPResponse, NetworkError>, request: HTTPRequest, isFinal: Bool,
                        isOnQueue: Bool = false) {
        var timer: CallTimer?
        let pairing: (context: HookContext, needsAnnouncing: Bool)? = state.withLock { state in
            guard !state.isFinalDelivered else { return nil }
            if isFinal {
                state.isFinalDelivered = true
                timer = state.totalTimer.take()
            }
            if let open = state.openContext {
                state.openContext = nil
                return (open, false)
            }
            // A delivery with no transfer before it (a cache hit, a failed adaptation) opens its own pair.
            return (HookContext(id: PipelineIDs.next(), request: request, origin: options.origin), true)
        }
        timer?.cancel()
        guard let (context, needsAnnouncing) = pairing else { return }
        if isOnQueue {
            report(result, request: request, isFinal: isFinal, context: context, needsAnnouncing: needsAnnouncing)
            // This is the transfer's completion block: if the delivery sent another request,
            // stay awake for its completion instead of letting the thread park.
            transport.deliveryEnded()
        } else {
            queue.async { [self] in
                report(result, request: request, isFinal: isFinal, context: context, needsAnnouncing: needsAnnouncing)
            }
        }
    }

    /// The delivery itself, on the callback queue.
    private func report(_ result: Result<HTTPResponse, NetworkError>, request: HTTPRequest, isFinal: Bool,
                        context: HookContext, needsAnnouncing: Bool) {
        if needsAnnouncing { hooks.forEach { $0.willSend(context) } }
        let delivery = makeDelivery(result, request: request, isFinal: isFinal)
        switch delivery.result {
        case .success:
            if let response = delivery.response { hooks.forEach { $0.didFinish(context, response: response) } }
        case .failure(let error):
            hooks.forEach { $0.didFail(context, error: error) }
        }
        if isFinal { task.markCompleted(response: delivery.response) }
        deliver(delivery)
    }

    // Inlined into `report`, with `Delivery.init`: the front ends run this code unspecialised
    // (from other modules), where every function looked up `Result<Value, _>` and
    // `Delivery<Value>` metadata at run time on its own — five lookups per call, now two.
    @inline(__always)
    private func makeDelivery(_ result: Result<HTTPResponse, NetworkError>, request: HTTPRequest,
                              isFinal: Bool) -> Delivery<Value> {
        switch result {
        case .failure(let error):
            return Delivery(result: .failure(error), response: error.response, source: error.response?.source ?? .network,
                            isFinal: isFinal, request: request)
        case .success(let response):
            do throws(NetworkError) {
                try plan.validate(response)
                let value = try plan.decode(response)
                return Delivery(result: .success(value), response: response, source: response.source,
                                isFinal: isFinal, request: request)
            } catch {
                var error = error
                if error.response == nil { error.response = response }
                return Delivery(result: .failure(error), response: response, source: response.source,
                                isFinal: isFinal, request: request)
            }
        }
    }

    // MARK: Hook bookkeeping

    /// Opens a will-send/end pair for a transfer unless one is open (a retry keeps its pair).
    private func openContextIfNeeded(for request: HTTPRequest) {
        guard !hooks.isEmpty else { return }
        let context: HookContext? = state.withLock { state in
            guard state.openContext == nil, !state.isFinalDelivered else { return nil }
            let context = HookContext(id: PipelineIDs.next(), request: request, origin: options.origin)
            state.openContext = context
            return context
        }
        guard let context else { return }
        let hooks = self.hooks
        queue.async { hooks.forEach { $0.willSend(context) } }
    }

    private func makeProgressHandler() -> (@Sendable (TransferProgress) -> Void)? {
        let userProgress = options.progress
        guard userProgress != nil || !hooks.isEmpty else { return nil }
        let hooks = self.hooks
        return { [self] progress in
            userProgress?(progress)
            guard !hooks.isEmpty, let context = state.withLock({ $0.openContext }) else { return }
            hooks.forEach { $0.didProgress(context, progress: progress) }
        }
    }
}

/// What a ``PipelineCall`` changes as it runs. Outside the generic class on purpose: a type
/// nested in `PipelineCall<Value>` is generic too, and the front ends' calls (unspecialised,
/// from other modules) looked up its metadata, and its `Mutex`'s, at run time on every access.
private struct PipelineCallState {
    var isFinalDelivered = false
    var openContext: HookContext?
    /// The total timeout's timer, cancelled at the final delivery; `nil` without one.
    var totalTimer: CallTimer?
}

/// The longest wait the pipeline schedules, in seconds (about 31 years): a longer total
/// timeout is no limit (no timer is set); a longer retry or stub delay is cut to it, so it
/// lasts until a cancel or the total timeout ends it.
private let longestWait: TimeInterval = 1e9

/// The attempts of one call so far. Outside the generic class for the reason given on
/// ``PipelineCallState``.
private struct AttemptContext: Sendable {
    /// The attempt in flight, counting from 1.
    var attempt = 1
    /// Seconds waited in retry delays so far.
    var totalDelay: TimeInterval = 0
    /// The retries each interceptor asked for, by its index; empty until the first retry.
    var retries: [Int] = []

    /// What the interceptor at `index` is told about the attempt that just finished.
    func retryContext(for index: Int) -> RetryContext {
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

/// Call identifiers for hook contexts, unique per process.
enum PipelineIDs {
    static let counter = Atomic<UInt64>(0)

    static func next() -> UInt64 {
        counter.add(1, ordering: .relaxed).newValue
    }
}
