import Dispatch
import Foundation
import Synchronization

/// One call through the pipeline: the executor of its ``CallStateMachine``. The machine decides
/// the order of steps; this class performs each action (I/O, queues, hooks) and feeds the
/// outcome back as the next event. Where each step runs:
///
///     step                               thread or queue
///     ─────────────────────────────────  ──────────────────────────────────────────────────
///     start (first action)               the caller's thread (`HTTPClient.perform`)
///     interceptors' adapt / retry        the thread that fed the event before; their answer
///                                        comes back on any thread
///     cache step: lookup, store          the store's serial queue
///     transfer                           the transport (libcurl's loop thread); its
///                                        completion on the call's queue
///     redirect: next hop, handler         the call's queue
///     cookie jar: lookup, store          the thread of the step before a send; the
///                                        transfer's completion
///     stub's answer, retry delay         a global queue, after the delay
///     responders (stub table, cassette)  the thread that fed the event before (the caller's,
///                                        a retry timer's, the call's queue after a redirect);
///                                        after a proceed, the call's queue — a responder must
///                                        not block there; their answer comes back on any thread
///     validate (once) and decode         the call's queue
///     hooks: willSend, progress, end     the call's queue (progress: the transport's queue)
///     deliver                            the call's queue
///     cancel, total timeout              any thread (the total timeout: a global queue)
///
/// "The call's queue" is the caller's callback queue when it is a library-made serial one,
/// else a serial queue of this call that targets it. Deliveries are at most two (the
/// `.fileFirst` case) and the last one has `isFinal == true`; the machine ignores whatever a
/// misbehaving step sends after the final delivery, so the caller's closure runs exactly once
/// (twice for a `.fileFirst` hit).
final class PipelineCall<Value>: Sendable {
    let transport: any Transport
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
    let hooks: [any HTTPHook]
    let interceptors: [any RequestInterceptor]
    let cookies: (any CookieStorage)?
    // The value may be a non-Sendable type (`Any` from JSON); it is made on the callback
    // queue and handed to the caller there, never shared, so the closure is @Sendable only
    // in the sense that it is called from that queue.
    private let deliver: @Sendable (Delivery<Value>) -> Void
    let state: Mutex<PipelineCallState>
    /// The machine's answer to ``CallStateMachine/Event/start``, worked out in `init` where
    /// nothing else can reach the call yet, so starting takes no lock.
    private let firstAction: CallStateMachine.Action
    private let firstPrepared: PreparedAction

    init(client: HTTPClient, request: HTTPRequest, unbuildable: NetworkError? = nil, plan: ResponsePlan<Value>,
         options: CallOptions, deliver: @escaping @Sendable (Delivery<Value>) -> Void) {
        self.transport = client.transport
        self.task = HTTPTask(originalRequest: request)
        self.plan = plan
        self.options = options
        let callerQueue = options.queue ?? client.callbackQueue
        self.callerQueue = callerQueue
        self.queue = client.isTransportsCallbackQueue(callerQueue) ? callerQueue
            : DispatchQueue(label: "chain.call", target: callerQueue)
        let hooks = joined(options.usesGlobalHooks ? Hooks.shared.all : [], options.hooks)
        self.hooks = hooks
        // A request that was never built is not adapted: there is nothing to adapt.
        let interceptors = unbuildable == nil ? joined(client.configuration.interceptors, options.interceptors) : []
        self.interceptors = interceptors
        let cookies = unbuildable == nil ? options.cookies : nil
        self.cookies = cookies
        self.deliver = deliver
        // Without interceptors the jar's cookies go in here, once; with them, after their
        // adaptation (``adapt(_:from:)``), so that a retry sends the jar's cookies of its time.
        var request = request
        if let cookies, interceptors.isEmpty { request = request.addingCookies(from: cookies) }
        let standsIn = options.stub != nil || !options.responders.isEmpty
        let answer: CallStateMachine.Answer = unbuildable.map { .unbuildable($0) } ?? (standsIn ? .stub : .transport)
        var machine = CallStateMachine(request: request, interceptorCount: interceptors.count,
                                       usesCache: unbuildable == nil && options.cache != nil, answer: answer)
        let firstAction = machine.handle(.start)
        var state = PipelineCallState(machine: consume machine)
        self.firstPrepared = state.prepare(firstAction, hooks: hooks, origin: options.origin)
        self.firstAction = firstAction
        self.state = Mutex(consume state)
    }

