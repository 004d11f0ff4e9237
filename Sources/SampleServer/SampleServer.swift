import Foundation
import Glibc

/// A real HTTP/1.1 server on 127.0.0.1 (or on a Unix-domain socket) for tests, samples and
/// demos. It parses requests (keep-alive by default, `Connection: close`, HTTP/1.0,
/// Content-Length and chunked bodies, `Expect: 100-continue`, a 64 KiB head limit → 431,
/// malformed → 400 and close) and streams large bodies in both directions.
///
/// ```swift
/// let server = try SampleServer()           // a free port
/// defer { server.stop() }
/// let url = server.baseURL.appendingPathComponent("get")
///
/// let local = try SampleServer(unixSocketPath: directory + "/docker.sock")
/// defer { local.stop() }                    // also removes the socket file
/// ```
///
/// JSON responses are `application/json; charset=utf-8`. Routes:
/// - Sample API: `POST /account/login` (form or JSON `username`/`password`; wiki/secret,
///   alice/wonderland, bob/builder; 401/400 `{"error","error_code"}`), `GET /user/{id}`
///   (101–103, else 404 code "1004"), `GET /user/query?q=`.
/// - Envelopes: `GET /envelope/user/{id}`, `/envelope/fail`, `/envelope/fail-string-code`,
///   `GET|POST /envelope/result`, `GET /rank/list`, `/rank/fail`.
/// - Echo (httpbin-like; method, url, path, args, headers, form, json, data, bodyLength,
///   bodySHA256): `/get`, `/post`, `/put`, `/patch`, `/delete`, `/anything/*` (any method),
///   `/headers`, `/status/{code}`, `/delay/{seconds}` (≤ 30), `/response-headers?k=v`.
/// - Redirects: `/redirect/{n}` → … → `/get`, `/redirect-to?url=&status_code=302`, `/redirect-loop`.
/// - Bytes: `/bytes/{n}?seed=` (Range → 206/416), `/stream-bytes/{n}?seed=&chunk_size=`,
///   `/drip?numbytes=10&duration=2&delay=0&code=200`.
/// - Compression: `/gzip`, `/deflate`, `/gzip-bomb?size=` (default 64 MiB of zeros).
/// - Caching: `/etag/{etag}`, `/cache` (Last-Modified Wed, 21 Oct 2015 07:28:00 GMT), `/cache/{seconds}`.
/// - Uploads: `POST /upload` (multipart; each part's name, filename, contentType, size, sha256).
/// - Faults: `/fault/close-mid-body`, `/fault/reset`, `/fault/stall`, `/fault/short-body`,
///   `/fault/long-body`, `/fault/bad-chunked`, `/fault/garbage-status`, `/fault/huge-headers`,
///   `/fault/no-response`.
/// - Streaming (chunked, each piece sent as written): `/stream/sse?count=&drop-after=&retry=&interval-ms=&echo-last-id=1`
///   (resumes after `Last-Event-ID`, 204 when nothing is left), `/stream/ndjson?count=&bad-line=&blank-lines=1`,
///   `/stream/drip?chunks=&size=&interval-ms=`, `/stream/endless?chunk=`, `/stream/tokens?text=&interval-ms=`,
///   `POST /stream/upload` (answers `{"bytes","chunked","sha256"}`).
/// - Docker Engine API subset (fixed data: containers web, db running; migrate exited):
///   `GET /v1.43/info`, `GET /v1.43/containers/json?all=`, `GET /v1.43/containers/{id|name}/json`
///   (unknown: 404 `{"message":"No such container: x"}`).
/// - Helpers (state per server): `/flaky/{key}?failures=1&status=503`,
///   `/retry-after?seconds=1&key=default`, `/auth/protected`, `POST /auth/refresh`, `GET /auth/token`
///   (tokens `t-0`, `t-1`, …).
/// - Authentication (200 `{"authenticated":true,"user":…}` or 401 with a challenge):
///   `/basic-auth/{user}/{passwd}`, `/digest-auth/auth/{user}/{passwd}[/{MD5|SHA-256}]`
///   (`?also-basic=true` offers Basic too, and refuses it), `/ntlm/{user}/{passwd}` (NTLMv2,
///   the handshake on one connection), `/negotiate` (always 401; no Kerberos keytab).
/// - Cookies: `/cookies` (the Cookie fields as `{"cookies":{…}}`), `/cookies/set?name=value&…`
///   and `/cookies/delete?name&…` (Set-Cookie with `Path=/`, then 302 to `/cookies`),
///   `/cookies/set-header?h=<Set-Cookie value>&h=…` (each verbatim, then 200 `{}`).
/// Unknown paths are 404 `{"error":"not found","error_code":"404","path":…}`; a known path
/// with another method is 405 with `Allow`.
///
/// One listener thread accepts; each connection gets its own thread. Dropping the last
/// reference stops the server too, but call `stop()` to know when it is done.
public final class SampleServer: Sendable {
    private let context: ServerContext

    /// The port the server listens on (the kernel's choice when created with port 0); 0 for a
    /// server on a Unix-domain socket.
    public let port: UInt16

    /// `http://127.0.0.1:PORT`, without a trailing slash; `http://localhost` for a server on a
    /// Unix-domain socket (the host a client names there, since the socket file is the address).
    public let baseURL: URL

    /// The socket file a server made with `init(unixSocketPath:)` listens on; nil for TCP.
    public let unixSocketPath: String?

    /// Binds 127.0.0.1:`port` (default 0: a free port chosen by the kernel), listens and
    /// starts accepting. Throws `SampleServerError` if the socket cannot be set up.
    public convenience init(port: UInt16 = 0) throws {
        try self.init(port: port, handler: nil)
    }

