import Dispatch
import HTTPCore
import Synchronization

/// Lets identical `GET` and `HEAD` requests that are in flight at the same time, and deliver on
/// the same callback queue, share one transfer: the first starts it, later ones subscribe, and
/// all get the same response.
///
/// Only requests for the same queue share: the engine delivers a transfer's result on one
/// queue, the starter's, so a subscriber on another queue would depend on that queue being
/// free — and a blocking call whose thread holds it (the main thread, or a completion on the
/// callback queue) would wait for itself forever. Subscribers on one queue depend on nothing
/// but their own queue.
///
/// A subscriber that cancels leaves (and gets its cancelled error); the transfer itself is
/// cancelled only when its last subscriber leaves. Once a group finished or emptied, the next
/// identical request starts a new transfer. Progress reaches every subscriber that asked for
/// it, on its own queue, provided the first subscriber asked for progress too (libcurl's
/// progress callback is only installed then).
///
/// Every `GET` passes through here, almost always as the only member of its group, so the
/// lone case is kept cheap: the request's hash is worked out once, a group is one object that
/// the transfer's callbacks capture (no per-request copies of the request's fields), and
/// finishing removes it by identity, without comparing requests.
final class TransferCoalescer: Sendable {
    fileprivate struct Subscriber {
        let id: UInt64
        let queue: DispatchQueue
        let progress: (@Sendable (TransferProgress) -> Void)?
        let completion: @Sendable (Result<HTTPResponse, NetworkError>) -> Void
    }

    /// The groups new identical requests may still join, by the hash of their request (its
    /// method and URL, like ``HTTPRequest``), each bucket a list chained through
    /// `Group.nextWithSameHash`. Keyed by an `Int`, so a lookup never compares whole
    /// requests unless one with the same method and URL is in flight, and removing a group
    /// goes by identity. A group holds the request's fields as a plain struct, so comparing
    /// them never reads a request's shared box across threads.
    private let groups = Mutex<[Int: Group]>([:])
    private let nextID = Atomic<UInt64>(0)

    /// Whether sharing a transfer is safe for this request: no body, nothing written to disk.
    static func canCoalesce(_ request: HTTPRequest) -> Bool {
        (request.method == .get || request.method == .head) && request.body == .none && request.download == nil
            && request.responseStream == nil
    }

    /// Joins the group for `request` and `sharingQueue` or starts one. Returns the transfer to
    /// hand to the engine (only for a new group) and the action that cancels this subscriber.
    /// - Parameters:
    ///   - queue: where this subscriber's callbacks run.
    ///   - sharingQueue: the caller's callback queue, which `queue` runs on (itself, or a serial
    ///     queue of one call that targets it); only subscribers with the same one share.
    func join(_ request: HTTPRequest, target: TransferTarget, engine: CurlEngine, queue: DispatchQueue,
              sharingQueue: DispatchQueue, progress: (@Sendable (TransferProgress) -> Void)?,
              completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void)
        -> (newTransfer: CurlTransfer?, cancel: @Sendable () -> Void) {
        let fields = request.fields
        let hash = fields.hashValue
        let subscriber = Subscriber(id: nextID.add(1, ordering: .relaxed).newValue, queue: queue,
                                    progress: progress, completion: completion)
        let (group, newTransfer) = groups.withLock { groups -> (Group, CurlTransfer?) in
            let first = groups[hash]
            var candidate = first
            while let group = candidate {
                if group.sharingQueue === sharingQueue, group.fields == fields {
                    group.subscribers.append(subscriber)
                    return (group, nil)
                }
                candidate = group.nextWithSameHash
            }
            let group = Group(fields: fields, hash: hash, sharingQueue: sharingQueue, leader: subscriber, coalescer: self)
            var fanOutProgress: (@Sendable (TransferProgress) -> Void)?
            if progress != nil {
                fanOutProgress = { @Sendable [group] value in group.fanOut(progress: value) }
            }
            let fanOutResult: @Sendable (Result<HTTPResponse, NetworkError>) -> Void = { [group] result in
                group.fanOut(result: result)
            }
            // A request made once the response is in must not get it: the group closes to new
            // joiners on the loop thread as the result is settled, not when the starter's
            // queue gets round to its completion.
            let transfer = CurlTransfer(request: request, target: target, scheduler: engine.scheduler, callbackQueue: queue,
                                        batchesCompletion: queue === sharingQueue, progress: fanOutProgress, didFinish: { [group] in group.close() },
                                        completion: fanOutResult)
            group.transfer = transfer
            group.nextWithSameHash = first
            groups[hash] = group
            return (group, transfer)
        }
        let cancel: @Sendable () -> Void = { [self] in
            leave(group, subscriberID: subscriber.id, engine: engine)
        }
        return (newTransfer, cancel)
    }

