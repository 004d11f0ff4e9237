import Dispatch

/// A one-shot timer for a call's total timeout, cancelled when the call ends first so that
/// nothing of the call stays scheduled until a far deadline.
///
/// Why @unchecked Sendable: the dispatch source is set up and started in `init`; afterwards
/// only `cancel()` touches it, and `dispatch_source_cancel` may be called from any thread.
final class CallTimer: @unchecked Sendable {
    private let source: any DispatchSourceTimer

    /// Starts the timer: `handler` runs once on a global queue after `seconds`.
    init(after seconds: Double, handler: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: .global())
        source.setEventHandler(handler: handler)
        source.schedule(deadline: .now() + seconds)
        source.activate()
    }

    /// Stops the timer; the handler does not run if it has not started.
    func cancel() {
        source.cancel()
    }
}
