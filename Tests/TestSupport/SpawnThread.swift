import Dispatch
import Foundation
import Synchronization

/// The one thread that starts every ``PeerProcess``, and never ends.
///
/// `PR_SET_PDEATHSIG` fires when the *thread* that forked the child ends, not the process: a
/// child of `offPool`'s short-lived threads would get its signal the moment that thread
/// returned. Starting children here ties them to the test process instead.
final class SpawnThread: Sendable {
    static let shared = SpawnThread()

    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let available = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [self] in
            while true {
                available.wait()
                let job = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                job?()
            }
        }
        thread.name = "chain-test-spawn"
        thread.start()
    }

    /// Runs `work` on the spawn thread and waits for it (blocking: call it off the concurrency pool).
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) throws -> T {
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        jobs.withLock {
            $0.append {
                let outcome = Result { try work() }
                result.withLock { $0 = outcome }
                done.signal()
            }
        }
        available.signal()
        done.wait()
        guard let outcome = result.withLock({ $0 }) else { throw TestFailure("the spawn thread returned nothing") }
        return try outcome.get()
    }
}
