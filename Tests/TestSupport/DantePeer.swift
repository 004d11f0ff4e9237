import Foundation

/// A private Dante SOCKS5 server (Debian's `/usr/sbin/danted`) on a free port of 127.0.0.1,
/// with its configuration, log, pid and user database in a directory of its own. Stopped by
/// ``stop()``, when this object goes away, or with the test process.
///
/// With ``Method/username`` (the default) clients authenticate as ``user``:``password``
/// (RFC 1929); the user lives in a private passwd/shadow pair that `libnss_wrapper`
/// (`LD_PRELOAD`) shows danted instead of the system's, which is never touched. With
/// ``Method/none`` any client on 127.0.0.0/8 may connect. Every connection through it is
/// logged (``log()``).
public final class DantePeer: Sendable {
    /// How clients authenticate.
    public enum Method: String, Sendable {
        /// RFC 1929 user name and password: ``DantePeer/user``, ``DantePeer/password``.
        case username
        /// No authentication.
        case none
    }

    /// The SOCKS user for ``Method/username``.
    public static let user = "chainuser"
    /// The SOCKS password for ``Method/username``.
    public static let password = "s3cret"

    /// The port on 127.0.0.1.
    public let port: Int
    /// How clients authenticate.
    public let method: Method
    /// The peer's directory (configuration, log, pid, passwd/shadow), removed by ``stop()``.
    public let directory: URL
    /// danted's log (`logoutput`).
    public let logFile: URL
    private let process: PeerProcess

    private static let nssWrapper = "/usr/lib/x86_64-linux-gnu/libnss_wrapper.so"

    /// `socks5h://127.0.0.1:port` (the proxy resolves host names), without credentials.
    public var url: URL { URL(string: "socks5h://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    /// Starts a server from async code, off the concurrency pool. Default ``Method/username``.
    /// - Throws: ``TestFailure`` with danted's output and log when it does not start.
    public static func start(method: Method = .username) async throws -> DantePeer {
        try await offPool { Result { try DantePeer(method: method) } }.get()
    }

    /// Starts danted in the foreground (one process to start with, `-N 1`) and waits until its
    /// port accepts (blocking: from async code, use ``start(method:)``). Default
    /// ``Method/username``. A port lost to another program makes a fresh attempt (three in all).
    /// - Throws: ``TestFailure`` with danted's output and log when it does not start.
    public init(method: Method = .username) throws {
        guard FileManager.default.fileExists(atPath: DantePeer.nssWrapper) else {
            throw TestFailure("dante: \(DantePeer.nssWrapper) is not installed (run scripts/install-deps)")
        }
        self.method = method
        (port, directory, logFile, process) = try PeerProcess.inFreshDirectory("dante") { directory in
            let port = try PeerProcess.freePort()
            let log = directory.appendingPathComponent("sockd.log")
            try DantePeer.writeFiles(in: directory, port: port, log: log, method: method)
            func file(_ name: String) -> String { directory.appendingPathComponent(name).path }
            // Through `env`, so the guard shell and setsid do not load the wrapper too.
            let process = try PeerProcess.started(name: "danted", command: [
                "/usr/bin/env", "LD_PRELOAD=\(DantePeer.nssWrapper)", "NSS_WRAPPER_PASSWD=\(file("passwd"))",
                "NSS_WRAPPER_GROUP=\(file("group"))", "NSS_WRAPPER_SHADOW=\(file("shadow"))",
                "/usr/sbin/danted", "-f", file("sockd.conf"), "-p", file("sockd.pid"), "-N", "1",
            ], directory: directory) { try $0.waitUntilAccepting(port: port, log: log) }
            return (port, directory, log, process)
        }
    }

    deinit { stop() }

    /// danted's log so far.
    public func log() -> String {
        (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
    }

    /// Stops danted and its children and removes the directory. Later calls do nothing.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    private static func writeFiles(in directory: URL, port: Int, log: URL, method: Method) throws {
        let hash = try PeerProcess.runTool(["openssl", "passwd", "-6", password], in: directory)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let files = [
            "passwd": """
                root:x:0:0:root:/root:/bin/sh
                nobody:x:65534:65534:nobody:/nonexistent:/bin/false
                \(user):\(hash):65534:65534:Chain test user:/nonexistent:/bin/false

                """,
            "group": "root:x:0:\nnogroup:x:65534:\n",
            "shadow": """
                root:*:19000:0:99999:7:::
                nobody:*:19000:0:99999:7:::
                \(user):\(hash):19000:0:99999:7:::

                """,
            "sockd.conf": """
                # Private test SOCKS server: loopback only, every file inside \(directory.path).
                logoutput: \(log.path)
                internal: 127.0.0.1 port = \(port)
                external: 127.0.0.1
                socksmethod: \(method.rawValue)
                clientmethod: none
                user.privileged: root
                user.unprivileged: nobody
                client pass { from: 127.0.0.0/8 to: 0.0.0.0/0 log: error }
                socks pass { from: 127.0.0.0/8 to: 0.0.0.0/0 log: connect disconnect error }

                """,
        ]
        for (name, text) in files {
            try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        }
    }
}