    func start() {
        armTotalTimeout()
        perform(firstAction, prepared: firstPrepared, isOnQueue: false)
    }

    // MARK: Events

    /// Feeds one event to the machine and performs its action. `isOnQueue`: the caller runs on
    /// the call's queue (a transfer's completion block), where the delivery need not queue
    /// another block.
    func handle(_ event: CallStateMachine.Event, isOnQueue: Bool = false) {
        let (action, prepared) = state.withLock { state in
            let action = state.machine.handle(event)
            let prepared = state.prepare(action, hooks: hooks, origin: options.origin)
            return (consume action, prepared)
        }
        perform(action, prepared: prepared, isOnQueue: isOnQueue)
    }

    func perform(_ action: CallStateMachine.Action, prepared: PreparedAction, isOnQueue: Bool) {
        if let context = prepared.announce {
            let hooks = self.hooks
            queue.async { hooks.forEach { $0.willSend(context) } }
        }
        switch action {
        case .ignore, .cancelTransfer:
            // `.cancelTransfer`: the transport attached its cancel to the task, which ran it.
            break
        case .runAdapters(let request):
            guard attachStop(request) else { return }
            adapt(request)
        case .runCacheStep(let request):
            guard attachStop(request), let cache = options.cache else { return }
            runCacheStep(cache, request)
        case .startTransfer(let request):
            transport.start(request, task: task, queue: queue, sharingQueue: callerQueue,
                            coalesces: options.coalescesIdenticalRequests, progress: makeProgressHandler()) { [self] result in
                storeCookies(of: result)
                handle(.transferFinished(explained(result)), isOnQueue: true)
            }
        case .answerFromStub(let request):
            guard attachStop(request) else { return }
            guard let stub = options.stub else { return respond(to: request, from: 0) }
            let delay = stub.delay > 0 ? min(stub.delay, CallStateMachine.longestWait) : 0
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
                let result: Result<HTTPResponse, NetworkError> = stub.error.map { .failure($0) } ?? .success(stub.response(for: request))
                storeCookies(of: result)
                handle(.transferFinished(result))
            }
        case .followRedirect(let request, let response, let history):
            guard attachStop(request) else { return }
            if isOnQueue {
                followRedirect(request, response: response, history: history)
            } else {
                queue.async { [self] in followRedirect(request, response: response, history: history) }
            }
        case .askRetriers(let request, let result, let attempts):
            guard attachStop(request) else { return }
            // Part of a streamed response may have been read already, and a stream body was
            // read once: sending again would repeat the one and cannot repeat the other.
            if request.responseStream?.hasStarted == true || request.body.stream?.hasStarted == true {
                handle(.retryDecided(.doNotRetry, by: interceptors.count))
                return
            }
            decideRetry(request, result: result, attempts: attempts)
        case .scheduleRetry(let delay):
            guard attachStop(task.originalRequest) else { return }
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in handle(.retryTimerFired) }
        case .returnToCache(let result):
            guard let done = prepared.cacheDone else { return }
            // The plan validates on the call's queue, once: the cache step stores by this
            // verdict, and the delivery of this response reuses it. The cache stores 2xx
            // responses only; any other is validated at its delivery, as without a cache.
            guard case .success(let response) = result, (200..<300).contains(response.statusCode) else {
                return done(result)
            }
            if isOnQueue {
                recordVerdict(for: response)
                done(result)
            } else {
                queue.async { [self] in
                    recordVerdict(for: response)
                    done(result)
                }
            }
        case .deliver(let result, let request, let isFinal):
            prepared.timer?.cancel()
            if let done = prepared.cacheDone { done(.failure(task.stopError ?? NetworkError(.cancelled, "the request was cancelled"))) }
            let pairing = prepared.pairing
            if isOnQueue {
                report(result, request: request, isFinal: isFinal, pairing: pairing)
                // This is the transfer's completion block: if the delivery sent another request,
                // stay awake for its completion instead of letting the thread park.
                transport.deliveryEnded()
            } else {
                queue.async { [self] in report(result, request: request, isFinal: isFinal, pairing: pairing) }
            }
        }
    }

    /// Lets a cancel or the total timeout reach the machine during a wait (an interceptor, a
    /// retry delay, a stub's delay, the cache step's lookup). Returns `false`, after feeding the
    /// stop, when the call was already stopped.
    private func attachStop(_ request: HTTPRequest) -> Bool {
        let stop: @Sendable () -> Void = { [self] in
            handle(.stopped(task.stopError ?? NetworkError(.cancelled, "the request was cancelled")))
        }
        guard task.attach(request: request, cancel: stop) else {
            stop()
            return false
        }
        return true
    }

    // MARK: Steps

    /// Asks the responder at `index` to answer the transfer step; its chain leads to the next
    /// responder, then to the transport. The last answer goes on as the transfer's result.
    private func respond(to request: HTTPRequest, from index: Int) {
        let number = state.withLock { state in
            state.responderAnswer += 1
            return state.responderAnswer
        }
        respond(to: request, from: index) { [self] result in
            // Only the first answer to this attempt or hop counts.
            let isCurrent = state.withLock { state in
                guard state.responderAnswer == number else { return false }
                state.responderAnswer += 1
                return true
            }
            guard isCurrent else { return }
            storeCookies(of: result)
            handle(.transferFinished(explained(result)))
        }
    }

    private func respond(to request: HTTPRequest, from index: Int,
                         completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) {
        guard index < options.responders.count else {
            transport.start(request, task: task, queue: queue, sharingQueue: callerQueue,
                            coalesces: options.coalescesIdenticalRequests, progress: makeProgressHandler()) { [self] result in
                // The transport took the task's cancel; what the responders still do (a
                // cassette's write) must stay cancellable too. A call stopped meanwhile has
                // already ended; the responders still hear the transfer's end.
                guard attachStop(request) else { return completion(explained(result)) }
                completion(result)
            }
            return
        }
        let proceeded = Mutex(false)
        let chain = TransferChain { [self] request, done in
            let isSecond = proceeded.withLock { wasProceeded in
                defer { wasProceeded = true }
                return wasProceeded
            }
            guard !isSecond else {
                return done(.failure(NetworkError(.invalidRequest, "a TransferResponder proceeded twice with one request "
                                                      + "(\(request.method) \(request.url.absoluteString))")))
            }
            respond(to: request, from: index + 1, completion: done)
        }
        options.responders[index].respond(to: request, chain: chain, completion: completion)
    }

    /// Runs the interceptors' `adapt` in order; then the cookie jar adds its cookies, and a hop
    /// that left the first origin loses the credentials an interceptor put back.
    private func adapt(_ request: HTTPRequest, from index: Int = 0) {
        guard index < interceptors.count else {
            var adapted = request
            if adapted.withholdsCredentials { adapted.withholdCredentials() }
            if let cookies { adapted = adapted.addingCookies(from: cookies) }
            handle(.adapted(adapted))
            return
        }
        interceptors[index].adapt(request) { [self] result in
            switch result {
            case .success(let adapted): adapt(adapted, from: index + 1)
            case .failure(let error): handle(.adaptFailed(error))
            }
        }
    }

    /// Asks the interceptors in order; the first that does not say `.doNotRetry` decides.
    /// Each is told how many retries it asked for itself, so one's retries never use up
    /// another's limit (a 503 retried by a policy, then a 401 for the token refresher).
    private func decideRetry(_ request: HTTPRequest, result: Result<HTTPResponse, NetworkError>, attempts: AttemptContext,
                             from index: Int = 0) {
        guard index < interceptors.count else {
            handle(.retryDecided(.doNotRetry, by: index))
            return
        }
        interceptors[index].retry(request, result: result, context: attempts.retryContext(for: index)) { [self] decision in
            if decision == .doNotRetry {
                decideRetry(request, result: result, attempts: attempts, from: index + 1)
            } else {
                handle(.retryDecided(decision, by: index))
            }
        }
    }

    /// Hands the adapted request to the cache step; its network request and deliveries come
    /// back as events.
    private func runCacheStep(_ cache: any CacheStep, _ request: HTTPRequest) {
        cache.run(request, isCacheable: { [self] _ in
            // Answered from the verdict of `.returnToCache`: the plan does not run again here.
            state.withLock { $0.verdict.map { $0 == nil } } ?? false
        }, network: { [self] request, done in
            state.withLock { $0.cacheDone = done }
            handle(.networkRequested(request))
        }, deliver: { [self] result, isFinal in
            handle(.cacheDelivered(result, isFinal: isFinal))
        })
    }

    /// Validates the network response the cache step is about to store or pass on.
    private func recordVerdict(for response: HTTPResponse) {
        var verdict: NetworkError?
        do throws(NetworkError) { try plan.validate(response) } catch { verdict = error }
        state.withLock { $0.verdict = .some(verdict) }
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
    /// default), a negative or NaN value, and anything beyond ``CallStateMachine/longestWait``
    /// mean no limit.
    private func armTotalTimeout() {
        let total = task.originalRequest.timeouts.total
        guard total > 0, total <= CallStateMachine.longestWait else { return }
        let error = NetworkError(.timedOut, "the call did not finish within its total timeout of \(total) s")
        let timer = CallTimer(after: total) { [task] in task.end(with: error) }
        let isOver = state.withLock { state in
            guard state.machine.state != .finished else { return true }
            state.totalTimer = timer
            return false
        }
        if isOver { timer.cancel() }
    }

    // MARK: Delivery

    /// The delivery itself, on the callback queue. `pairing`: the hooks' context and whether
    /// they are still to hear `willSend`; `nil` without hooks.
    private func report(_ result: Result<HTTPResponse, NetworkError>, request: HTTPRequest, isFinal: Bool,
                        pairing: (context: HookContext, needsAnnouncing: Bool)?) {
        if let pairing, pairing.needsAnnouncing { hooks.forEach { $0.willSend(pairing.context) } }
        let delivery = makeDelivery(result, request: request, isFinal: isFinal)
        if let context = pairing?.context {
            switch delivery.result {
            case .success:
                if let response = delivery.response { hooks.forEach { $0.didFinish(context, response: response) } }
            case .failure(let error):
                hooks.forEach { $0.didFail(context, error: error) }
            }
        }
        if isFinal { task.markCompleted(response: delivery.response) }
        deliver(delivery)
    }

    // Inlined into `report`, with `Delivery.init`: the front ends run this code unspecialised
    // (from other modules), where every function looked up `Result<Value, _>` and
    // `Delivery<Value>` metadata at run time on its own — five lookups per call, two inlined.
    @inline(__always)
    private func makeDelivery(_ result: Result<HTTPResponse, NetworkError>, request: HTTPRequest,
                              isFinal: Bool) -> Delivery<Value> {
        switch result {
        case .failure(let error):
            return Delivery(result: .failure(error), response: error.response, source: error.response?.source ?? .network,
                            isFinal: isFinal, request: request)
        case .success(let response):
            do throws(NetworkError) {
                try validateOnce(response)
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

    /// The plan's validation of a delivered response. A network response the cache step passed
    /// on was validated when it went to the step (``CacheStep`` delivers network results as the
    /// network gave them); a stored copy, or any response without a cache step, is validated here.
    private func validateOnce(_ response: HTTPResponse) throws(NetworkError) {
        if options.cache != nil, response.source != .cache,
           let verdict = state.withLock({ $0.verdict.take() }) {
            if let verdict { throw verdict }
            return
        }
        try plan.validate(response)
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

/// `first` followed by `second`, without making a new array when either is empty (the usual
/// case for hooks and interceptors).
private func joined<Element>(_ first: [Element], _ second: [Element]) -> [Element] {
    if second.isEmpty { return first }
    if first.isEmpty { return second }
    return first + second
}
