import CCurl
import Dispatch
import Foundation
import HTTPCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One engine's hand-off of finished transfers to the callback queues, and the one owner of
/// its tuning (``DeliveryTuning``): which queues count as the library's own (marked), whose
/// completions of one loop pass are batched and whose blocks a call runs in place; the counts
/// of transfers in flight and completions posted; and the waits by yielding — the loop
/// thread's after a pass, a callback thread's after a delivery.
///
/// Why wait at all: libdispatch parks an idle worker thread at once, and waking a parked one
/// is slow — measured on the 2-core benchmark machine, a round trip through
/// `DispatchQueue.async` takes 3 µs to a busy worker and 22 µs to a parked one, more than half
/// of a whole loopback request. Requests chained from completions (log in, then load the
/// profile, then the list) paid that on every step. So the delivering block, when it delivered
/// a transfer's result in place and another transfer is still in flight, yields the processor
/// in a loop until the engine posts the next completion; the serial queue's drain then runs
/// that completion on the same, still running, thread.
///
/// How long it waits (``warmth(transfersInFlight:lastChainedWait:)``):
/// - **Several transfers in flight: up to 50 µs.** Completions come often, and the processors
///   have other work (the engine, the server on a loopback benchmark): a longer wait would take
///   time from them — measured with 32 in flight, a 1 ms wait cost 18% of throughput.
/// - **One in flight — a chain — up to 200 µs, when the last chained wait took at most
///   150 µs.** Nothing else of the engine needs a processor until that one response, so the
///   wait costs only the processor time itself, and it must last the whole round trip to help:
///   50 µs ran out just before a loopback response (measured 37–74 µs from the end of one
///   delivery to the start of the next) and left sequential small GETs at 0.65× raw libcurl,
///   against 0.90× with 150 µs or more.
/// - **One in flight, with a longer last wait (a remote server): not at all.** No wait short
///   enough to be cheap would last the round trip; parking costs ~20 µs against milliseconds.
///
/// Only queues made by ``HTTPClient/makeCallbackQueue(label:)`` (the default callback queues
/// of HTTPClient, Chain and AFStyle) do this: a queue the caller supplies — the main queue,
/// say — is never held. Nothing waits when nothing else is in flight (a lone request), a
/// completion is already waiting (many requests in flight), the process may run on one
/// processor only (``isWaitingByYieldingUseful``), or the tuning is ``DeliveryTuning/off``.
/// With `.off` no queue counts as marked either: no batching, no blocks run in place.
///
/// Cost per request with `.automatic`: the tuning's decisions are stored `let`s read where the
/// unconditional checks were (a load and a predictable branch); the counts are the same
/// relaxed atomics either way.
final class DeliveryScheduler: Sendable {
    /// The setting the client was made with.
    let tuning: DeliveryTuning
    /// Whether marked queues get the library's treatment: batching, blocks in place, warm waits.
    private let usesMarkedQueues: Bool
    /// Whether a thread may wait by yielding for the other side: `.automatic`, on more than one
    /// usable processor. Read after every loop pass with completions and after every delivery
    /// in place, hence stored.
    let waitsByYielding: Bool

    /// Transfers handed to the engine whose completion has not been posted yet.
    let transfersInFlight = Atomic<Int>(0)
    /// Transfer completions posted to a callback queue whose block has not started yet.
    let postedCompletions = Atomic<Int>(0)
    /// When the last chained wait began (uptime nanoseconds), or 0 when none is being timed.
    private let chainedWaitStart = Atomic<UInt64>(0)
    /// How long the last chained wait took, from the end of a delivery with one transfer in
    /// flight to the start of the next completion block, in nanoseconds; 0 until one is measured.
    let lastChainedWait = Atomic<UInt64>(0)

    /// The loop thread's wait for the next command after a pass that finished transfers.
    static let loopWarmth: UInt64 = 50_000
    /// The wait with several transfers in flight, or before a chained wait was measured.
    static let sharedWarmth: UInt64 = 50_000
    /// The wait for a chain whose last wait took at most ``chainedWaitLimit``.
    static let chainWarmth: UInt64 = 200_000
    /// The longest chained wait that is still worth bridging by yielding.
    static let chainedWaitLimit: UInt64 = 150_000

    /// Whether waiting by yielding can pay off: only when the process may run on more than
    /// one processor. On one (`taskset -c 0`, say), the thread being waited for cannot run
    /// while the waiting one holds the processor, and `sched_yield` does not reliably hand it
    /// over: pinned to one core with nginx, the engine loop's wait cost 10% of sequential
    /// throughput. Read once, when first needed; a later change of affinity is not seen.
    static let isWaitingByYieldingUseful: Bool = {
        let count = Int(ccurl_usable_processor_count())
        return (count > 0 ? count : ProcessInfo.processInfo.activeProcessorCount) > 1
    }()

