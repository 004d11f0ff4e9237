import Foundation
import Synchronization

/// A request body produced while it is sent — from an `AsyncSequence` of `Data` or an
/// `InputStream` — in bounded memory (``HTTPBody/stream(_:)``).
///
/// One-shot: its bytes are read once. A request with a stream body is never retried, never
/// re-sent by the transport on a fresh connection, and a `307`/`308` redirect, which would need
/// the body again, fails with ``NetworkError/Kind/invalidRequest``. With an unknown ``length``
/// the body goes out with `Transfer-Encoding: chunked` over HTTP/1.1 (HTTP/2 frames it itself);
/// with a known one as `Content-Length`, and a source that produces more or fewer bytes fails
/// the request with ``NetworkError/Kind/invalidRequest``.
///
/// The transport reads the bytes on its loop thread; the producer runs elsewhere (a task for a
/// sequence, a global queue for an input stream, whose reads may block) and waits while
/// `bufferLimit` bytes are unread. All state sits behind one lock.
public final class BodyStream: Sendable, Hashable, CustomStringConvertible {
    /// What the transport gets from ``read(into:)``.
    package enum ReadResult: Sendable, Equatable {
        /// That many bytes were copied.
        case bytes(Int)
        /// Nothing yet: pause, the resume closure is called when bytes (or the end) arrive.
        case pause
        /// The body is complete.
        case end
        /// The source failed.
        case failed(NetworkError)
    }

    private enum Source: Sendable {
        case sequence(@Sendable (BodyStream) async -> Void)
        case inputStream(InputStreamBox)
    }

    private struct State {
        /// Produced bytes; those before `readOffset` were read (dropped at compaction, so the
        /// storage stays within about twice the limit).
        var buffer = Data()
        var readOffset = 0
        var unread: Int { buffer.count - readOffset }
        var isStarted = false
        var isEnded = false
        var error: NetworkError?
        var produced: Int64 = 0
        /// The transport returned ``ReadResult/pause`` and waits for the resume closure.
        var isConsumerWaiting = false
        var resume: (@Sendable () -> Void)?
        /// The producer waits for room; calling this lets it go on.
        var parkedProducer: (@Sendable () -> Void)?
        var isCancelled = false
        /// The task iterating a sequence, cancelled with the body.
        var producerTask: Task<Void, Never>?
    }

    /// The body's length, sent as `Content-Length`; `nil` when unknown (sent chunked).
    public let length: Int64?
    /// Bytes the producer may run ahead of the transport: 256 KiB.
    package let bufferLimit = 256 * 1024
    private let source: Source
    private let state = Mutex(State())

    /// A body made of the chunks of `sequence`, read as the transfer needs them.
    /// - Parameters:
    ///   - sequence: the chunks, in order; a thrown error fails the request with
    ///     ``NetworkError/Kind/invalidRequest`` naming it (a ``NetworkError`` is passed on as it is).
    ///   - length: the total byte count if known (sent as `Content-Length`), else `nil`. Default `nil`.
    public init<Chunks: AsyncSequence & Sendable>(_ sequence: Chunks, length: Int64? = nil) where Chunks.Element == Data {
        self.length = length
        source = .sequence({ stream in
            do {
                for try await chunk in sequence {
                    guard await stream.produce(chunk) else { return }
                }
                stream.produceEnd(error: nil)
            } catch {
                stream.produceEnd(error: error as? NetworkError
                    ?? NetworkError(.invalidRequest, "the request body stream failed: \(error)", underlyingError: SendableDescription(error)))
            }
        })
    }

    /// A body read from `inputStream` (opened and closed here) in chunks of up to 64 KiB.
    /// - Parameters:
    ///   - inputStream: the stream; not touched by anything else while the request runs.
    ///   - length: the total byte count if known (sent as `Content-Length`), else `nil`. Default `nil`.
    public init(inputStream: InputStream, length: Int64? = nil) {
        self.length = length
        source = .inputStream(InputStreamBox(inputStream))
    }

    public static func == (lhs: BodyStream, rhs: BodyStream) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { "BodyStream(\(length.map { "\($0) bytes" } ?? "length unknown"))" }

    /// Whether the transport began reading it: it cannot be sent again.
    package var hasStarted: Bool { state.withLock { $0.isStarted } }

    static let sentOnce = NetworkError(.invalidRequest,
                                       "the request body is a stream, which is sent once: it cannot be sent again (use a Data or file body for a request that may be retried or redirected with 307/308)")

    // MARK: The transport's side (loop thread)

    /// Starts the producer; `resume` is called (on any thread) when the transport may read again
    /// after a ``ReadResult/pause``.
    /// - Throws: ``NetworkError/Kind/invalidRequest`` when it was started before (a second send).
    package func start(resume: @escaping @Sendable () -> Void) throws(NetworkError) {
        let isFirst = state.withLock { state in
            guard !state.isStarted else { return false }
            state.isStarted = true
            state.resume = resume
            return true
        }
        guard isFirst else { throw BodyStream.sentOnce }
        switch source {
        case .sequence(let run):
            let task = Task.detached { [self] in await run(self) }
            let isCancelled = state.withLock { state in
                state.producerTask = task
                return state.isCancelled
            }
            if isCancelled { task.cancel() }
        case .inputStream(let box):
            DispatchQueue.global().async { [self] in pumpInputStream(box) }
        }
    }

