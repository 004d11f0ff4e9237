import Foundation
import Synchronization

/// What a streaming sequence reads from: the connection, made on first use (the first
/// iterator or the first `head`), remade by an event stream's reconnection; read by one
/// iterator only, and cancelled when that iterator or the last reference goes away.
final class StreamSource: Sendable {
    private struct State {
        var connection: StreamConnection?
        var isClaimed = false
        var isCancelled = false
    }

    private let connect: @Sendable (_ lastEventID: String?) -> StreamConnection
    private let state = Mutex(State())

    /// - Parameter connect: starts a connection; `lastEventID` is `nil` for the first one.
    init(connect: @escaping @Sendable (_ lastEventID: String?) -> StreamConnection) {
        self.connect = connect
    }

    deinit {
        state.withLock { $0.connection }?.task.cancel()
    }

    /// The current connection, started now if there is none; `nil` once cancelled.
    func current() -> StreamConnection? {
        state.withLock { state in state.isCancelled ? nil : connection(in: &state) }
    }

    /// Starts the first connection now (a callback form starts at once).
    func startNow() -> StreamConnection {
        state.withLock { connection(in: &$0) }
    }

    /// The connection in `state`, made first if there is none.
    private func connection(in state: inout State) -> StreamConnection {
        if let connection = state.connection { return connection }
        let connection = connect(nil)
        state.connection = connection
        return connection
    }

    /// Replaces the connection with a new one sending `lastEventID`; `nil` once cancelled.
    func reconnect(lastEventID: String?) -> StreamConnection? {
        state.withLock { state in
            guard !state.isCancelled else { return nil }
            let connection = connect(lastEventID)
            state.connection = connection
            return connection
        }
    }

    /// Whether this is the first iterator: a stream is read once.
    func claim() -> Bool {
        state.withLock { state in
            defer { state.isClaimed = true }
            return !state.isClaimed
        }
    }

    /// Cancels the connection in flight; nothing connects again.
    func cancel() {
        let connection = state.withLock { state in
            state.isCancelled = true
            return state.connection
        }
        connection?.task.cancel()
    }

    /// The head of the current connection.
    /// - Throws: ``NetworkError/Kind/cancelled`` once cancelled, or the call's error.
    func head() async throws(NetworkError) -> HTTPResponse {
        // After the loop ended (which cancels the source) the last connection still knows it.
        let connection = state.withLock { $0.connection } ?? current()
        guard let connection else { throw StreamSource.cancelled }
        return try await connection.head()
    }

    static let cancelled = NetworkError(.cancelled, "the request was cancelled")
    static let alreadyIterated = NetworkError(.invalidRequest,
                                              "this stream was already iterated: a streamed response is read once (make the stream again for a new request)")
}

/// An iterator's hold on its source: when the iterator goes away (the loop ended early, the
/// task was cancelled), the transfer is cancelled.
final class StreamIteration: Sendable {
    let source: StreamSource
    /// Whether this iterator may read (``StreamSource/claim()`` said so).
    let isFirst: Bool

    init(source: StreamSource) {
        self.source = source
        isFirst = source.claim()
    }

    deinit {
        if isFirst { source.cancel() }
    }

    /// The connection to read, started on first use.
    /// - Throws: ``NetworkError/Kind/invalidRequest`` for a second iterator,
    ///   ``NetworkError/Kind/cancelled`` after a cancel.
    func connection() throws(NetworkError) -> StreamConnection {
        guard isFirst else { throw StreamSource.alreadyIterated }
        guard let connection = source.current() else { throw StreamSource.cancelled }
        return connection
    }
}
