import Dispatch
import Foundation
import Synchronization

// Helpers the test targets share (`@_exported` by each target's support file). Test-only:
// nothing here is part of the library.

/// A test failure with a message, for `throw` in helpers.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Collects values from any thread; a test may wait for a count with a bounded timeout.
public final class Recorder<Value: Sendable>: Sendable {
    private struct State {
        var values: [Value] = []
        var waiters: [UUID: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    public func append(_ value: Value) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.values.append(value)
            let due = state.waiters.filter { $0.value.count <= state.values.count }
            for id in due.keys { state.waiters[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    public var values: [Value] { state.withLock { $0.values } }
    public var count: Int { state.withLock { $0.values.count } }

    /// Waits until at least `count` values arrived or `timeout` seconds passed; returns what arrived.
    @discardableResult
    public func wait(for count: Int, timeout: TimeInterval = 30) async -> [Value] {
        let id = UUID()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                if state.values.count >= count { return true }
                state.waiters[id] = (count, continuation)
                return false
            }
            if done {
                continuation.resume()
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                let waiter = self.state.withLock { $0.waiters.removeValue(forKey: id) }
                waiter?.continuation.resume()
            }
        }
        return values
    }
}

extension Result {
    /// The failure, or `nil`.
    public var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// The success value, or `nil`.
    public var success: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}

/// Runs an action once both happened: it was set, and ``fire()`` was called — in either
/// order. A test acts on an event (a retry decision, a request being sent) on the thread that
/// reports it, not in its own task: under load, and always under ThreadSanitizer, the task's
/// next turn on the concurrency pool may come 15 s or more later, long after the window the
/// test meant to act in.
public final class Trigger: Sendable {
    private struct State {
        var action: (@Sendable () -> Void)?
        var firedAt: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    public init() {}

    /// When ``fire()`` was first called; `nil` before.
    public var firedAt: ContinuousClock.Instant? { state.withLock { $0.firedAt } }

    /// Sets the action; it runs now if ``fire()`` came first.
    public func set(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            state.action = action
            return state.firedAt != nil
        }
        if runNow { action() }
    }

    /// Runs the action (now, or when it is set); later calls do nothing.
    public func fire() {
        let action = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.firedAt == nil else { return nil }
            state.firedAt = .now
            return state.action
        }
        action?()
    }
}

/// Runs `work` on a thread of its own and waits for it. Blocking work (starting a process and
/// reading its output, building and encoding megabytes, submitting thousands of requests) must
/// not occupy the Swift concurrency pool, whose few threads (one per core) every suite of the
/// process shares, nor Dispatch's global queues, which on Linux run about as few: blocking
/// either stalls unrelated suites for as long (a cancel "taking" 40 s was a stalled test).
@discardableResult
public func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: work()) }
    }
}

/// A fresh directory under the temporary directory, named `chain-<label>-<UUID>`.
public func temporaryDirectory(_ label: String = "tests") throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("chain-\(label)-\(UUID().uuidString)",
                                                                            isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Runs this test bundle again with `environment`, only the tests `filter` names, and returns
/// everything it printed with its exit status.
public func runThisBundle(filter: String, environment: [String: String]) async throws -> String {
    let bundle = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    return await offPool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: bundle)
        process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return "cannot start \(bundle): \(error)" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self) + "\nexit status \(process.terminationStatus)"
    }
}
