import Dispatch
import Synchronization

/// Lets identical `GET` and `HEAD` requests that are in flight at the same time share one
/// transfer: the first starts it, later ones subscribe, and all get the same response.
///
/// A subscriber that cancels leaves (and gets its cancelled error); the transfer itself is
/// cancelled only when its last subscriber leaves. Once a group finished or emptied, the next
/// identical request starts a new transfer. Progress reaches every subscriber that asked for
/// it, on its own queue, provided the first subscriber asked for progress too (libcurl's
/// progress callback is only installed then).
final class TransferCoalescer: Sendable {
    private struct Subscriber {
        let id: UInt64
        let queue: DispatchQueue
        let progress: (@Sendable (TransferProgress) -> Void)?
        let completion: @Sendable (Result<HTTPResponse, NetworkError>) -> Void
    }

    private struct Group {
        let id: UInt64
        /// The subscriber that started the transfer: its callbacks already arrive on its queue.
        let leaderID: UInt64
        let transfer: CurlTransfer
        var subscribers: [Subscriber]
    }

    /// Groups by every field of the request. The key is a plain struct stored in the dictionary,
    /// so comparing keys never reads a request's shared box across threads.
    private let groups = Mutex<[HTTPRequest.Fields: Group]>([:])
    private let nextID = Atomic<UInt64>(0)

    /// Whether sharing a transfer is safe for this request: no body, nothing written to disk.
    static func canCoalesce(_ request: HTTPRequest) -> Bool {
        (request.method == .get || request.method == .head) && request.body == .none && request.download == nil
    }

    /// Joins the group for `request` or starts one. Returns the transfer to hand to the engine
    /// (only for a new group) and the action that cancels this subscriber.
    func join(_ request: HTTPRequest, target: TransferTarget, engine: CurlEngine, queue: DispatchQueue,
              progress: (@Sendable (TransferProgress) -> Void)?,
              completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void)
        -> (newTransfer: CurlTransfer?, cancel: @Sendable () -> Void) {
        let key = request.fields
        let subscriber = Subscriber(id: nextID.add(1, ordering: .relaxed).newValue, queue: queue,
                                    progress: progress, completion: completion)
        // The group's identity is chosen before taking the lock so the transfer's closures can name it.
        let candidateID = nextID.add(1, ordering: .relaxed).newValue
        var fanOutProgress: (@Sendable (TransferProgress) -> Void)?
        if progress != nil {
            fanOutProgress = { @Sendable [self] value in
                fanOut(progress: value, key: key, groupID: candidateID)
            }
        }
        let fanOutCompletion: @Sendable (Result<HTTPResponse, NetworkError>) -> Void = { [self] result in
            fanOut(result: result, key: key, groupID: candidateID)
        }
        let (groupID, newTransfer) = groups.withLock { groups -> (UInt64, CurlTransfer?) in
            if var group = groups[key] {
                group.subscribers.append(subscriber)
                groups[key] = group
                return (group.id, nil)
            }
            let transfer = CurlTransfer(request: request, target: target, handoff: engine.handoff, callbackQueue: queue,
                                        progress: fanOutProgress, completion: fanOutCompletion)
            groups[key] = Group(id: candidateID, leaderID: subscriber.id, transfer: transfer, subscribers: [subscriber])
            return (candidateID, transfer)
        }
        let cancel: @Sendable () -> Void = { [self] in
            leave(key, groupID: groupID, subscriberID: subscriber.id, engine: engine)
        }
        return (newTransfer, cancel)
    }

    private func leave(_ key: HTTPRequest.Fields, groupID: UInt64, subscriberID: UInt64, engine: CurlEngine) {
        let (leaving, orphanedTransfer) = groups.withLock { groups -> (Subscriber?, CurlTransfer?) in
            guard var group = groups[key], group.id == groupID,
                  let index = group.subscribers.firstIndex(where: { $0.id == subscriberID }) else { return (nil, nil) }
            let leaving = group.subscribers.remove(at: index)
            if group.subscribers.isEmpty {
                groups[key] = nil
                return (leaving, group.transfer)
            }
            groups[key] = group
            return (leaving, nil)
        }
        if let orphanedTransfer { engine.cancel(orphanedTransfer) }
        if let leaving {
            leaving.queue.async { leaving.completion(.failure(NetworkError(.cancelled, "the request was cancelled"))) }
        }
    }

    private func subscribers(of key: HTTPRequest.Fields, groupID: UInt64, removing: Bool) -> (leaderID: UInt64, [Subscriber]) {
        groups.withLock { groups in
            guard let group = groups[key], group.id == groupID else { return (0, []) }
            if removing { groups[key] = nil }
            return (group.leaderID, group.subscribers)
        }
    }

    private func fanOut(result: Result<HTTPResponse, NetworkError>, key: HTTPRequest.Fields, groupID: UInt64) {
        // Only the leader's callbacks may run in place: anyone else may have blocks (its
        // will-send hook) still queued on its queue, even when that queue is the leader's.
        let (leaderID, subscribers) = subscribers(of: key, groupID: groupID, removing: true)
        for subscriber in subscribers {
            if subscriber.id == leaderID {
                subscriber.completion(result)
            } else {
                subscriber.queue.async { subscriber.completion(result) }
            }
        }
    }

    private func fanOut(progress: TransferProgress, key: HTTPRequest.Fields, groupID: UInt64) {
        let (leaderID, subscribers) = subscribers(of: key, groupID: groupID, removing: false)
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
