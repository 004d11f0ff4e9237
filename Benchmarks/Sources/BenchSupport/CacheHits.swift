import Dispatch
import Synchronization

/// One delivery of a `.fileFirst` call, as a client reports it to ``CacheHits``.
public enum CacheDelivery: Sendable {
    /// The stored copy (flagged as from the cache), with its body size.
    case cached(bytes: Int)
    /// The call's last delivery: the network's answer.
    case final
    /// The call failed (a network failure after the stored copy, or anything unexpected).
    case failed(BenchError)
}

/// Makes `.fileFirst` call number `index` for cache entry `entry` and reports each of its
/// deliveries, in order, from the library's callback queue.
public typealias FileFirstCall = @Sendable (_ entry: Int, _ deliver: @escaping @Sendable (CacheDelivery) -> Void) -> Void

/// The `cache-hits` scenario, shared by the clients that have a response cache.
///
/// 1. ``fill(entries:inFlight:store:)`` (untimed) stores `entries` distinct responses through the
///    library's own API (a `.networkOnly` call stores its response), `inFlight` at a time.
/// 2. ``measure(count:entries:seed:call:)`` makes `count` `.fileFirst` calls, one at a time, each
///    for an entry drawn at random among the `entries` (the same sequence for every client and run).
///    Only the way from the call to its first delivery — the stored copy, on the caller's
///    callback queue — is timed (wall clock and CPU). The call's second delivery, the network's
///    answer (which also stores the entry again, so the count stays at `entries`), is awaited
///    before the next call starts, untimed, so no network work or store write overlaps a timed
///    lookup. A call whose first delivery is not the stored copy is a miss, and fails the run.
public enum CacheHits {
    /// Stores `entries` responses: `store(index, done)` must make a call that stores
    /// ``BenchSetup/cacheURL(_:)`` of `index` and report its completion.
    public static func fill(entries: Int, inFlight: Int, store: @escaping Send) throws {
        let result = try Driver.concurrent(count: entries, inFlight: inFlight, send: store)
        guard result.requests == entries else {
            throw BenchError("filled \(result.requests) of \(entries) cache entries")
        }
    }

    /// The timed part: `count` `.fileFirst` calls over random entries among `entries`. A
    /// `.cacheOnly` client reports `.cached` then `.final` from its one delivery.
    public static func measure(count: Int, entries: Int, seed: UInt64 = 42, call: @escaping FileFirstCall) throws -> BenchResult {
        var generator = SplitMix64(seed: seed)
        let keys = (0..<count).map { _ in Int(generator.next() % UInt64(max(1, entries))) }
        return try HitRun(keys: keys, call: call).run()
    }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64).
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

private final class HitRun: Sendable {
    private struct State {
        var call = 0
        var started: UInt64 = 0
        var startedCPU = 0.0
        var gotStoredCopy = false
        var nanoseconds: UInt64 = 0
        var cpu = 0.0
        var bytes = 0
        var hits = 0
        var failure: BenchError?
    }

    private let keys: [Int]
    private let call: FileFirstCall
    private let state = Mutex(State())
    private let finished = DispatchSemaphore(value: 0)

    init(keys: [Int], call: @escaping FileFirstCall) {
        self.keys = keys
        self.call = call
    }

    func run() throws -> BenchResult {
        guard !keys.isEmpty else { return BenchResult(requests: 0, bytes: 0, newConnections: nil) }
        start(0)
        finished.wait()
        let result = state.withLock { $0 }
        if let failure = result.failure { throw failure }
        return BenchResult(requests: result.hits, bytes: result.bytes, newConnections: nil,
                           timedSeconds: Double(result.nanoseconds) / 1e9, timedCPUSeconds: result.cpu)
    }

    private func start(_ number: Int) {
        // CPU first and the clock last, so the timed interval leaves out both readings.
        let cpu = cpuSeconds()
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { state in
            state.call = number
            state.gotStoredCopy = false
            state.startedCPU = cpu
            state.started = now
        }
        let entry = keys[number]
        call(entry) { [self] delivery in delivered(delivery, call: number, entry: entry) }
    }

    private func delivered(_ delivery: CacheDelivery, call number: Int, entry: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        let cpu = cpuSeconds()
        enum Next { case start(Int), finish, wait }
        let next: Next = state.withLock { state in
            guard state.failure == nil else { return .wait }
            guard state.call == number else {
                state.failure = BenchError("call \(number) delivered after call \(state.call) started")
                return .finish
            }
            switch delivery {
            case .cached(let bytes):
                guard !state.gotStoredCopy else {
                    state.failure = BenchError("call \(number) delivered two stored copies")
                    return .finish
                }
                state.gotStoredCopy = true
                state.nanoseconds += now - state.started
                state.cpu += max(0, cpu - state.startedCPU)
                state.bytes += bytes
                state.hits += 1
                return .wait
            case .final:
                guard state.gotStoredCopy else {
                    state.failure = BenchError("cache miss: call \(number) (entry \(entry)) got no stored copy first")
                    return .finish
                }
                return number + 1 < keys.count ? .start(number + 1) : .finish
            case .failed(let error):
                state.failure = BenchError("call \(number) (entry \(entry)): \(error)")
                return .finish
            }
        }
        switch next {
        case .start(let following): start(following)
        case .finish: finished.signal()
        case .wait: break
        }
    }
}
