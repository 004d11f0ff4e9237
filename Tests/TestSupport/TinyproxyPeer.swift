import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private tinyproxy (Debian's `/usr/bin/tinyproxy`, 1.11): an HTTP proxy on a free port of
/// 127.0.0.1 that forwards plain requests (`GET http://…`) and tunnels `CONNECT` to any port
/// (no `ConnectPort` line allows them all), with its configuration, log and pid file in a
/// directory of its own. Stopped by ``stop()``, when this object goes away, or with the test
/// process.
///
/// With `requiresAuthentication`, clients must send `Proxy-Authorization: Basic` for
/// ``user``:``password`` (tinyproxy answers 407 otherwise). The log records every request
/// line (``requestLines()``), which proves a request went through the proxy.
public final class TinyproxyPeer: Sendable {
    /// The proxy user when ``requiresAuthentication``.
    public static let user = "chainproxy"
    /// The proxy password when ``requiresAuthentication``.
    public static let password = "proxysecret"

    /// The port on 127.0.0.1.
    public let port: Int
    /// Whether the proxy asks for ``user`` and ``password`` (`BasicAuth`).
    public let requiresAuthentication: Bool
    /// The peer's directory (configuration, log, pid), removed by ``stop()``.
    public let directory: URL
    /// tinyproxy's log (`LogLevel Info`).
    public let logFile: URL
    private let process: PeerProcess

    /// `http://127.0.0.1:port`, the proxy's address (without credentials).
    public var url: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    /// Starts a proxy from async code, off the concurrency pool. Default: no authentication.
    /// - Throws: ``TestFailure`` with tinyproxy's output and log when it does not start.
    public static func start(requiresAuthentication: Bool = false) async throws -> TinyproxyPeer {
        try await offPool { Result { try TinyproxyPeer(requiresAuthentication: requiresAuthentication) } }.get()
    }

    /// Starts tinyproxy in the foreground and waits until its port accepts (blocking: from
    /// async code, use ``start(requiresAuthentication:)``). Default: no authentication. A port
    /// lost to another program makes a fresh attempt (three in all).
    /// - Throws: ``TestFailure`` with tinyproxy's output and log when it does not start.
    public init(requiresAuthentication: Bool = false) throws {
        self.requiresAuthentication = requiresAuthentication
        (port, directory, logFile, process) = try PeerProcess.inFreshDirectory("tinyproxy") { directory in
            let port = try PeerProcess.freePort()
            let log = directory.appendingPathComponent("tinyproxy.log")
            try TinyproxyPeer.writeFiles(in: directory, port: port, log: log, requiresAuthentication: requiresAuthentication)
            let process = try PeerProcess.started(name: "tinyproxy", command: [
                "/usr/bin/tinyproxy", "-d", "-c", directory.appendingPathComponent("tinyproxy.conf").path,
            ], directory: directory) { try $0.waitUntilAccepting(port: port, log: log) }
            return (port, directory, log, process)
        }
    }

    deinit { stop() }

    /// tinyproxy's log so far.
    public func log() -> String {
        (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
    }

    /// The request lines tinyproxy read so far, in order: `CONNECT host:port HTTP/1.1` for a
    /// tunnel, `GET http://host:port/path HTTP/1.1` for a forwarded request.
    public func requestLines() -> [String] {
        let marker = "]: Request (file descriptor "
        return log().split(separator: "\n").compactMap { line in
            guard let range = line.range(of: marker),
                  let close = line[range.upperBound...].range(of: "): ") else { return nil }
            return String(line[close.upperBound...])
        }
    }

    /// Stops tinyproxy and removes the directory. Later calls do nothing.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    private static func writeFiles(in directory: URL, port: Int, log: URL, requiresAuthentication: Bool) throws {
        // Run as root, tinyproxy drops to nobody before it opens its log: the log exists
        // beforehand and belongs to nobody.
        let root = geteuid() == 0
        let configuration = """
            # Private test proxy: loopback only, every file inside \(directory.path).
            Port \(port)
            Listen 127.0.0.1
            Timeout 600
            MaxClients 200
            LogFile "\(log.path)"
            LogLevel Info
            PidFile "\(directory.appendingPathComponent("tinyproxy.pid").path)"
            \(root ? "User nobody\nGroup nogroup" : "")
            \(requiresAuthentication ? "BasicAuth \(user) \(password)" : "")

            """
        try Data(configuration.utf8).write(to: directory.appendingPathComponent("tinyproxy.conf"))
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw TestFailure("tinyproxy: cannot create \(log.path)")
        }
        if root {
            try FileManager.default.setAttributes([.ownerAccountID: 65534, .groupOwnerAccountID: 65534], ofItemAtPath: log.path)
        }
    }
}
