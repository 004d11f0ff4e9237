import Foundation

/// A `text/event-stream` response as server-sent events, reconnecting as the HTML
/// specification's `EventSource` does: ``Request/events(reconnect:bufferSize:)``.
///
/// Read once, by one loop, with the behaviour of ``ResponseChunks`` (lazy start, cancel on
/// early exit or task cancel, validation before the first event). A response whose
/// `Content-Type` is not `text/event-stream` fails with ``NetworkError/Kind/invalidResponse``.
/// With reconnection (the default, ``EventReconnection/automatic``) the loop goes on across
/// dropped connections; each reconnection is reported to the hooks
/// (``HTTPHook/willReconnect(_:reconnection:)``) and is a new call. The loop ends normally
/// when the server answers 204, or, without reconnection, when the body ends.
public struct ServerSentEvents: AsyncSequence, Sendable {
    /// One event.
    public typealias Element = ServerSentEvent
    /// Every failure is a ``NetworkError``.
    public typealias Failure = NetworkError

    let source: StreamSource
    let reconnection: EventReconnection

    /// The head of the current connection once it arrived (see ``ResponseChunks/head``).
    /// - Throws: the request's ``NetworkError`` when it failed before a response was accepted.
    public var head: HTTPResponse {
        get async throws(NetworkError) { try await source.head() }
    }

    /// Starts reading. A second iterator fails at once with ``NetworkError/Kind/invalidRequest``.
    public func makeAsyncIterator() -> Iterator {
        Iterator(iteration: StreamIteration(source: source), reconnection: reconnection)
    }

    /// Reads the events in order, reconnecting as the policy says.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        let iteration: StreamIteration
        let reconnection: EventReconnection
        private var parser = ServerSentEventParser()
        private var pending: [ServerSentEvent] = []
        private var index = 0
        private var isDone = false
        /// Reconnections in a row without an event.
        private var attempt = 0
        private var hasCheckedContentType = false

        init(iteration: StreamIteration, reconnection: EventReconnection) {
            self.iteration = iteration
            self.reconnection = reconnection
        }

        /// The next event, or `nil` once the stream ended.
        /// - Throws: ``NetworkError``.
        public mutating func next() async throws(NetworkError) -> ServerSentEvent? {
            try await nextEvent()
        }

        /// The next event, or `nil` once the stream ended.
        /// - Throws: ``NetworkError``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> ServerSentEvent? {
            try await nextEvent()
        }

        private mutating func nextEvent() async throws(NetworkError) -> ServerSentEvent? {
            while index == pending.count {
                guard !isDone else { return nil }
                pending = []
                index = 0
                let connection = try iteration.connection()
                let ending: NetworkError?
                do throws(NetworkError) {
                    if let chunk = try await connection.next() {
                        try checkContentType(of: connection)
                        pending = try parser.parse(chunk)
                        continue
                    }
                    ending = nil
                } catch {
                    ending = error
                }
                try await connectionEnded(connection, error: ending)
            }
            attempt = 0
            defer { index += 1 }
            return pending[index]
        }

        /// `text/event-stream` or the stream fails (the specification's "fail the connection").
        private mutating func checkContentType(of connection: StreamConnection) throws(NetworkError) {
            guard !hasCheckedContentType, let head = connection.stream.currentHead else { return }
            hasCheckedContentType = true
            let type = head.headers["Content-Type"]?.split(separator: ";").first?
                .trimmingCharacters(in: .whitespaces).lowercased()
            guard type == "text/event-stream" else {
                iteration.source.cancel()
                throw NetworkError(.invalidResponse,
                                   "the server answered with Content-Type \(type ?? "(none)"), not text/event-stream",
                                   response: head)
            }
        }

        /// The end of one connection: stop, fail or connect again.
        private mutating func connectionEnded(_ connection: StreamConnection, error: NetworkError?) async throws(NetworkError) {
            parser.finish()
            if let error, !Iterator.reconnects(after: error) {
                isDone = true
                if error.kind == .responseTooLarge { iteration.source.cancel() }
                throw error
            }
            if error == nil {
                // A head that came with no body was not checked yet.
                try checkContentTypeUnlessNoContent(connection)
                if connection.stream.currentHead?.statusCode == 204 {
                    isDone = true
                    return
                }
            }
            attempt += 1
            guard reconnection.allows(attempt: attempt) else {
                isDone = true
                if let error { throw error }
                return
            }
            let delay = reconnection.delay(attempt: attempt, serverRetry: parser.reconnectionTime)
            let lastEventID = parser.lastEventID.isEmpty ? nil : parser.lastEventID
            report(StreamReconnection(attempt: attempt, delay: delay, lastEventID: lastEventID, error: error), on: connection)
            do {
                try await Task.sleep(nanoseconds: EventReconnection.nanoseconds(delay))
            } catch {
                isDone = true
                iteration.source.cancel()
                throw StreamSource.cancelled
            }
            guard iteration.source.reconnect(lastEventID: lastEventID) != nil else {
                isDone = true
                throw StreamSource.cancelled
            }
            hasCheckedContentType = false
            parser.restart()
        }

        private mutating func checkContentTypeUnlessNoContent(_ connection: StreamConnection) throws(NetworkError) {
            guard connection.stream.currentHead?.statusCode != 204 else { return }
            try checkContentType(of: connection)
        }

        private func report(_ reconnection: StreamReconnection, on connection: StreamConnection) {
            let hooks = connection.hooks
            guard !hooks.isEmpty else { return }
            let context = HookContext(id: PipelineIDs.next(), request: connection.task.currentRequest, origin: "Chain")
            connection.queue.async { hooks.forEach { $0.willReconnect(context, reconnection: reconnection) } }
        }

        /// Whether a connection that failed with `error` is worth making again: a dropped or
        /// refused connection is, a refused answer or a cancel is not.
        static func reconnects(after error: NetworkError) -> Bool {
            switch error.kind {
            case .dnsFailure, .cannotConnect, .timedOut, .connectionLost, .truncatedResponse, .transport: true
            default: false
            }
        }
    }
}
