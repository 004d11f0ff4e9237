import Dispatch
import Synchronization

/// Async work run from a scenario's synchronous timed part: the streaming APIs are
/// `AsyncSequence`s, while ``BenchClient/prepare(_:_:)`` hands the harness a plain closure to
/// time.
public enum AsyncWait {
    /// Runs `body` in a detached task and blocks the calling thread until it returns, with its
    /// value or its error. Call it from the main thread (the harness's), never from a Swift
    /// concurrency thread, which the blocked wait would take from the pool.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = TaskResult<T>()
        Task.detached {
            do {
                outcome.finish(.success(try await body()))
            } catch {
                outcome.finish(.failure(error))
            }
        }
        return try outcome.wait()
    }
}

/// The detached task's result, handed to the waiting thread.
private final class TaskResult<T: Sendable>: Sendable {
    private let result = Mutex<Result<T, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func finish(_ value: Result<T, any Error>) {
        result.withLock { $0 = value }
        done.signal()
    }

    func wait() throws -> T {
        done.wait()
        guard let value = result.withLock({ $0 }) else { throw BenchError("the task ended without a result") }
        return try value.get()
    }
}
