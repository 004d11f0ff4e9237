import Dispatch
import Foundation

// Streamed responses: the body as it arrives instead of in one piece. A streamed request
// bypasses the response cache, in-flight coalescing and the in-memory size limit (its bounded
// buffer stands in for the limit); it reports to the hooks (will send, progress, finish) like
// every request, and once part of its body was read it is never retried.
extension Request {
    /// The default bound on the bytes a stream buffers while its consumer is behind: 1 MiB.
    public static let defaultStreamBufferSize = 1 << 20
    /// The default limit on one line of ``lines(bufferSize:lineLimit:)`` and
    /// ``jsonLines(_:bufferSize:lineLimit:)``: 1 MiB.
    public static let defaultLineLimit = 1 << 20

    /// The response body as it arrives, chunk by chunk. Nothing is sent until the loop starts.
    ///
    /// ```swift
    /// for try await chunk in Request.url("https://example.com/log").chunks() { write(chunk) }
    /// ```
    ///
    /// - Parameter bufferSize: bytes that may wait unread before the transfer pauses
    ///   (`CURL_WRITEFUNC_PAUSE`) until the loop catches up. Default 1 MiB
    ///   (``defaultStreamBufferSize``).
    /// - Returns: a sequence to read once; see ``ResponseChunks`` for cancellation and errors.
    public func chunks(bufferSize: Int = Request.defaultStreamBufferSize) -> ResponseChunks {
        ResponseChunks(source: streamSource(bufferSize: bufferSize))
    }

    /// The response body as UTF-8 lines, split on LF and CRLF.
    ///
    /// - Parameters:
    ///   - bufferSize: bytes that may wait unread before the transfer pauses. Default 1 MiB.
    ///   - lineLimit: bytes in one line; a longer one fails with
    ///     ``NetworkError/Kind/responseTooLarge``. Default 1 MiB (``defaultLineLimit``).
    /// - Returns: a sequence to read once; see ``ResponseLines``.
    public func lines(bufferSize: Int = Request.defaultStreamBufferSize,
                      lineLimit: Int = Request.defaultLineLimit) -> ResponseLines {
        ResponseLines(source: streamSource(bufferSize: bufferSize), lineLimit: lineLimit)
    }

    /// A newline-delimited JSON body, each non-empty line decoded as `type` with the request's
    /// decoder (FastJSON by default).
    ///
    /// ```swift
    /// for try await entry in Request.url("/logs").jsonLines(LogEntry.self) { print(entry.message) }
    /// ```
    ///
    /// - Parameters:
    ///   - type: the type of one line.
    ///   - bufferSize: bytes that may wait unread before the transfer pauses. Default 1 MiB.
    ///   - lineLimit: bytes in one line. Default 1 MiB.
    /// - Returns: a sequence to read once; see ``JSONLines``.
    public func jsonLines<T: Decodable & Sendable>(_ type: T.Type, bufferSize: Int = Request.defaultStreamBufferSize,
                                                   lineLimit: Int = Request.defaultLineLimit) -> JSONLines<T> {
        JSONLines(source: streamSource(bufferSize: bufferSize), lineLimit: lineLimit,
                  decoding: decoding ?? effectiveConfiguration.decoding)
    }

    /// The response as server-sent events (`text/event-stream`), reconnecting after a dropped
    /// connection with `Last-Event-ID`. Sends `Accept: text/event-stream` unless the request
    /// sets `Accept`.
    ///
    /// ```swift
    /// for try await event in Request.url("/chat").method(.post).params(prompt).events() {
    ///     print(event.data, terminator: "")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - reconnect: when to connect again. Default ``EventReconnection/automatic`` (the
    ///     server's `retry`, else 3 s, with backoff); `.never` to end with the first connection.
    ///   - bufferSize: bytes that may wait unread before the transfer pauses. Default 1 MiB.
    /// - Returns: a sequence to read once; see ``ServerSentEvents``.
    public func events(reconnect: EventReconnection = .automatic,
                       bufferSize: Int = Request.defaultStreamBufferSize) -> ServerSentEvents {
        ServerSentEvents(source: streamSource(bufferSize: bufferSize, isEventStream: true), reconnection: reconnect)
    }

