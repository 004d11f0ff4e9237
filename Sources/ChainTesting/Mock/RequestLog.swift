import Dispatch
import Foundation
import Synchronization

/// The requests a ``MockServer`` received and not yet taken, and the tests waiting to take
/// one: a request goes to the oldest waiter, else joins the queue.
final class RequestLog: Sendable {
    private struct State {
        var pending: [RecordedRequest] = []
        var received = 0
        var waiters: [(id: Int, resume: @Sendable (RecordedRequest?) -> Void)] = []
        var nextWaiterID = 0
        /// The server shut down: no request will come, so no one waits any more.
        var isClosed = false
    }

    private let state = Mutex(State())

    /// The requests recorded so far, taken or not.
    var receivedCount: Int { state.withLock { $0.received } }

    /// Records the request `make` builds with its sequence number.
    func append(_ make: (Int) -> RecordedRequest) {
        let handOff = state.withLock { state -> ((@Sendable (RecordedRequest?) -> Void), RecordedRequest)? in
            let request = make(state.received)
            state.received += 1
            guard !state.waiters.isEmpty else {
                state.pending.append(request)
                return nil
            }
            return (state.waiters.removeFirst().resume, request)
        }
        if let (resume, request) = handOff { resume(request) }
    }

    /// Takes the oldest request now, or registers `resume` for the next one under a new id.
    private func takeOrWait(_ resume: @escaping @Sendable (RecordedRequest?) -> Void) -> (RecordedRequest?, Int) {
        state.withLock { state in
            if !state.pending.isEmpty { return (state.pending.removeFirst(), -1) }
            if state.isClosed { return (nil, -1) }
            let id = state.nextWaiterID
            state.nextWaiterID += 1
            state.waiters.append((id, resume))
            return (nil, id)
        }
    }

    /// Ends every wait with nothing, now and from now on (the queue's requests can still be taken).
    func close() {
        let waiters = state.withLock { state in
            state.isClosed = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(nil) }
    }

    /// Removes the waiter `id`; `false` when a request was handed to it already.
    private func removeWaiter(_ id: Int) -> Bool {
        state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return false }
            state.waiters.remove(at: index)
            return true
        }
    }

    /// Blocks until a request is there or `timeout` seconds passed.
    func take(timeout: TimeInterval) -> RecordedRequest? {
        let box = Mutex<RecordedRequest?>(nil)
        let arrived = DispatchSemaphore(value: 0)
        let (now, id) = takeOrWait { request in
            box.withLock { $0 = request }
            arrived.signal()
        }
        if let now { return now }
        if id < 0 { return nil }
        if arrived.wait(timeout: Self.deadline(after: timeout)) == .timedOut, removeWaiter(id) { return nil }
        // Handed a request while timing out: its signal is on the way.
        if box.withLock({ $0 }) == nil { arrived.wait() }
        return box.withLock { $0 }
    }

    /// Suspends until a request is there, `timeout` seconds passed or the task is cancelled.
    func take(timeout: TimeInterval) async -> RecordedRequest? {
        let once = Mutex<CheckedContinuation<RecordedRequest?, Never>?>(nil)
        let waiterID = Mutex<Int?>(nil)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<RecordedRequest?, Never>) in
                once.withLock { $0 = continuation }
                let resume: @Sendable (RecordedRequest?) -> Void = { request in
                    once.withLock { $0.take() }?.resume(returning: request)
                }
                let (now, id) = takeOrWait(resume)
                if let now { return resume(now) }
                if id < 0 { return resume(nil) }
                waiterID.withLock { $0 = id }
                DispatchQueue.global().asyncAfter(deadline: Self.deadline(after: timeout)) { [self] in
                    if removeWaiter(id) { resume(nil) }
                }
                if Task.isCancelled, removeWaiter(id) { resume(nil) }
            }
        } onCancel: {
            if let id = waiterID.withLock({ $0 }), removeWaiter(id) {
                once.withLock { $0.take() }?.resume(returning: nil)
            }
        }
    }

    /// `now + seconds`, for any `seconds` a caller passes (NaN and negative: now; at most a day).
    private static func deadline(after seconds: TimeInterval) -> DispatchTime {
        guard seconds.isFinite, seconds > 0 else { return .now() }
        return .now() + min(seconds, 86_400)
    }
}