    private func leave(_ group: Group, subscriberID: UInt64, engine: CurlEngine) {
        let (leaving, orphanedTransfer) = groups.withLock { groups -> (Subscriber?, CurlTransfer?) in
            guard let index = group.subscribers.firstIndex(where: { $0.id == subscriberID }) else { return (nil, nil) }
            let leaving = group.subscribers.remove(at: index)
            guard group.subscribers.isEmpty else { return (leaving, nil) }
            let transfer = group.transfer
            group.unlist(from: &groups)
            return (leaving, transfer)
        }
        if let orphanedTransfer { engine.cancel(orphanedTransfer) }
        if let leaving {
            leaving.queue.async { leaving.completion(.failure(NetworkError(.cancelled, "the request was cancelled"))) }
        }
    }

    /// Runs `body` under the lock that guards every group.
    fileprivate func withGroups<T>(_ body: (inout [Int: Group]) -> T) -> T {
        groups.withLock { body(&$0) }
    }
}

/// One shared transfer and its subscribers.
private final class Group: @unchecked Sendable {
    // Why @unchecked Sendable: `subscribers`, `transfer`, `isListed` and `nextWithSameHash`
    // are read and written only while holding the coalescer's `groups` lock; the rest never
    // changes.
    let fields: HTTPRequest.Fields
    let hash: Int
    /// The callback queue the transfer delivers on (through the leader's queue), and so the
    /// one its subscribers may have.
    let sharingQueue: DispatchQueue
    /// The subscriber that started the transfer: its callbacks already arrive on its queue.
    let leaderID: UInt64
    let coalescer: TransferCoalescer
    var subscribers: [TransferCoalescer.Subscriber]
    var transfer: CurlTransfer?
    /// Whether the dictionary still holds this group (new identical requests join it).
    var isListed = true
    /// The next listed group whose request has the same hash (a different request).
    var nextWithSameHash: Group?

    init(fields: HTTPRequest.Fields, hash: Int, sharingQueue: DispatchQueue, leader: TransferCoalescer.Subscriber,
         coalescer: TransferCoalescer) {
        self.fields = fields
        self.hash = hash
        self.sharingQueue = sharingQueue
        leaderID = leader.id
        self.coalescer = coalescer
        subscribers = [leader]
    }

    /// Takes the group out of the dictionary, once. Call under the lock.
    func unlist(from groups: inout [Int: Group]) {
        guard isListed else { return }
        isListed = false
        if groups[hash] === self {
            groups[hash] = nextWithSameHash
        } else {
            var previous = groups[hash]
            while let group = previous, group.nextWithSameHash !== self { previous = group.nextWithSameHash }
            previous?.nextWithSameHash = nextWithSameHash
        }
        nextWithSameHash = nil
        // The transfer's closures hold the group: letting go of the transfer breaks the cycle.
        transfer = nil
    }

    /// Stops new identical requests from joining (their transfer has its result).
    func close() {
        coalescer.withGroups { unlist(from: &$0) }
    }

    func fanOut(result: Result<HTTPResponse, NetworkError>) {
        let subscribers = coalescer.withGroups { groups in
            unlist(from: &groups)
            let subscribers = self.subscribers
            self.subscribers = []
            return subscribers
        }
        // Only the leader's callbacks may run in place: anyone else may have blocks (its
        // will-send hook) still queued on its queue. The others are posted first, so they do
        // not wait for the leader's completion, which may take long.
        var leader: TransferCoalescer.Subscriber?
        for subscriber in subscribers {
            if subscriber.id == leaderID {
                leader = subscriber
            } else {
                subscriber.queue.async { subscriber.completion(result) }
            }
        }
        leader?.completion(result)
    }

    func fanOut(progress: TransferProgress) {
        let subscribers = coalescer.withGroups { _ in self.subscribers }
        for subscriber in subscribers {
            guard let handler = subscriber.progress else { continue }
            if subscriber.id == leaderID {
                handler(progress)
            } else {
                subscriber.queue.async { handler(progress) }
            }
        }
    }
}
