import Dispatch
import Foundation
import Synchronization

/// One finished request as a client reports it to the ``Driver``.
public struct Outcome: Sendable {
    /// Body bytes received.
    public var bytes: Int
    /// Connections the request opened, when the library tells.
    public var newConnections: Int?

    public init(bytes: Int, newConnections: Int?) {
        self.bytes = bytes
        self.newConnections = newConnections
    }
}

/// Sends request number `index` and calls `done` exactly once when it finished (from any thread).
public typealias Send = @Sendable (_ index: Int, _ done: @escaping @Sendable (Result<Outcome, BenchError>) -> Void) -> Void

/// Drives callback-style clients: the next request always starts from a completion, as an app
/// would chain them, so the measured cost includes the trip through the library's callback queue.
public enum Driver {
    /// `count` requests, one at a time.
    public static func sequential(count: Int, send: @escaping Send) throws -> BenchResult {
        try concurrent(count: count, inFlight: 1, send: send)
    }

    /// The one download of `download-file`, written to `destination` by `send`. The bytes
    /// counted are the ones on disk. Deleting the file is left to the harness, after its clock
    /// stops, as the C client unlinks after its own; a failed download's file goes at once.
    public static func download(to destination: URL, send: @escaping Send) throws -> BenchResult {
        let remove: @Sendable () -> Void = { try? FileManager.default.removeItem(at: destination) }
        do {
            var result = try sequential(count: 1, send: send)
            result.bytes = fileSize(destination) ?? 0
            result.cleanUp = remove
            return result
        } catch {
            remove()
            throw error
        }
    }

    /// `count` requests with `inFlight` outstanding until the last ones.
    public static func concurrent(count: Int, inFlight: Int, send: @escaping Send) throws -> BenchResult {
        let run = Run(count: count, send: send)
        return try run.start(inFlight: inFlight)
    }
}

private final class Run: Sendable {
    private struct State {
        var issued = 0
        var completed = 0
        var bytes = 0
        var newConnections: Int? = 0
        var failure: BenchError?
    }

    private let count: Int
    private let send: Send
    private let state = Mutex(State())
    private let finished = DispatchSemaphore(value: 0)

    init(count: Int, send: @escaping Send) {
        self.count = count
        self.send = send
    }

    func start(inFlight: Int) throws -> BenchResult {
        let first = state.withLock { state in
            state.issued = min(max(1, inFlight), count)
            return state.issued
        }
        for index in 0..<first { issue(index) }
        finished.wait()
        let result = state.withLock { $0 }
        if let failure = result.failure { throw failure }
        return BenchResult(requests: result.completed, bytes: result.bytes, newConnections: result.newConnections)
    }

    private func issue(_ index: Int) {
        send(index) { [self] outcome in completed(outcome) }
    }

    private func completed(_ outcome: Result<Outcome, BenchError>) {
        // Decide under the lock, act outside it: `send` may call back synchronously.
        enum Next { case issue(Int), finish, wait }
        let next: Next = state.withLock { state in
            guard state.failure == nil else { return .wait }
            switch outcome {
            case .success(let outcome):
                state.completed += 1
                state.bytes += outcome.bytes
                if let opened = outcome.newConnections, let total = state.newConnections {
                    state.newConnections = total + opened
                } else {
                    state.newConnections = nil
                }
            case .failure(let error):
                state.failure = error
                return .finish
            }
            if state.issued < count {
                state.issued += 1
                return .issue(state.issued - 1)
            }
            return state.completed == count ? .finish : .wait
        }
        switch next {
        case .issue(let index): issue(index)
        case .finish: finished.signal()
        case .wait: break
        }
    }
}
