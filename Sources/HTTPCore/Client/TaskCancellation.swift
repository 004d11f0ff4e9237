import Synchronization

/// Holds the task of an async call so the cancellation handler can reach it, whichever of
/// the two runs first (a ``CancelSlot``). Shared by the core's and the front ends' async
/// APIs (package access).
package final class TaskCancellation: Sendable {
    private let slot = Mutex(CancelSlot<HTTPTask>())

    /// Makes an empty holder.
    package init() {}

    /// Records the task; cancels it at once if cancellation came first.
    package func set(_ task: HTTPTask) {
        if !slot.withLock({ $0.attach(task) }) { task.cancel() }
    }

    /// Cancels the task now, or as soon as it is recorded.
    package func cancel() {
        slot.withLock { $0.cancel() }?.cancel()
    }
}
