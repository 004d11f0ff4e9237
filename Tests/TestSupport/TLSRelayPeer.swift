import Foundation

/// TLS in front of a plain TCP peer: `Tests/TestSupport/tls_relay.py` (Python stdlib) accepts
/// TLS on a free port of 127.0.0.1 with ``TestCA/serverCertificate`` (ALPN `http/1.1`) and
/// relays each connection to 127.0.0.1:``targetPort``. In front of a ``TinyproxyPeer`` it
/// makes an `https://` proxy (tinyproxy speaks no TLS, and nginx-light has no stream
/// module). Stopped by ``stop()``, when this object goes away, or with the test process.
public final class TLSRelayPeer: Sendable {
    /// The TLS port on 127.0.0.1.
    public let port: Int
    /// The plain port on 127.0.0.1 each connection is relayed to.
    public let targetPort: Int
    /// The CA whose server certificate the relay presents.
    public let ca: TestCA
    /// The peer's directory (its log), removed by ``stop()``.
    public let directory: URL
    /// The relay's log: one line `handshake` per connection whose TLS handshake completed.
    public let logFile: URL
    private let process: PeerProcess

    /// The script beside this file (the sources are where the tests run).
    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("tls_relay.py")

    /// The CA certificate to trust for the relay (``TestCA/certificate``).
    public var caFile: URL { ca.certificate }

    /// `https://host:port`, e.g. a proxy URL. Default host `127.0.0.1` (the certificate also
    /// names `localhost`, `chain.test` and `*.chain.test`).
    public func url(host: String = "127.0.0.1") -> URL {
        URL(string: "https://\(host):\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// Starts a relay to `targetPort` from async code, off the concurrency pool. Default: the
    /// process's ``TestCA/shared()``.
    /// - Throws: ``TestFailure`` with the relay's output when it does not start.
    public static func start(targetPort: Int, ca: TestCA? = nil) async throws -> TLSRelayPeer {
        try await offPool { Result { try TLSRelayPeer(targetPort: targetPort, ca: ca) } }.get()
    }

    /// Starts a relay in front of `proxy` (an `https://` proxy) from async code. Default: the
    /// process's ``TestCA/shared()``.
    /// - Throws: ``TestFailure`` with the relay's output when it does not start.
    public static func start(inFrontOf proxy: TinyproxyPeer, ca: TestCA? = nil) async throws
        -> TLSRelayPeer {
        try await start(targetPort: proxy.port, ca: ca)
    }

    /// Starts the relay and waits until its port accepts (blocking: from async code, use
    /// ``start(targetPort:ca:)``). Default: the process's ``TestCA/sharedBlocking()``.
    /// The relay does not check that something listens on `targetPort`: a client's
    /// connection through it is closed when nothing does.
    /// - Throws: ``TestFailure`` with the relay's output when it does not start.
    public init(targetPort: Int, ca: TestCA? = nil) throws {
        let ca = try ca ?? TestCA.sharedBlocking()
        self.ca = ca
        self.targetPort = targetPort
        (port, directory, logFile, process) = try PeerProcess.inFreshDirectory("tls-relay") { directory in
            let port = try PeerProcess.freePort()
            let log = directory.appendingPathComponent("relay.log")
            // The relay ends at end of input: the pipe's write end is ours, closed by `stop()`.
            let process = try PeerProcess.started(name: "tls-relay", command: [
                "/usr/bin/env", "python3", TLSRelayPeer.script.path, "--port", String(port), "--target", String(targetPort),
                "--cert", ca.serverCertificate.path, "--key", ca.serverKey.path, "--log", log.path,
            ], directory: directory, keepsStandardInputOpen: true) { try $0.waitUntilAccepting(port: port) }
            return (port, directory, log, process)
        }
    }

    deinit { stop() }

    /// How many connections completed their TLS handshake so far (readiness probes, which
    /// only connect, do not count).
    public func completedHandshakes() -> Int {
        ((try? String(contentsOf: logFile, encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    /// Stops the relay and removes the directory. Later calls do nothing.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