    /// Copies up to `buffer.count` bytes.
    package func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        let (result, producer) = state.withLock { state -> (ReadResult, (@Sendable () -> Void)?) in
            if let error = state.error { return (.failed(error), nil) }
            if state.isCancelled { return (.failed(NetworkError(.cancelled, "the request body stream was cancelled")), nil) }
            if state.unread == 0 {
                if state.isEnded { return (.end, nil) }
                state.isConsumerWaiting = true
                return (.pause, state.parkedProducer.take())
            }
            state.isConsumerWaiting = false
            let count = min(buffer.count, state.unread)
            state.buffer.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress, let target = buffer.baseAddress else { return }
                target.copyMemory(from: base + state.readOffset, byteCount: count)
            }
            state.readOffset += count
            if state.readOffset == state.buffer.count {
                state.buffer.removeAll(keepingCapacity: true)
                state.readOffset = 0
            } else if state.readOffset >= bufferLimit {
                state.buffer = Data(state.buffer[state.readOffset...])
                state.readOffset = 0
            }
            let producer = state.unread <= bufferLimit / 2 ? state.parkedProducer.take() : nil
            return (.bytes(count), producer)
        }
        producer?()
        return result
    }

    /// Stops the producer (the transfer ended before the body did).
    package func cancel() {
        let (producer, task) = state.withLock { state in
            state.isCancelled = true
            state.resume = nil
            return (state.parkedProducer.take(), state.producerTask.take())
        }
        task?.cancel()
        producer?()
    }

    // MARK: The producer's side

    /// Appends a chunk, waiting while the buffer is full; `false` once the body failed or was
    /// cancelled (the producer stops).
    private func produce(_ chunk: Data) async -> Bool {
        while true {
            enum Step { case stop, wait, appended((@Sendable () -> Void)?) }
            let step: Step = state.withLock { state in
                if state.isCancelled || state.error != nil { return .stop }
                guard state.unread < bufferLimit else { return .wait }
                return .appended(append(chunk, to: &state))
            }
            switch step {
            case .stop: return false
            case .appended(let resume):
                resume?()
                return state.withLock { $0.error == nil }
            case .wait:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let parked = state.withLock { state -> Bool in
                        // Room may have been made, or the body cancelled, since the check.
                        guard state.unread >= bufferLimit, !state.isCancelled else { return false }
                        state.parkedProducer = { continuation.resume() }
                        return true
                    }
                    if !parked { continuation.resume() }
                }
            }
        }
    }

    /// Adds `chunk` under the lock, checking the announced length; the resume closure to call.
    private func append(_ chunk: Data, to state: inout State) -> (@Sendable () -> Void)? {
        state.produced += Int64(chunk.count)
        if let length, state.produced > length {
            state.error = NetworkError(.invalidRequest, "the request body stream produced more than the \(length) bytes announced")
        } else {
            state.buffer.append(chunk)
        }
        return wakeConsumer(&state)
    }

    /// The end of the source, with its failure if any.
    private func produceEnd(error: NetworkError?) {
        let resume = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.isEnded else { return nil }
            state.isEnded = true
            if state.error == nil {
                if let error {
                    state.error = error
                } else if let length, state.produced != length {
                    state.error = NetworkError(.invalidRequest,
                                               "the request body stream ended after \(state.produced) of the \(length) bytes announced")
                }
            }
            return wakeConsumer(&state)
        }
        resume?()
    }

    private func wakeConsumer(_ state: inout State) -> (@Sendable () -> Void)? {
        guard state.isConsumerWaiting else { return nil }
        state.isConsumerWaiting = false
        return state.resume
    }

    /// Reads the input stream on a global queue, parking (returning) while the buffer is full;
    /// the transport's next read schedules it again.
    private func pumpInputStream(_ box: InputStreamBox) {
        let stream = box.stream
        if stream.streamStatus == .notOpen { stream.open() }
        let chunkSize = 64 * 1024
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let mayRead = state.withLock { state -> Bool? in
                if state.isCancelled || state.error != nil { return nil }
                guard state.unread < bufferLimit else {
                    state.parkedProducer = { DispatchQueue.global().async { [self] in pumpInputStream(box) } }
                    return false
                }
                return true
            }
            guard let mayRead else {
                stream.close()
                return
            }
            guard mayRead else { return }
            let count = stream.read(&chunk, maxLength: chunkSize)
            if count > 0 {
                let resume = state.withLock { append(Data(chunk[0..<count]), to: &$0) }
                resume?()
            } else {
                let failure = count < 0 ? NetworkError(.fileIO, "the request body's input stream failed: \(stream.streamError.map { "\($0)" } ?? "read error")") : nil
                stream.close()
                produceEnd(error: failure)
                return
            }
        }
    }
}

/// An `InputStream`, which is not `Sendable`, carried to the one queue that reads it.
private final class InputStreamBox: @unchecked Sendable {
    // Why @unchecked Sendable: the stream is used by one pump at a time — the pump parks itself
    // before another can be scheduled — and by nothing else once the body owns it.
    let stream: InputStream

    init(_ stream: InputStream) {
        self.stream = stream
    }
}

/// A description of an error that is not `Sendable`, kept as a ``NetworkError``'s underlying error.
private struct SendableDescription: Error, Sendable, CustomStringConvertible {
    let description: String

    init(_ error: any Error) {
        description = String(describing: error)
    }
}
