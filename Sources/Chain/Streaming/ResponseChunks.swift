import Foundation

/// A response body as it arrives, chunk by chunk: ``Request/chunks(bufferSize:)``.
///
/// Read once, by one loop. The request starts when the loop starts (or when ``head`` is first
/// asked for). Ending the loop early, or cancelling the Swift task, cancels the request. A
/// status the request's validation refuses fails the loop with
/// ``NetworkError/Kind/unacceptableStatus(_:)`` before any chunk, with the (bounded) error body
/// on ``NetworkError/response``, decoded by the request's error-body decoder when it has one.
public struct ResponseChunks: AsyncSequence, Sendable {
    /// A chunk of the body, as large as libcurl delivered it (usually up to 16 KiB).
    public typealias Element = Data
    /// Every failure is a ``NetworkError``.
    public typealias Failure = NetworkError

    let source: StreamSource

    /// The response head (status, headers, HTTP version; an empty body) once it arrived.
    /// Starts the request if the loop has not.
    /// - Throws: the request's ``NetworkError`` when it failed before a response was accepted.
    public var head: HTTPResponse {
        get async throws(NetworkError) { try await source.head() }
    }

    /// Starts reading. A second iterator fails at once with ``NetworkError/Kind/invalidRequest``.
    public func makeAsyncIterator() -> Iterator {
        Iterator(iteration: StreamIteration(source: source))
    }

    /// Reads the chunks in order.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        let iteration: StreamIteration

        /// The next chunk, or `nil` once the body ended.
        /// - Throws: ``NetworkError``.
        public mutating func next() async throws(NetworkError) -> Data? {
            try await iteration.connection().next()
        }

        /// The next chunk, or `nil` once the body ended.
        /// - Throws: ``NetworkError``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> Data? {
            try await iteration.connection().next()
        }
    }
}
