import Foundation
import Synchronization

/// The receiving end of a streamed response body: the transport hands it the body of an
/// accepted response chunk by chunk instead of collecting it, and one consumer takes the chunks
/// out, at its own pace.
///
/// Backpressure: while ``bufferLimit`` bytes or more wait unread, ``offer(_:)`` refuses the next
/// chunk and the transport pauses the transfer (libcurl keeps the chunk and offers it again);
/// once the consumer has read the buffer down to half the limit, the stream calls the resume
/// closure the transport gave it in ``open(_:resume:)``. So at most `bufferLimit` plus one
/// chunk is held, however slow the consumer.
///
/// Only a response the ``acceptance`` accepts is streamed: the body of any other (an error, a
/// redirect the pipeline follows) is collected as usual, within the request's size limit, and
/// the stream ends with the pipeline's error. The end of the stream is the call's result,
/// given to ``finish(_:)`` by the front end, after every chunk of the transfer was offered.
///
/// Threads: ``open(_:resume:)`` and ``offer(_:)`` run on the transport's loop thread; the
/// consumer's methods on any one task or queue at a time; all state sits behind one lock.
package final class ResponseStream: Sendable, Hashable {
    /// What the consumer gets next.
    package enum Element: Sendable {
        case chunk(Data)
        /// The end: the call's result (the head with an empty body on success).
        case end(Result<HTTPResponse, NetworkError>)
    }

    private struct State {
        var chunks: [Data] = []
        /// The first unread chunk in `chunks`.
        var readIndex = 0
        var bufferedBytes = 0
        var head: HTTPResponse?
        var ending: Result<HTTPResponse, NetworkError>?
        var isPaused = false
        var resume: (@Sendable () -> Void)?
        var waiter: CheckedContinuation<Element, Never>?
        var batchWaiter: ResponseStream.BatchHandler?
        var headWaiters: [CheckedContinuation<Result<HTTPResponse, NetworkError>, Never>] = []

        var hasUnread: Bool { readIndex < chunks.count }

        /// Takes the next chunk, compacting the array once half of it was read.
        mutating func popChunk() -> Data {
            let chunk = chunks[readIndex]
            // Released now, not at the next compaction: read chunks must not count twice
            // against the memory a slow consumer holds.
            chunks[readIndex] = Data()
            readIndex += 1
            bufferedBytes -= chunk.count
            if readIndex == chunks.count {
                chunks.removeAll(keepingCapacity: true)
                readIndex = 0
            } else if readIndex > 64, readIndex * 2 > chunks.count {
                chunks.removeFirst(readIndex)
                readIndex = 0
            }
            return chunk
        }

        /// Every unread chunk, leaving the buffer empty; their bytes still count against the
        /// limit until ``ResponseStream/batchDelivered(_:)``, so a callback form holds no more
        /// than an iterator.
        mutating func takeAll() -> [Data] {
            let all = Array(chunks[readIndex...])
            chunks.removeAll(keepingCapacity: true)
            readIndex = 0
            return all
        }

        /// The resume closure to call (outside the lock) when the consumer read enough.
        mutating func resumeIfDrained(limit: Int) -> (@Sendable () -> Void)? {
            guard isPaused, bufferedBytes <= limit / 2 else { return nil }
            isPaused = false
            return resume
        }
    }

    /// Bytes that may wait unread before the transfer pauses.
    package let bufferLimit: Int
    /// Which responses are streamed; any other is collected and fails the call as usual.
    package let acceptance: StatusAcceptance
    private let state = Mutex(State())

    /// - Parameters:
    ///   - bufferLimit: bytes that may wait unread; at least 1 (smaller values are raised to it).
    ///   - acceptance: the statuses whose body is streamed.
    package init(bufferLimit: Int, acceptance: StatusAcceptance) {
        self.bufferLimit = max(1, bufferLimit)
        self.acceptance = acceptance
    }

    package static func == (lhs: ResponseStream, rhs: ResponseStream) -> Bool { lhs === rhs }
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// Whether a response was accepted and its body began to stream: from then on the call
    /// must not be retried, since the consumer may have read part of it.
    package var hasStarted: Bool { state.withLock { $0.head != nil } }

    // MARK: The transport's side (loop thread)

    /// Starts streaming `head`'s body; `resume` asks the transport (from any thread) to resume
    /// a transfer that ``offer(_:)`` paused. A second call (a later hop) is ignored.
    package func open(_ head: HTTPResponse, resume: @escaping @Sendable () -> Void) {
        let waiters = state.withLock { state -> [CheckedContinuation<Result<HTTPResponse, NetworkError>, Never>] in
            guard state.head == nil, state.ending == nil else { return [] }
            state.head = head
            state.resume = resume
            defer { state.headWaiters = [] }
            return state.headWaiters
        }
        for waiter in waiters { waiter.resume(returning: .success(head)) }
    }

    /// Takes a chunk of the body; `false` (the chunk not taken) when the buffer is full and the
    /// transfer must pause. Chunks after the end are taken and dropped.
    package func offer(_ bytes: UnsafeRawBufferPointer) -> Bool {
        enum Handoff { case none, chunk(CheckedContinuation<Element, Never>, Data), batch(ResponseStream.BatchHandler, Data) }
        let limit = bufferLimit
        let (taken, handoff) = state.withLock { state -> (Bool, Handoff) in
            guard state.ending == nil else { return (true, .none) }
            if state.bufferedBytes >= limit {
                state.isPaused = true
                return (false, .none)
            }
            let chunk = Data(bytes)
            if let waiter = state.waiter {
                state.waiter = nil
                return (true, .chunk(waiter, chunk))
            }
            if let waiter = state.batchWaiter {
                state.batchWaiter = nil
                return (true, .batch(waiter, chunk))
            }
            state.chunks.append(chunk)
            state.bufferedBytes += chunk.count
            return (true, .none)
        }
        switch handoff {
        case .none: break
        case .chunk(let waiter, let chunk): waiter.resume(returning: .chunk(chunk))
        case .batch(let waiter, let chunk): waiter(([chunk], nil))
        }
        return taken
    }

    // MARK: The front end's side

    /// Ends the stream with the call's result (after the transfer's last chunk was offered).
    /// Later calls are ignored. A success without a streamed head (an empty body) becomes the head.
    package func finish(_ result: Result<HTTPResponse, NetworkError>) {
        let (ending, handoff) = state.withLock { state -> (Result<HTTPResponse, NetworkError>, Handoff?) in
            if let ending = state.ending { return (ending, nil) }
            var ending = result
            if case .success(let response) = result {
                var head = state.head ?? response
                head.timings = response.timings
                head.body = Data()
                ending = .success(head)
                if state.head == nil {
                    state.head = head
                    // A body that was not streamed (a stub's answer) is the stream's one chunk.
                    if !response.body.isEmpty {
                        state.chunks.append(response.body)
                        state.bufferedBytes += response.body.count
                    }
                }
            }
            state.ending = ending
            state.resume = nil
            var handoff = Handoff(headWaiters: state.headWaiters)
            state.headWaiters = []
            // A waiting consumer gets what is there: the one chunk, else the end.
            if let waiter = state.waiter.take() {
                handoff.waiter = (waiter, state.hasUnread ? .chunk(state.popChunk()) : .end(ending))
            }
            if let waiter = state.batchWaiter.take() {
                handoff.batchWaiter = (waiter, state.hasUnread ? (state.takeAll(), nil) : ([], ending))
            }
            return (ending, handoff)
        }
        guard let handoff else { return }
        if let (waiter, element) = handoff.waiter { waiter.resume(returning: element) }
        if let (waiter, batch) = handoff.batchWaiter { waiter(batch) }
        for headWaiter in handoff.headWaiters { headWaiter.resume(returning: ending) }
    }

    /// The continuations ``finish(_:)`` resumes, with what each gets.
    private struct Handoff {
        var headWaiters: [CheckedContinuation<Result<HTTPResponse, NetworkError>, Never>]
        var waiter: (CheckedContinuation<Element, Never>, Element)?
        var batchWaiter: (ResponseStream.BatchHandler,
                          ([Data], Result<HTTPResponse, NetworkError>?))?
    }

    /// The next chunk, or the end once every chunk was read; waits while neither has arrived.
    /// One consumer at a time.
    package func next() async -> Element {
        let limit = bufferLimit
        return await withCheckedContinuation { (continuation: CheckedContinuation<Element, Never>) in
            let (element, resume) = state.withLock { state -> (Element?, (@Sendable () -> Void)?) in
                if state.hasUnread {
                    let chunk = state.popChunk()
                    return (.chunk(chunk), state.resumeIfDrained(limit: limit))
                }
                if let ending = state.ending { return (.end(ending), nil) }
                guard state.waiter == nil, state.batchWaiter == nil else { return (.end(.failure(ResponseStream.readConcurrently)), nil) }
                state.waiter = continuation
                // Nothing unread: a paused transfer may go on.
                return (nil, state.resumeIfDrained(limit: limit))
            }
            resume?()
            if let element { continuation.resume(returning: element) }
        }
    }

    /// Every chunk waiting (at least one), or the end when nothing is left; waits while neither
    /// has arrived. The callback forms take chunks this way, one queue hop per batch.
    package func nextBatch() async -> (chunks: [Data], end: Result<HTTPResponse, NetworkError>?) {
        await withCheckedContinuation { (continuation: CheckedContinuation<([Data], Result<HTTPResponse, NetworkError>?), Never>) in
            nextBatch { continuation.resume(returning: $0) }
        }
    }

    /// What waits for the next batch: called once, with the chunks there (or the end), on the
    /// thread that has them — the transport's, when the batch was waited for.
    package typealias BatchHandler = @Sendable (([Data], Result<HTTPResponse, NetworkError>?)) -> Void

    /// ``nextBatch()`` without a task: `handler` gets the batch at once when there is one,
    /// else when it comes. It must not run caller code in place (it may be on the transport's
    /// thread): the callback forms hop to their queue.
    package func nextBatch(_ handler: @escaping BatchHandler) {
        let (batch, resume) = state.withLock { state -> (([Data], Result<HTTPResponse, NetworkError>?)?, (@Sendable () -> Void)?) in
            if state.hasUnread { return ((state.takeAll(), nil), nil) }
            if let ending = state.ending { return (([], ending), nil) }
            guard state.waiter == nil, state.batchWaiter == nil else { return (([], .failure(ResponseStream.readConcurrently)), nil) }
            state.batchWaiter = handler
            return (nil, state.resumeIfDrained(limit: bufferLimit))
        }
        resume?()
        if let batch { handler(batch) }
    }

    /// Marks a batch from ``nextBatch()`` as handed over: its bytes stop counting against the
    /// limit, and a paused transfer may go on.
    package func batchDelivered(_ chunks: [Data]) {
        let bytes = chunks.reduce(0) { $0 + $1.count }
        let limit = bufferLimit
        let resume = state.withLock { state -> (@Sendable () -> Void)? in
            state.bufferedBytes -= bytes
            return state.resumeIfDrained(limit: limit)
        }
        resume?()
    }

    static let readConcurrently = NetworkError(.invalidRequest, "a streamed response was read by two tasks at once; read it from one")

    /// The response head once a response was accepted (its body empty), or the call's error
    /// when it failed first; waits until one of them is known.
    package func head() async -> Result<HTTPResponse, NetworkError> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPResponse, NetworkError>, Never>) in
            let known = state.withLock { state -> Result<HTTPResponse, NetworkError>? in
                if let head = state.head { return .success(head) }
                if let ending = state.ending { return ending }
                state.headWaiters.append(continuation)
                return nil
            }
            if let known { continuation.resume(returning: known) }
        }
    }

    /// The head, if a response was accepted already.
    package var currentHead: HTTPResponse? { state.withLock { $0.head } }
}