    /// A server on 127.0.0.1:`port` whose every request `handler` answers instead of the
    /// sample routes, on the connection's thread — what `ChainTesting`'s `MockServer` is made
    /// of. The connection handling (parsing, keep-alive, framing, 100-continue) is the sample
    /// server's.
    package init(port: UInt16, handler: (@Sendable (RouteContext) throws -> Response)?) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Self.systemError("socket") }
        var succeeded = false
        defer { if !succeeded { close(fd) } }

        var one: Int32 = 1
        // Lets a restarted sample-server rebind at once while old connections sit in TIME_WAIT.
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            throw SampleServerError.bindFailed(port: port, errno: code, message: String(cString: strerror(code)))
        }
        guard listen(fd, 1024) == 0 else { throw Self.systemError("listen") }

        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw Self.systemError("getsockname") }
        let actualPort = UInt16(bigEndian: actual.sin_port)

        guard let url = URL(string: "http://127.0.0.1:\(actualPort)") else {
            throw SampleServerError.systemCallFailed(call: "URL", errno: 0, message: "cannot form the base URL")
        }
        context = try Self.startAccepting(listenFD: fd, port: actualPort, unixSocket: nil, handler: handler)
        succeeded = true
        self.port = actualPort
        self.baseURL = url
        unixSocketPath = nil
    }

    /// Listens on a Unix-domain socket at `unixSocketPath` instead of TCP — the way a local
    /// daemon such as Docker (`/var/run/docker.sock`) is reached. Choose the path in a
    /// directory of your own (a temporary one); it must be at most 107 bytes. A stale socket
    /// file there (nobody accepting on it) is replaced; a live socket (`EADDRINUSE`) or any
    /// other file (`EEXIST`) makes this throw `SampleServerError.unixSocketFailed`. The file is
    /// created with mode 0600 (only this user may connect) and removed by `stop()`. Requests
    /// are served exactly as over TCP, every route included.
    public init(unixSocketPath path: String) throws {
        guard let address = UnixSocketFile.address(for: path) else {
            throw SampleServerError.unixSocketFailed(
                path: path, errno: ENAMETOOLONG,
                message: "the path must be 1 to \(UnixSocketFile.maxPathLength) bytes without NUL")
        }
        if let code = UnixSocketFile.clearStale(at: path, address: address) {
            throw Self.unixError(path, code)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Self.systemError("socket") }
        var file: UnixSocketFile?
        var succeeded = false
        defer {
            if !succeeded {
                close(fd)
                file?.remove()
            }
        }

        var target = address
        let bound = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw Self.unixError(path, errno) }
        file = UnixSocketFile(boundAt: path)
        guard let boundFile = file else { throw Self.unixError(path, ENOENT) }
        // Before `listen`, so no client can connect while the umask's wider mode applies.
        guard chmod(path, 0o600) == 0 else { throw Self.unixError(path, errno) }
        guard listen(fd, 1024) == 0 else { throw Self.systemError("listen") }

        guard let url = URL(string: "http://localhost") else {
            throw SampleServerError.systemCallFailed(call: "URL", errno: 0, message: "cannot form the base URL")
        }
        context = try Self.startAccepting(listenFD: fd, port: 0, unixSocket: boundFile, handler: nil)
        succeeded = true
        self.port = 0
        self.baseURL = url
        unixSocketPath = path
    }

    /// Makes the listener non-blocking, creates the wake pipe and starts the accept thread.
    /// On failure `listenFD` is left to the caller to close.
    private static func startAccepting(listenFD fd: Int32, port: UInt16, unixSocket: UnixSocketFile?,
                                       handler: (@Sendable (RouteContext) throws -> Response)?) throws -> ServerContext {
        // Non-blocking so an accept after poll cannot hang if the client already gave up.
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { throw Self.systemError("fcntl") }

        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else { throw Self.systemError("pipe") }
        for pipeFD in pipeFDs { _ = fcntl(pipeFD, F_SETFD, FD_CLOEXEC) }

        let context = ServerContext(listenFD: fd, port: port, unixSocket: unixSocket,
                                    wakeRead: pipeFDs[0], wakeWrite: pipeFDs[1], handler: handler)
        guard context.startListener() else {
            close(pipeFDs[0])
            close(pipeFDs[1])
            throw SampleServerError.threadStartFailed
        }
        return context
    }

    deinit {
        context.stop()
    }

    /// The number of connections accepted since start (tests use it to check reuse).
    public var acceptedConnections: Int {
        context.state.withLock { $0.acceptedConnections }
    }

    /// The number of requests whose head was parsed since start (malformed ones not included).
    public var requestCount: Int {
        context.state.withLock { $0.requestCount }
    }

    /// Closes the listener (and removes its Unix socket file) and every open connection,
    /// wakes every waiting route (delays, stalls, drips) and waits (up to 10 s) for all server threads to end. Idempotent and
    /// safe from any thread except a server thread.
    public func stop() {
        context.stop()
    }

    /// The bytes `/bytes/{count}?seed={seed}` serves, starting at `offset` (default 0, as for
    /// a `Range: bytes=offset-` request), so tests can compare. `seed` defaults to 0.
    /// A non-positive `count` gives no bytes; a negative `offset` counts as 0.
    public static func deterministicBytes(count: Int, seed: UInt64 = 0, offset: Int = 0) -> [UInt8] {
        DeterministicBytes.bytes(count: count, seed: seed, offset: offset)
    }

    private static func unixError(_ path: String, _ code: Int32) -> SampleServerError {
        .unixSocketFailed(path: path, errno: code, message: String(cString: strerror(code)))
    }

    private static func systemError(_ call: String) -> SampleServerError {
        let code = errno
        return .systemCallFailed(call: call, errno: code, message: String(cString: strerror(code)))
    }
}
