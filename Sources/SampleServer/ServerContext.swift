import Dispatch
import Glibc
import Synchronization

/// The shared core of a running server: the listening socket, the stop signal, the thread
/// bookkeeping and the one `Mutex` around `ServerState`. Threads hold this, never the public
/// `SampleServer`, so dropping the last `SampleServer` reference can stop everything.
package final class ServerContext: Sendable {
    /// The TCP port; 0 on a Unix-domain socket.
    let port: UInt16
    /// The socket file of a Unix-domain listener, removed by `stop()`; nil for TCP.
    let unixSocket: UnixSocketFile?
    private let listenFD: Int32
    /// A pipe that becomes readable forever once `stop()` writes to it. Every wait in the
    /// server polls it, so one write wakes the listener and every sleeping route at once.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Entered for the listener and each connection thread; `stop()` waits on it.
    private let threads = DispatchGroup()
    let state = Mutex(ServerState())
    /// What answers each request in place of the sample routes (`MockServer`'s queue and
    /// dispatcher); nil for the sample server itself.
    let handler: (@Sendable (RouteContext) throws -> Response)?

    /// Takes ownership of a bound, listening, non-blocking socket (TCP, or Unix-domain at
    /// `unixSocket`) and the wake pipe.
    init(listenFD: Int32, port: UInt16, unixSocket: UnixSocketFile?, wakeRead: Int32, wakeWrite: Int32,
         handler: (@Sendable (RouteContext) throws -> Response)?) {
        self.handler = handler
        self.listenFD = listenFD
        self.port = port
        self.unixSocket = unixSocket
        self.wakeRead = wakeRead
        self.wakeWrite = wakeWrite
    }

    /// Starts the accept loop on its own thread; `false` if the thread could not be created.
    func startListener() -> Bool {
        threads.enter()
        let started = DetachedThread.start(stackSize: 1 << 20) { [self] in
            acceptLoop()
            threads.leave()
        }
        if !started { threads.leave() }
        return started
    }

    private func acceptLoop() {
        defer { close(listenFD) }
        while true {
            var fds = [pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }

            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                switch errno {
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors: back off briefly instead of spinning on poll.
                    if !wait(seconds: 0.05) { return }
                default:
                    continue
                }
                continue
            }
            // Not inherited by processes the host test might spawn.
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            let serial = state.withLock { state -> Int? in
                guard !state.stopped else { return nil }
                state.openConnections.insert(fd)
                state.acceptedConnections += 1
                return state.acceptedConnections
            }
            guard let serial else {
                close(fd)
                return
            }
            threads.enter()
            let started = DetachedThread.start { [self] in
                Connection(fd: fd, context: self, serial: serial).run()
                closeConnection(fd)
                threads.leave()
            }
            if !started {
                closeConnection(fd)
                threads.leave()
            }
        }
    }

    /// Unregisters, then closes: in that order, so `stop()` never shuts down a reused number.
    private func closeConnection(_ fd: Int32) {
        state.withLock { _ = $0.openConnections.remove(fd) }
        close(fd)
    }

    /// The Host a client without one is taken to have addressed, for echo bodies.
    var defaultHost: String {
        unixSocket == nil ? "127.0.0.1:\(port)" : "localhost"
    }

    /// `true` once `stop()` has been called.
    package var isStopped: Bool { state.withLock { $0.stopped } }

    /// Stops accepting, shuts down every open connection (which wakes threads blocked in
    /// `recv`/`send`), wakes every waiting route, and waits up to `timeout` seconds for all
    /// threads to end. Idempotent; later calls only wait.
    func stop(timeout: Double = 10) {
        let first = state.withLock { state -> Bool in
            let first = !state.stopped
            state.stopped = true
            for fd in state.openConnections { _ = shutdown(fd, Int32(SHUT_RDWR)) }
            return first
        }
        if first {
            // First, so no new client finds the socket file of a server that is going away.
            unixSocket?.remove()
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        }
        // The pipe is left open if threads are still running, since they may be polling it;
        // leaking two descriptors beats racing a reused one.
        if threads.wait(timeout: .now() + timeout) == .success, first {
            close(wakeRead)
            close(wakeWrite)
        }
    }

    /// Sleeps `seconds` (capped at one hour); `false` if `stop()` was called first or meanwhile.
    package func wait(seconds: Double) -> Bool {
        guard seconds > 0 else { return !isStopped }
        let deadline = ContinuousClock.now + .milliseconds(Int64(min(seconds, 3600) * 1000))
        while true {
            guard let milliseconds = Self.millisecondsLeft(until: deadline) else { return !isStopped }
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 1, milliseconds)
            if ready > 0 { return false }
            if ready < 0 && errno != EINTR { return !isStopped }
        }
    }

    /// Blocks until the peer on `fd` closes, or `stop()` (the stalled-response fault).
    /// Anything the peer sends meanwhile is discarded.
    package func waitForPeerClose(_ fd: Int32) {
        var scratch = [UInt8](repeating: 0, count: 4096)
        while true {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            if fds[0].revents != 0 {
                let n = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n == 0 || (n < 0 && errno != EINTR) { return }
            }
        }
    }

    /// After a response that ends the connection: half-close, then read and discard what the
    /// client still sends (for at most a second), so unread request bytes do not make the
    /// kernel answer with a RST that could destroy the response before the client reads it.
    func lingeringClose(_ socket: Socket) {
        socket.shutdownWrite()
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        let deadline = ContinuousClock.now + .seconds(1)
        var discarded = 0
        while discarded < 64 << 20 {
            guard let milliseconds = Self.millisecondsLeft(until: deadline) else { return }
            var fds = [pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 || fds[1].revents != 0 { return }
            let n = scratch.withUnsafeMutableBytes { recv(socket.fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return }
            discarded += n
        }
    }

    /// The time left until `deadline` as a `poll` timeout, rounded up; nil once it has passed.
    private static func millisecondsLeft(until deadline: ContinuousClock.Instant) -> Int32? {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return nil }
        let (seconds, attoseconds) = left.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }
}
