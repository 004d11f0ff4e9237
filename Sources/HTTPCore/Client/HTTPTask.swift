import Synchronization

/// A handle on a request in flight: cancel it, or ask how it is doing.
///
/// Cancelling is safe from any thread, any number of times. A request cancelled before it
/// finished ends with ``NetworkError/Kind/cancelled``, and its completion is still called
/// exactly once; cancelling after it finished does nothing.
public final class HTTPTask: Sendable, Hashable, CustomStringConvertible {
    /// Where a task is in its life.
    public enum State: String, Sendable, Hashable {
        /// Sent or waiting to be sent.
        case running
        /// Cancelled; the completion reports ``NetworkError/Kind/cancelled``.
        case cancelled
        /// The completion has been called (with a success or a failure).
        case completed
    }

    private struct Storage {
        var isCompleted = false
        var currentRequest: HTTPRequest?
        /// Cancels whatever currently carries the task (a transfer, or a share of one).
        var carrier = CancelSlot<@Sendable () -> Void>()
        var response: HTTPResponse?
        /// Why the pipeline ended the call itself (its total timeout), if it did.
        var endError: NetworkError?

        /// A cancel wins over the completion that follows it.
        var state: State { carrier.isCancelled ? .cancelled : isCompleted ? .completed : .running }
    }

    /// The request as first made (before any interceptor changed it).
    public let originalRequest: HTTPRequest
    private let storage = Mutex(Storage())

    /// A task for `originalRequest`; the pipeline makes one per call, a front end one for work
    /// made of several calls (an event stream's reconnections).
    package init(originalRequest: HTTPRequest) {
        self.originalRequest = originalRequest
    }

    /// The current state.
    public var state: State { storage.withLock { $0.state } }

    /// The request currently being sent (after adaptation), or the original one.
    public var currentRequest: HTTPRequest {
        storage.withLock { $0.currentRequest } ?? originalRequest
    }

    /// The response, once the task completed with one (also for HTTP errors).
    public var response: HTTPResponse? { storage.withLock { $0.response } }

    /// Cancels the request. See the type's documentation for the guarantees.
    public func cancel() {
        let cancelCurrent = storage.withLock { storage -> (@Sendable () -> Void)? in
            guard !storage.isCompleted else { return nil }
            return storage.carrier.cancel()
        }
        cancelCurrent?()
    }

    /// Whether ``cancel()`` was called before the task completed.
    public var isCancelled: Bool { state == .cancelled }

    /// Attaches what now carries this task — a transfer, a share of one, or a wait (an
    /// interceptor, a retry delay) — so a cancel reaches it at once. Returns `false` (and
    /// attaches nothing) when the task was already cancelled or ended, so the caller can fail
    /// it (with ``stopError``) instead of going on.
    package func attach(request: HTTPRequest, cancel: @escaping @Sendable () -> Void) -> Bool {
        storage.withLock { storage in
            guard !storage.isCompleted, !storage.carrier.isCancelled, storage.endError == nil else { return false }
            storage.currentRequest = request
            return storage.carrier.attach(cancel)
        }
    }

    /// Ends a running call with `error` (its total timeout passed): cancels what carries it,
    /// which then fails with ``stopError``. The state stays ``State/running`` until the
    /// completion, as for any failure. Does nothing once the task was cancelled or completed.
    func end(with error: NetworkError) {
        let cancelCurrent = storage.withLock { storage -> (@Sendable () -> Void)? in
            guard storage.state == .running, storage.endError == nil else { return nil }
            storage.endError = error
            return storage.carrier.target
        }
        cancelCurrent?()
    }

    /// The error a stopped call fails with: ``NetworkError/Kind/cancelled`` after ``cancel()``,
    /// the error of ``end(with:)`` after that; `nil` while the call may go on.
    var stopError: NetworkError? {
        storage.withLock { storage in
            storage.carrier.isCancelled ? NetworkError(.cancelled, "the request was cancelled") : storage.endError
        }
    }

    /// Records the end of the task, just before its completion is called.
    package func markCompleted(response: HTTPResponse?) {
        storage.withLock { storage in
            storage.response = response
            storage.isCompleted = true
            storage.carrier.detach()
        }
    }

    public static func == (lhs: HTTPTask, rhs: HTTPTask) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { "HTTPTask(\(originalRequest.method) \(originalRequest.url.absoluteString), \(state))" }
}
