import Synchronization

/// Holds the task of an async call so the cancellation handler can reach it, whichever of
/// the two runs first. Shared by the core's and the front ends' async APIs (package access).
package final class TaskCancellation: Sendable {
    private let state = Mutex<(task: HTTPTask?, isCancelled: Bool)>((nil, false))

    /// Makes an empty holder.
    package init() {}

    /// Records the task; cancels it at once if cancellation came first.
    package func set(_ task: HTTPTask) {
        let cancelNow = state.withLock { state in
            state.task = task
            return state.isCancelled
        }
        if cancelNow { task.cancel() }
    }

    /// Cancels the task now, or as soon as it is recorded.
    package func cancel() {
        let task = state.withLock { state in
            state.isCancelled = true
            return state.task
        }
        task?.cancel()
    }
}
