import Foundation

/// A response body as UTF-8 lines, split on LF and CRLF (the line ends removed; invalid UTF-8
/// becomes U+FFFD): ``Request/lines(bufferSize:lineLimit:)``.
///
/// Read once, by one loop, with the behaviour of ``ResponseChunks`` (lazy start, cancel on
/// early exit, validation before the first line). A final line without a line end is returned
/// too. A line longer than the limit fails with ``NetworkError/Kind/responseTooLarge`` and
/// cancels the request.
public struct ResponseLines: AsyncSequence, Sendable {
    /// One line, without its line end.
    public typealias Element = String
    /// Every failure is a ``NetworkError``.
    public typealias Failure = NetworkError

    let source: StreamSource
    let lineLimit: Int

    /// The response head once it arrived (see ``ResponseChunks/head``).
    /// - Throws: the request's ``NetworkError`` when it failed before a response was accepted.
    public var head: HTTPResponse {
        get async throws(NetworkError) { try await source.head() }
    }

    /// Starts reading. A second iterator fails at once with ``NetworkError/Kind/invalidRequest``.
    public func makeAsyncIterator() -> Iterator {
        Iterator(lines: LineReader(iteration: StreamIteration(source: source), lineLimit: lineLimit))
    }

    /// Reads the lines in order.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        var lines: LineReader

        /// The next line, or `nil` once the body ended.
        /// - Throws: ``NetworkError``.
        public mutating func next() async throws(NetworkError) -> String? {
            try await lines.next().map { String(decoding: $0.line, as: UTF8.self) }
        }

        /// The next line, or `nil` once the body ended.
        /// - Throws: ``NetworkError``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> String? {
            try await lines.next().map { String(decoding: $0.line, as: UTF8.self) }
        }
    }
}

/// The lines of a streamed body, with their numbers: what ``ResponseLines`` and
/// ``JSONLines`` read.
struct LineReader: Sendable {
    let iteration: StreamIteration
    private var splitter: LineSplitter
    private var pending: [Data] = []
    private var index = 0
    private var isDone = false
    /// The number of the first line in `pending`.
    private var firstNumber = 1

    init(iteration: StreamIteration, lineLimit: Int) {
        self.iteration = iteration
        splitter = LineSplitter(limit: lineLimit)
    }

    /// The next line and its 1-based number, or `nil` at the end.
    mutating func next() async throws(NetworkError) -> (line: Data, number: Int)? {
        while index == pending.count {
            guard !isDone else { return nil }
            firstNumber += pending.count
            pending = []
            index = 0
            let connection = try iteration.connection()
            do throws(NetworkError) {
                if let chunk = try await connection.next() {
                    pending = try splitter.split(chunk)
                } else {
                    isDone = true
                    if let last = try splitter.finish() { pending = [last] }
                }
            } catch {
                isDone = true
                // A line over the limit: the rest of the body is not wanted.
                if error.kind == .responseTooLarge { iteration.source.cancel() }
                throw error
            }
        }
        defer { index += 1 }
        return (pending[index], firstNumber + index)
    }
}
