import AFStyle
import Dispatch
import Foundation
import Synchronization
import Testing
@_exported import TestSupport

/// A manager on the sample server; with `cache`, its store (the user's cache directory is
/// never touched: without a policy the manager does not open its default store).
func makeManager(path: String = "", cache: ResponseCache? = nil) throws -> HTTPSessionManager {
    let base = try TestServer.baseURL.appendingPathComponent(path)
    let manager = HTTPSessionManager(baseURL: path.isEmpty ? try TestServer.baseURL : base)
    if let cache { manager.responseCache = cache }
    return manager
}

/// One `success` or `failure` call.
///
/// `@unchecked Sendable`: the value is a `responseObject` (a JSON tree from
/// `JSONSerialization`) or a model, made on the completion queue and only read afterwards.
struct Callback<Value>: @unchecked Sendable {
    let task: SessionTask?
    let result: Result<Value, NetworkError>

    var value: Value? { if case .success(let value) = result { value } else { nil } }
    var error: NetworkError? { if case .failure(let error) = result { error } else { nil } }
    /// The `source` of the task's response at the time of the callback.
    let source: ResponseSource?
    /// Whether the callback ran on the queue the test named (or `nil` when it named none).
    let onExpectedQueue: Bool?
}

/// Collects the callbacks of calls, so a test can wait for them (bounded by the suite's time
/// limit, never by sleeping) and check how many there were.
final class Callbacks<Value>: Sendable {
    private let stream: AsyncStream<Callback<Value>>
    private let continuation: AsyncStream<Callback<Value>>.Continuation
    private let counter = Mutex(0)
    private let queueKey: DispatchSpecificKey<Int>?

    init(expectingQueueKey queueKey: DispatchSpecificKey<Int>? = nil) {
        (stream, continuation) = AsyncStream.makeStream(of: Callback<Value>.self)
        self.queueKey = queueKey
    }

    private func record(_ task: SessionTask?, _ result: Result<Value, NetworkError>) {
        counter.withLock { $0 += 1 }
        let onQueue = queueKey.map { DispatchQueue.getSpecific(key: $0) != nil }
        continuation.yield(Callback(task: task, result: result, source: task?.response?.source, onExpectedQueue: onQueue))
    }

    var success: @Sendable (SessionTask, Value) -> Void { { [self] task, value in record(task, .success(value)) } }
    var failure: @Sendable (SessionTask?, NetworkError) -> Void { { [self] task, error in record(task, .failure(error)) } }

    /// Records a success that has no task (completion-handler style APIs).
    func succeed(_ value: Value) { record(nil, .success(value)) }

    /// How many callbacks arrived so far.
    var count: Int { counter.withLock { $0 } }

    /// Waits for the next `n` callbacks. Call from one test task only.
    func next(_ n: Int = 1) async -> [Callback<Value>] {
        var collected: [Callback<Value>] = []
        for await callback in stream {
            collected.append(callback)
            if collected.count == n { break }
        }
        return collected
    }

    /// Waits for exactly one callback.
    func one() async throws -> Callback<Value> {
        guard let first = await next(1).first else { throw TestFailure("no callback") }
        return first
    }
}

extension Callbacks where Value == Any? {
    /// The `responseObject` as a dictionary.
    func dictionary() async throws -> [String: Any] {
        let callback = try await one()
        if let error = callback.error { throw error }
        guard let object = callback.value as? [String: Any] else { throw TestFailure("not a dictionary: \(String(describing: callback.value))") }
        return object
    }
}

/// Waits until the manager's queue has run everything queued so far: a second call of the
/// same kind would have been queued by then.
func drain(_ manager: HTTPSessionManager) async throws {
    let probe = Callbacks<Any?>()
    manager.GET("get", success: probe.success, failure: probe.failure)
    _ = try await probe.one()
}

/// Deterministic test bytes of a given size.
func testBytes(_ count: Int, seed: UInt8 = 7) -> Data {
    var data = Data(count: count)
    for index in 0..<count { data[index] = UInt8(truncatingIfNeeded: index &* 31 &+ Int(seed)) }
    return data
}

