/// Buffered input from a connection: request heads and chunk-size lines are parsed out of the
/// buffer, body bytes are handed out in pieces without being accumulated.
/// Lives on its connection's thread only.
final class SocketReader {
    /// Why reading a line or a head failed.
    enum LineError: Error {
        /// More than the allowed bytes arrived without a line (or head) terminator.
        case tooLong
        /// The peer closed in the middle of a line or head.
        case truncated
    }

    private let socket: Socket
    /// Unread bytes are `storage[start...]`; compacted lazily so consuming is O(1).
    private var storage: [UInt8] = []
    private var start = 0
    private let scratch: UnsafeMutableRawBufferPointer

    /// The bytes received but not consumed yet.
    var bufferedCount: Int { storage.count - start }

    init(socket: Socket, receiveBufferSize: Int = 64 * 1024) {
        self.socket = socket
        scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: receiveBufferSize, alignment: 16)
    }

    deinit {
        scratch.deallocate()
    }

    /// Receives more bytes into the buffer; `false` when the peer has closed.
    private func fill() throws -> Bool {
        if start > 0 && (start == storage.count || start >= 32 * 1024) {
            storage.removeFirst(start)
            start = 0
        }
        let n = try socket.receive(into: scratch)
        if n == 0 { return false }
        storage.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<n]))
        return true
    }

    /// Reads a request head: everything up to and including the first empty line.
    /// Returns nil when the peer closed cleanly before sending anything (the normal end of a
    /// keep-alive connection). Empty lines before the request line are skipped (RFC 9112 §2.2).
    func readHead(limit: Int) throws -> [UInt8]? {
        var scanned = 0
        while true {
            // Skip leading CRLFs left over from a previous request.
            while start < storage.count && (storage[start] == 0x0d || storage[start] == 0x0a) && scanned == 0 {
                start += 1
            }
            if let end = headEnd(from: scanned) {
                if end > limit { throw LineError.tooLong }
                let head = Array(storage[start..<(start + end)])
                start += end
                return head
            }
            scanned = max(0, bufferedCount - 3)
            if bufferedCount > limit { throw LineError.tooLong }
            if try !fill() {
                if bufferedCount == 0 { return nil }
                throw LineError.truncated
            }
        }
    }

    /// The length of the head (through the blank line) if the buffer holds one; the scan
    /// resumes at `from` so a slowly arriving head is not rescanned from the start.
    private func headEnd(from: Int) -> Int? {
        storage.withUnsafeBufferPointer { buffer -> Int? in
            var index = start + from
            while index < buffer.count {
                if buffer[index] == 0x0a {
                    // "\n\n" or "\n\r\n" ends the head.
                    if index + 1 < buffer.count && buffer[index + 1] == 0x0a { return index + 2 - start }
                    if index + 2 < buffer.count && buffer[index + 1] == 0x0d && buffer[index + 2] == 0x0a {
                        return index + 3 - start
                    }
                }
                index += 1
            }
            return nil
        }
    }

    /// Reads one line without its terminator ("\r\n" or a bare "\n").
    func readLine(limit: Int) throws -> [UInt8] {
        var scanned = 0
        while true {
            if let newline = storage[(start + scanned)...].firstIndex(of: 0x0a) {
                var end = newline
                if end > start && storage[end - 1] == 0x0d { end -= 1 }
                let line = Array(storage[start..<end])
                start = newline + 1
                return line
            }
            scanned = bufferedCount
            if bufferedCount > limit { throw LineError.tooLong }
            if try !fill() { throw LineError.truncated }
        }
    }

    /// Hands at most `max` bytes to `body`: buffered bytes first, otherwise straight from one
    /// `recv` (no copy). Returns how many were handed over; 0 means the peer closed.
    func read(max: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        guard max > 0 else { return 0 }
        if bufferedCount > 0 {
            let count = Swift.min(max, bufferedCount)
            try storage.withUnsafeBytes { raw in
                try body(UnsafeRawBufferPointer(rebasing: raw[start..<(start + count)]))
            }
            start += count
            return count
        }
        let window = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<Swift.min(max, scratch.count)])
        let n = try socket.receive(into: window)
        if n > 0 { try body(UnsafeRawBufferPointer(rebasing: scratch[0..<n])) }
        return n
    }
}
