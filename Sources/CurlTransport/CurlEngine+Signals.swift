import Foundation

extension CurlEngine {
    /// Readies the calling thread, the loop thread (the only one that calls libcurl): names it
    /// `name` for the system, and blocks `SIGPIPE` on it.
    ///
    /// Transfers set `CURLOPT_NOSIGNAL` (libcurl must not touch signals in a threaded process),
    /// and libcurl then leaves `SIGPIPE` to the application: a write to a peer that has gone —
    /// a TLS shutdown, a corner case libcurl's docs admit, or a download written into a pipe —
    /// would kill the host process. Blocked on this thread, such a write fails with `EPIPE`
    /// instead, and the process's own disposition of the signal is left as the app set it.
    /// The system name (at most 15 bytes, written to `/proc/thread-self/comm`) is what `top -H`,
    /// `gdb` and `/proc` show; Foundation's `Thread.name` does not set it on Linux.
    static func prepareLoopThread(named name: String) {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = Array(name.utf8.prefix(15)).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
