import Foundation

/// A newline-delimited JSON body (NDJSON, JSON Lines), one value per line:
/// ``Request/jsonLines(_:bufferSize:lineLimit:)``.
///
/// Each non-empty line is decoded with the request's decoder (FastJSON unless
/// ``Request/decoding(_:)`` or the configuration says otherwise); blank lines are skipped. A
/// line that does not decode fails with ``NetworkError/Kind/decodingFailed`` whose message
/// names the line number, and cancels the request. Otherwise as ``ResponseLines``.
public struct JSONLines<T: Decodable & Sendable>: AsyncSequence, Sendable {
    /// One decoded line.
    public typealias Element = T
    /// Every failure is a ``NetworkError``.
    public typealias Failure = NetworkError

    let source: StreamSource
    let lineLimit: Int
    let decoding: JSONDecoding

    /// The response head once it arrived (see ``ResponseChunks/head``).
    /// - Throws: the request's ``NetworkError`` when it failed before a response was accepted.
    public var head: HTTPResponse {
        get async throws(NetworkError) { try await source.head() }
    }

    /// Starts reading. A second iterator fails at once with ``NetworkError/Kind/invalidRequest``.
    public func makeAsyncIterator() -> Iterator {
        Iterator(lines: LineReader(iteration: StreamIteration(source: source), lineLimit: lineLimit), decoding: decoding)
    }

    /// Decodes the lines in order.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        var lines: LineReader
        let decoding: JSONDecoding

        /// The next value, or `nil` once the body ended.
        /// - Throws: ``NetworkError``.
        public mutating func next() async throws(NetworkError) -> T? {
            try await nextValue()
        }

        /// The next value, or `nil` once the body ended.
        /// - Throws: ``NetworkError``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> T? {
            try await nextValue()
        }

        private mutating func nextValue() async throws(NetworkError) -> T? {
            while let (line, number) = try await lines.next() {
                guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
                do {
                    return try decoding.decode(T.self, from: line)
                } catch {
                    lines.iteration.source.cancel()
                    var failure = NetworkError.decoding(error, type: T.self)
                    failure.message = "line \(number): \(failure.message)"
                    throw failure
                }
            }
            return nil
        }
    }
}
