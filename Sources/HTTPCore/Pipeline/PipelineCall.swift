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
    private let engine: CurlEngine?
    let task: HTTPTask
    private let plan: ResponsePlan<Value>
    private let options: CallOptions
    private let queue: DispatchQueue
    private let hooks: [any HTTPHook]
    private let interceptors: [any RequestInterceptor]
    // The value may be a non-Sendable type (`Any` from JSON); it is made on the callback
    // queue and handed to the caller there, never shared, so the closure is @Sendable only
    // in the sense that it is called from that queue.
    private let deliver: @Sendable (Delivery<Value>) -> Void
    private let state = Mutex(PipelineCallState())

    init(client: HTTPClient, engine: CurlEngine?, request: HTTPRequest, plan: ResponsePlan<Value>, options: CallOptions,
         deliver: @escaping @Sendable (Delivery<Value>) -> Void) {
        self.client = client
        self.engine = engine
        self.task = HTTPTask(originalRequest: request)
        self.plan = plan
        self.options = options
        self.queue = options.queue ?? client.configuration.callbackQueue
        self.hooks = (options.usesGlobalHooks ? Hooks.shared.all : []) + options.hooks
        self.interceptors = client.configuration.interceptors + options.interceptors
        self.deliver = deliver
    }

    func start() {
        // Without interceptors there is nothing to adapt: skip the asynchronous step.
        guard !interceptors.isEmpty else {
            proceed(with: task.originalRequest)
            return
        }
        adapt(task.originalRequest) { [self] result in
            switch result {
            case .failure(let error):
                finish(.failure(error), request: task.originalRequest, isFinal: true)
            case .success(let request):
                proceed(with: request)
            }
        }
    }

    /// Everything after adaptation: the cache step when there is one, else the transfer.
    private func proceed(with request: HTTPRequest) {
        guard let cache = options.cache else {
            transport(request, context: RetryContext(attempt: 1, totalDelay: 0)) { [self] result, isOnQueue in
                finish(result, request: request, isFinal: true, isOnQueue: isOnQueue)
            }
            return
        }
        let plan = self.plan
        cache.run(request, isCacheable: { (try? plan.validate($0)) != nil },
                  network: { [self] request, done in
                      transport(request, context: RetryContext(attempt: 1, totalDelay: 0)) { result, _ in done(result) }
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
    private func transport(_ request: HTTPRequest, context: RetryContext,
                           done: @escaping @Sendable (Result<HTTPResponse, NetworkError>, _ isOnQueue: Bool) -> Void) {
        openContextIfNeeded(for: request)
        if let stub = options.stub {
            let answer: @Sendable () -> Void = { [self] in
                if task.isCancelled {
                    done(.failure(NetworkError(.cancelled, "the request was cancelled")), false)
                } else {
                    done(stub.error.map { .failure($0) } ?? .success(stub.response(for: request)), false)
                }
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + max(0, stub.delay), execute: answer)
            return
        }
        guard let engine else {
            done(.failure(client.startupError ?? NetworkError(.transport, "libcurl is not available")), false)
            return
        }
        let progress = makeProgressHandler()
        client.startTransfer(request, task: task, engine: engine, queue: queue,
                             coalesces: options.coalescesIdenticalRequests, progress: progress) { [self] result in
            guard !interceptors.isEmpty else {
                done(result, true)
                return
            }
            decideRetry(request, result: result, context: context) { [self] decision in
                switch decision {
                case .doNotRetry:
                    done(result, false)
                case .fail(let error):
                    done(.failure(error), false)
                case .retry(let delay):
                    guard !task.isCancelled else {
                        done(.failure(NetworkError(.cancelled, "the request was cancelled")), false)
                        return
                    }
                    let again: @Sendable () -> Void = { [self] in
                        adapt(task.originalRequest) { [self] adapted in
                            switch adapted {
                            case .success(let request):
                                let next = RetryContext(attempt: context.attempt + 1, totalDelay: context.totalDelay + max(0, delay))
                                transport(request, context: next, done: done)
                            case .failure(let error): done(.failure(error), false)
                            }
                        }
                    }
                    if delay > 0 {
                        DispatchQueue.global().asyncAfter(deadline: .now() + delay, execute: again)
                    } else {
                        again()
                    }
                }
            }
        }
    }

    /// Asks the interceptors in order; the first that does not say `.doNotRetry` decides.
    private func decideRetry(_ request: HTTPRequest, result: Result<HTTPResponse, NetworkError>, context: RetryContext,
                             from index: Int = 0, then decide: @escaping @Sendable (RetryDecision) -> Void) {
        if case .failure(let error) = result, error.kind == .cancelled {
            decide(.doNotRetry)
            return
        }
        guard index < interceptors.count else {
            decide(.doNotRetry)
            return
        }
        interceptors[index].retry(request, result: result, context: context) { [self] decision in
            if decision == .doNotRetry {
                decideRetry(request, result: result, context: context, from: index + 1, then: decide)
            } else {
                decide(decision)
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
        let pairing: (context: HookContext, needsAnnouncing: Bool)? = state.withLock { state in
            guard !state.isFinalDelivered else { return nil }
            if isFinal { state.isFinalDelivered = true }
            if let open = state.openContext {
                state.openContext = nil
                return (open, false)
            }
            // A delivery with no transfer before it (a cache hit, a failed adaptation) opens its own pair.
            return (HookContext(id: PipelineIDs.next(), request: request, origin: options.origin), true)
        }
        guard let (context, needsAnnouncing) = pairing else { return }
        if isOnQueue {
            report(result, request: request, isFinal: isFinal, context: context, needsAnnouncing: needsAnnouncing)
            // This is the transfer's completion block: if the delivery sent another request,
            // stay awake for its completion instead of letting the thread park.
            engine?.handoff.keepWarm()
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
}

/// Call identifiers for hook contexts, unique per process.
enum PipelineIDs {
    static let counter = Atomic<UInt64>(0)

    static func next() -> UInt64 {
        counter.add(1, ordering: .relaxed).newValue
    }
}
