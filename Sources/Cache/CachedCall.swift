import Dispatch
import HTTPCore
import Synchronization

/// A call running under a cache policy (returned by `ResponseCache.run(_:request:ignoredParameters:keyHeaders:queue:isCacheable:network:deliver:)`).
///
/// Guarantees: deliveries happen in order and never concurrently; there is at most one
/// final delivery and nothing after it. ``cancel()`` cancels the network part; when nothing
/// was delivered yet, the call still delivers exactly once, with ``NetworkError/Kind/cancelled``.
/// After a cancel nothing else is delivered (a `.fileFirst` call that already showed its
/// stored copy ends there).
public final class CachedCall: Sendable {
    private struct State {
        var deliveries = 0
        var isFinished = false
        var transfer = CancelSlot<any CancellableTransfer>()
    }

    private let state = Mutex(State())
    /// Serial, and targeting the caller's queue: deliveries run on that queue's threads and
    /// one after another, even when the caller's queue is concurrent. `nil`: deliveries run
    /// inline, under the lock (see ``init(deliveringInline:)``).
    private let deliveryQueue: DispatchQueue?
    private let deliver: @Sendable (Result<HTTPResponse, NetworkError>, _ isFinal: Bool) -> Void

    init(queue: DispatchQueue, deliver: @escaping @Sendable (Result<HTTPResponse, NetworkError>, _ isFinal: Bool) -> Void) {
        self.deliveryQueue = DispatchQueue(label: "chain.cache.delivery", target: queue)
        self.deliver = deliver
    }

    /// A call whose deliveries run inline where they are emitted (the store's queue), under
    /// the call's lock, so they are still ordered and never concurrent. For a `deliver` that
    /// only hands the result on — the pipeline's, which queues it for the callback queue —
    /// a queue of its own would be one more thread hand-off before every delivery. `deliver`
    /// must not call back into the call.
    init(deliveringInline deliver: @escaping @Sendable (Result<HTTPResponse, NetworkError>, _ isFinal: Bool) -> Void) {
        self.deliveryQueue = nil
        self.deliver = deliver
    }

    private func send(_ result: Result<HTTPResponse, NetworkError>, isFinal: Bool) {
        guard let deliveryQueue else {
            deliver(result, isFinal)
            return
        }
        let deliver = self.deliver
        deliveryQueue.async { deliver(result, isFinal) }
    }

    /// Cancels the call. Safe from any thread, any number of times; does nothing once the
    /// call has delivered its final result.
    public func cancel() {
        let transfer = state.withLock { state -> (any CancellableTransfer)? in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            if state.deliveries == 0 {
                state.deliveries = 1
                send(.failure(NetworkError(.cancelled, "the request was cancelled")), isFinal: true)
            }
            defer { state.transfer.detach() }
            return state.transfer.cancel()
        }
        transfer?.cancel()
    }

    /// Whether ``cancel()`` was called before the final delivery.
    public var isCancelled: Bool { state.withLock { $0.transfer.isCancelled } }

    /// Whether the final result has been handed to the delivery queue (or the call was cancelled).
    var isFinished: Bool { state.withLock { $0.isFinished } }

    /// How many deliveries were handed to the delivery queue.
    var deliveryCount: Int { state.withLock { $0.deliveries } }

    /// Queues (or makes) a delivery, unless the call already finished. Done under the lock, so
    /// the order of `emit` and `cancel` calls is the order of deliveries.
    @discardableResult
    func emit(_ result: Result<HTTPResponse, NetworkError>, isFinal: Bool) -> Bool {
        state.withLock { state in
            guard !state.isFinished else { return false }
            state.deliveries += 1
            if isFinal {
                state.isFinished = true
                state.transfer.detach()
            }
            send(result, isFinal: isFinal)
            return true
        }
    }

    /// Remembers the transfer to cancel; cancels it at once if the call was cancelled meanwhile.
    func attach(_ transfer: (any CancellableTransfer)?) {
        guard let transfer else { return }
        let cancelNow = state.withLock { state -> Bool in
            // A call that finished on its own keeps nothing; a cancelled one cancels at once.
            guard !state.isFinished || state.transfer.isCancelled else { return false }
            defer { if state.isFinished { state.transfer.detach() } }
            return !state.transfer.attach(transfer)
        }
        if cancelNow { transfer.cancel() }
    }
}
