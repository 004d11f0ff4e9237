import HTTPCore
import Synchronization

/// Counts the requests in flight — the counterpart of `AFNetworkActivityIndicatorManager`,
/// for showing a spinner or a "busy" state while anything is loading.
///
/// Each request counts from its ``HTTPHook/willSend(_:)`` to its end event, keyed by
/// ``HookContext/id``; the pipeline guarantees that end also on cancel and timeout, and the
/// counter ignores ends it never saw begin, so ``activeCount`` is never negative.
///
///     let activity = NetworkActivityHook { count in spinner.isVisible = count > 0 }
///     Hooks.shared.add(activity)
public final class NetworkActivityHook: HTTPHook {
    private struct State {
        var inFlight: Set<UInt64> = []
        var isNotifying = false
        var lastNotified = 0
    }

    private let onChange: (@Sendable (Int) -> Void)?
    private let state = Mutex(State())

    /// Makes a counter.
    ///
    /// - Parameter onChange: called with the new count when it changes. Default `nil`. Calls
    ///   never overlap and the last one always carries the current count; under contention a
    ///   short-lived value may be skipped (0 → 1 → 0 may report nothing). It runs outside the
    ///   counter's lock, so it may read ``activeCount``.
    public init(onChange: (@Sendable (Int) -> Void)? = nil) {
        self.onChange = onChange
    }

    /// The requests in flight now; never negative.
    public var activeCount: Int { state.withLock { $0.inFlight.count } }

    /// Counts the request in.
    public func willSend(_ context: HookContext) {
        let changed = state.withLock { $0.inFlight.insert(context.id).inserted }
        if changed { notify() }
    }

    /// Counts the request out.
    public func didFinish(_ context: HookContext, response: HTTPResponse) {
        end(context)
    }

    /// Counts the request out.
    public func didFail(_ context: HookContext, error: NetworkError) {
        end(context)
    }

    private func end(_ context: HookContext) {
        let changed = state.withLock { $0.inFlight.remove(context.id) != nil }
        if changed { notify() }
    }

    /// Calls `onChange` until it has seen the current count. Whoever finds no notifier running
    /// becomes it; the others leave their change for it to pick up. So calls are ordered and
    /// never run under the lock, without a second lock.
    private func notify() {
        guard let onChange else { return }
        let becameNotifier = state.withLock { state in
            guard !state.isNotifying else { return false }
            state.isNotifying = true
            return true
        }
        guard becameNotifier else { return }
        while let count = nextCountToReport() {
            onChange(count)
        }
    }

    private func nextCountToReport() -> Int? {
        state.withLock { state in
            guard state.inFlight.count != state.lastNotified else {
                state.isNotifying = false
                return nil
            }
            state.lastNotified = state.inFlight.count
            return state.lastNotified
        }
    }
}
