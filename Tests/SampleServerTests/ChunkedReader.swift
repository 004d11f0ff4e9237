import Glibc

/// Reads a chunked response off a `RawClient`'s socket one chunk at a time, noting when each
/// arrived, so the streaming tests can see how a body was cut into chunks and that a piece
/// arrived before the next was written (`RawClient.readResponse` only gives the whole body).
/// Uses the client's socket directly, so the client must not read from it as well.
final class ChunkedReader {
    let client: RawClient
    private var buffer: [UInt8] = []
    /// When the latest chunk (or head) was complete in the buffer.
    private(set) var lastArrival = ContinuousClock.now

    init(_ client: RawClient) {
        self.client = client
    }

    /// Reads a response head; the body is left for `nextChunk()`.
    func readHead() throws -> RawResponse {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { throw ClientError.malformed("status line \(statusLine)") }
        var response = RawResponse(status: status, headers: [], body: [])
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw ClientError.malformed("header \(line)") }
            response.headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters()))
        }
        lastArrival = .now
        return response
    }

    /// The next chunk's data; nil after the zero-size chunk (and any trailers). Throws
    /// `ClientError.closed` when the server closes first.
    func nextChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
            throw ClientError.malformed("chunk size \(sizeLine)")
        }
        if size == 0 {
            while try !readLine().isEmpty {}
            lastArrival = .now
            return nil
        }
        while buffer.count < size + 2 {
            guard try fill() else { throw ClientError.closed }
        }
        guard buffer[size] == 0x0d, buffer[size + 1] == 0x0a else { throw ClientError.malformed("chunk end") }
        let data = Array(buffer[..<size])
        buffer.removeFirst(size + 2)
        lastArrival = .now
        return data
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

    private func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 0x0a) {
                var line = Array(buffer[..<newline])
                if line.last == 0x0d { line.removeLast() }
                buffer.removeFirst(newline + 1)
                return String(decoding: line, as: UTF8.self)
            }
            guard try fill() else { throw ClientError.closed }
        }
    }

    /// Receives more bytes; `false` at EOF or after a reset.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                return true
            }
            if n == 0 { return false }
            switch errno {
            case EINTR: continue
            case EAGAIN: throw ClientError.timedOut
            default: return false
            }
        }
    }
}
