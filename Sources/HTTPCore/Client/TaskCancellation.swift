import Synchronization

/// Holds the task of an async call so the cancellation handler can reach it, whichever of
/// the two runs first (a ``CancelSlot``), and lets only the first result through. Behind
/// ``firstResult(_:)``, the one async bridge of the core and the front ends.
package final class TaskCancellation: Sendable {
    private let state = Mutex<(slot: CancelSlot<HTTPTask>, isResumed: Bool)>((CancelSlot(), false))

    /// Makes an empty holder.
    package init() {}

    /// Records the task; cancels it at once if cancellation came first.
    package func set(_ task: HTTPTask) {
        if !state.withLock({ $0.slot.attach(task) }) { task.cancel() }
    }

    /// Cancels the task now, or as soon as it is recorded.
    package func cancel() {
        state.withLock { $0.slot.cancel() }?.cancel()
    }

    /// `true` for the first result, `false` for every later one (a `.fileFirst` hit delivers twice).
    private func claimFirst() -> Bool {
        state.withLock { state in
            defer { state.isResumed = true }
            return !state.isResumed
        }
    }

    /// Starts a call with `start` — which gets the closure to hand its result to and returns
    /// the call's task — and waits for the first result; later ones are dropped. Cancelling
    /// the Swift task cancels the call, which then delivers its cancelled result.
    package static func firstResult<Result: Sendable>(
        _ start: (_ resume: @escaping @Sendable (Result) -> Void) -> HTTPTask) async -> Result {
        let cancellation = TaskCancellation()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
                let task = start { result in
                    if cancellation.claimFirst() { continuation.resume(returning: result) }
                }
                cancellation.set(task)
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}
