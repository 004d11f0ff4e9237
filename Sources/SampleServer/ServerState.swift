/// Everything about a running server that several threads touch. Lives in the one
/// `Mutex` of `ServerContext`; nothing here is accessed any other way.
struct ServerState {
    /// Set once by `stop()`; the listener and connection threads check it before taking new work.
    var stopped = false
    /// Descriptors of open connections, so `stop()` can shut them down.
    var openConnections: Set<Int32> = []
    var acceptedConnections = 0
    var requestCount = 0
    /// `/flaky/{key}`: how many requests each key has seen.
    var flakyAttempts: [String: Int] = [:]
    /// `/retry-after`: keys that have already been answered 503.
    var retryAfterKeys: Set<String> = []
    /// `/auth/*`: the serial of the current bearer token (`t-N`).
    var tokenSerial = 0
    /// `/digest-auth/*`: the nonces of the latest challenges, oldest first (bounded, so a
    /// long-running server does not grow without end).
    var digestNonces: [String] = []
    /// `/gzip-bomb`: compressed bodies by uncompressed size, computed once.
    var gzipBombs: [Int: [UInt8]] = [:]
}
