import Synchronization

/// Holds the task of an async call so the cancellation handler can reach it, whichever of
/// the two runs first.
final class TaskCancellation: Sendable {
    private let state = Mutex<(task: HTTPTask?, isCancelled: Bool)>((nil, false))

    /// Records the task; cancels it at once if cancellation came first.
    func set(_ task: HTTPTask) {
        let cancelNow = state.withLock { state in
            state.task = task
            return state.isCancelled
        }
        if cancelNow { task.cancel() }
    }

    /// Cancels the task now, or as soon as it is recorded.
    func cancel() {
        let task = state.withLock { state in
            state.isCancelled = true
            return state.task
        }
        task?.cancel()
    }
}