    /// Starts the request and hands its body to `onChunk` as it arrives, then calls `completion`
    /// once: with the response head (an empty body) after the last chunk, or with the error. Both
    /// run on the callback queue, in order; the buffer is bounded as for ``chunks(bufferSize:)``
    /// (the transfer pauses while `onChunk` is behind).
    ///
    /// - Parameters:
    ///   - bufferSize: bytes that may wait unread before the transfer pauses. Default 1 MiB.
    ///   - onChunk: one chunk of the body.
    ///   - completion: the head, or the ``NetworkError`` (``NetworkError/Kind/cancelled`` after
    ///     `cancel()` on the task). Exactly once.
    /// - Returns: the task, to cancel the request.
    @discardableResult
    public func stream(bufferSize: Int = Request.defaultStreamBufferSize,
                       onChunk: @escaping @Sendable (Data) -> Void,
                       completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) -> HTTPTask {
        let connection = StreamConnection.start(self, bufferSize: bufferSize)
        connection.stream.forward(to: connection.queue, onChunk: onChunk, completion: completion)
        return connection.task
    }

    /// Starts the request as ``events(reconnect:bufferSize:)`` does and hands each event to
    /// `onEvent`, then calls `completion` once: with the last head when the stream ended
    /// normally (a 204, or the end without reconnection), or with the error. Both run on the
    /// callback queue, in order.
    ///
    /// - Parameters:
    ///   - reconnect: when to connect again. Default ``EventReconnection/automatic``.
    ///   - bufferSize: bytes that may wait unread before the transfer pauses. Default 1 MiB.
    ///   - onEvent: one event.
    ///   - completion: the last head, or the ``NetworkError`` (``NetworkError/Kind/cancelled``
    ///     after `cancel()` on the task). Exactly once.
    /// - Returns: the task, to cancel the stream and any reconnection.
    @discardableResult
    public func events(reconnect: EventReconnection = .automatic, bufferSize: Int = Request.defaultStreamBufferSize,
                       onEvent: @escaping @Sendable (ServerSentEvent) -> Void,
                       completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) -> HTTPTask {
        let source = streamSource(bufferSize: bufferSize, isEventStream: true)
        let first = source.startNow()
        let events = ServerSentEvents(source: source, reconnection: reconnect)
        let queue = first.queue
        let task = HTTPTask(originalRequest: first.task.originalRequest)
        let reader = Task.detached {
            var iterator = events.makeAsyncIterator()
            let result: Result<HTTPResponse, NetworkError>
            do throws(NetworkError) {
                while let event = try await iterator.next() {
                    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                        queue.async {
                            onEvent(event)
                            done.resume()
                        }
                    }
                }
                result = .success(try await source.head())
            } catch {
                result = .failure(error)
            }
            queue.async {
                switch result {
                case .success(let head): task.markCompleted(response: head)
                case .failure(let error): task.markCompleted(response: error.response)
                }
                completion(result)
            }
        }
        if !task.attach(request: first.task.originalRequest, cancel: { reader.cancel(); source.cancel() }) {
            reader.cancel()
            source.cancel()
        }
        return task
    }

    /// The source of a streamed response, connecting on first use.
    func streamSource(bufferSize: Int, isEventStream: Bool = false) -> StreamSource {
        StreamSource { [self] lastEventID in
            StreamConnection.start(self, bufferSize: bufferSize) { request in
                guard isEventStream else { return }
                if !request.headers.contains("Accept") { request.headers.add(name: "Accept", value: "text/event-stream") }
                if let lastEventID {
                    request.headers.remove(name: "Last-Event-ID")
                    request.headers.add(name: "Last-Event-ID", value: lastEventID)
                }
            }
        }
    }
}