    /// Makes the scheduler of one engine, tuned by `tuning`.
    init(tuning: DeliveryTuning) {
        self.tuning = tuning
        usesMarkedQueues = tuning == .automatic
        waitsByYielding = tuning == .automatic && DeliveryScheduler.isWaitingByYieldingUseful
    }

    // MARK: Queues

    private final class Marker: Sendable {}
    private static let key = DispatchSpecificKey<Marker>()
    private static let marker = Marker()

    /// Marks `queue` as a serial queue of the library's, whose deliveries may keep its thread warm.
    static func mark(_ queue: DispatchQueue) {
        queue.setSpecific(key: key, value: marker)
    }

    /// Whether `queue` was made by ``HTTPClient/makeCallbackQueue(label:)``.
    static func isMarked(_ queue: DispatchQueue) -> Bool {
        queue.getSpecific(key: key) != nil
    }

    /// Whether this engine treats `queue` as a library-made serial queue: batches the
    /// completions bound for it and lets a call run its blocks on it in place. Never with `.off`.
    func isCallbackQueue(_ queue: DispatchQueue) -> Bool {
        usesMarkedQueues && DeliveryScheduler.isMarked(queue)
    }

    /// A serial queue for completions: marked with `.automatic`, a plain one with `.off`.
    func makeCallbackQueue(label: String) -> DispatchQueue {
        usesMarkedQueues ? HTTPClient.makeCallbackQueue(label: label) : DispatchQueue(label: label)
    }

    // MARK: Counts

    /// A transfer was handed to the engine.
    func transferStarted() {
        transfersInFlight.add(1, ordering: .relaxed)
    }

    /// A transfer's completion is about to be posted. Counted as posted before it stops
    /// counting as in flight, so a thread in ``deliveryEnded()`` always sees one or the other.
    func completionPosted() {
        postedCompletions.add(1, ordering: .relaxed)
        transfersInFlight.subtract(1, ordering: .relaxed)
    }

    /// The posted completion's block started; ends the timing of a chained wait.
    func completionStarted() {
        postedCompletions.subtract(1, ordering: .relaxed)
        let start = chainedWaitStart.exchange(0, ordering: .relaxed)
        if start != 0 {
            lastChainedWait.store(DispatchTime.now().uptimeNanoseconds &- start, ordering: .relaxed)
        }
    }

    // MARK: Waits

    /// How long a delivering thread stays awake for the next completion (see the type's
    /// documentation for the why of each case).
    /// - Parameters:
    ///   - transfersInFlight: the engine's transfers whose completion is not posted yet.
    ///   - lastChainedWait: the last measured chained wait in nanoseconds; 0 when none was.
    static func warmth(transfersInFlight: Int, lastChainedWait: UInt64) -> UInt64 {
        guard transfersInFlight == 1, lastChainedWait > 0 else { return sharedWarmth }
        return lastChainedWait <= chainedWaitLimit ? chainWarmth : 0
    }

    /// At the end of a delivery made in a transfer's completion block: stays on the processor,
    /// yielding, until the next completion is posted, nothing is in flight any more, or the
    /// ``warmth(transfersInFlight:lastChainedWait:)`` passed — on marked queues, with
    /// ``waitsByYielding``, only.
    func deliveryEnded() {
        let inFlight = transfersInFlight.load(ordering: .relaxed)
        guard waitsByYielding, inFlight > 0, postedCompletions.load(ordering: .relaxed) == 0,
              DispatchQueue.getSpecific(key: DeliveryScheduler.key) != nil else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        if inFlight == 1 { chainedWaitStart.store(now, ordering: .relaxed) }
        let budget = DeliveryScheduler.warmth(transfersInFlight: inFlight,
                                              lastChainedWait: lastChainedWait.load(ordering: .relaxed))
        guard budget > 0 else { return }
        let deadline = now + budget
        while transfersInFlight.load(ordering: .relaxed) > 0, postedCompletions.load(ordering: .relaxed) == 0,
              DispatchTime.now().uptimeNanoseconds < deadline {
            sched_yield()
        }
    }
}

extension HTTPClient {
    /// A serial queue for completions that clients with ``DeliveryTuning/automatic`` delivery
    /// treat as their own: its thread stays awake for a moment after a delivery while other
    /// requests are in flight, so that a request sent from a completion gets its own
    /// completion without waiting for libdispatch to wake a parked thread (about 20 µs on a
    /// small machine) — up to 50 µs with several requests in flight; up to 200 µs for the one
    /// request of a chain while its round trips take at most 150 µs, and not at all when they
    /// take longer. The default callback queues of ``HTTPClient``, Chain and AFStyle are made
    /// this way. Never holds the thread when nothing else is in flight, when the process may
    /// run on one processor only (its affinity mask, as `taskset` sets it), or for a client
    /// whose delivery is ``DeliveryTuning/off``.
    package static func makeCallbackQueue(label: String) -> DispatchQueue {
        let queue = DispatchQueue(label: label)
        DeliveryScheduler.mark(queue)
        return queue
    }
}
