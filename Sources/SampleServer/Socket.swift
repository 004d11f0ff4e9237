import Glibc

/// Why a socket operation failed. Internal: a connection thread that sees one just ends.
enum SocketError: Error {
    /// The peer closed (or reset) the connection, or `stop()` shut it down.
    case closed
    /// Any other failure, with its `errno`.
    case failed(call: String, errno: Int32)
}

/// A thin wrapper over a connected socket's file descriptor (TCP or Unix-domain). It does not
/// own the descriptor: the connection thread closes it, after unregistering it from the
/// server, so `stop()` can never shut down a descriptor number that has been reused.
package struct Socket {
    package let fd: Int32

    /// Reads at most `buffer.count` bytes; 0 means the peer closed its side.
    func receive(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let n = recv(fd, base, buffer.count, 0)
            if n >= 0 { return n }
            switch errno {
            case EINTR: continue
            case ECONNRESET, EPIPE, ENOTCONN, EAGAIN, ETIMEDOUT: throw SocketError.closed
            case let code: throw SocketError.failed(call: "recv", errno: code)
            }
        }
    }

    /// Writes every byte, retrying short writes. `MSG_NOSIGNAL` because a library must not
    /// let a vanished client raise SIGPIPE and kill the host process.
    func sendAll(_ bytes: UnsafeRawBufferPointer) throws {
        guard var base = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let n = send(fd, base, remaining, Int32(MSG_NOSIGNAL))
            if n > 0 {
                base += n
                remaining -= n
                continue
            }
            if n < 0 && errno == EINTR { continue }
            switch errno {
            case EPIPE, ECONNRESET, ENOTCONN, EAGAIN, ETIMEDOUT: throw SocketError.closed
            case let code: throw SocketError.failed(call: "send", errno: code)
            }
        }
    }

    /// Writes every byte of `bytes`.
    package func sendAll(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in try sendAll(raw) }
    }

    /// Writes the UTF-8 bytes of `text`.
    func sendAll(_ text: String) throws {
        try sendAll(Array(text.utf8))
    }

    /// Small responses go out in one segment instead of being held back by Nagle's algorithm.
    func setNoDelay() {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Makes a blocking read give up after `seconds`, so an idle client cannot pin a thread forever.
    func setReceiveTimeout(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// With a zero linger time `close` sends a RST instead of a FIN (the /fault/reset route).
    package func setLingerZero() {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Half-closes the write side, so the client sees the end of the response.
    package func shutdownWrite() {
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
    }
}
