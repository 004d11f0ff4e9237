import Glibc

/// Reads a chunked response through a `RawClient` one chunk at a time, noting when each
/// arrived, so the streaming tests can see how a body was cut into chunks and that a piece
/// arrived before the next was written (`RawClient.readResponse` only gives the whole body).
final class ChunkedReader {
    let client: RawClient
    /// When the latest chunk (or head) was complete.
    private(set) var lastArrival = ContinuousClock.now

    init(_ client: RawClient) {
        self.client = client
    }

    /// Reads a response head; the body is left for `nextChunk()`.
    func readHead() throws -> RawResponse {
        let head = try client.readHead()
        lastArrival = .now
        return head
    }

    /// The next chunk's data; nil after the zero-size chunk (and any trailers). Throws
    /// `ClientError.closed` when the server closes first.
    func nextChunk() throws -> [UInt8]? {
        let chunk = try client.nextChunk()
        lastArrival = .now
        return chunk
    }

    /// Every remaining chunk up to the zero-size one.
    func remainingChunks() throws -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        while let chunk = try nextChunk() { chunks.append(chunk) }
        return chunks
    }

    /// The local TCP port of the client's socket (0 if it cannot be read).
    var localPort: UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(client.fd, $0, &length) }
        }
        return result == 0 ? UInt16(bigEndian: address.sin_port) : 0
    }
}
