import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private nginx (Debian's `/usr/sbin/nginx`) on free ports of 127.0.0.1, with its
/// configuration, logs, pid and temporary files in a directory of its own; no system file is
/// read or written. Stopped by ``stop()``, when this object goes away, or with the test process.
///
/// Four listeners serve the same locations:
/// - ``httpPort``: plain HTTP/1.1;
/// - ``tlsPort``: TLS with HTTP/2 offered by ALPN (``TestCA/serverCertificate``);
/// - ``mutualTLSPort``: as ``tlsPort``, and the client must present a certificate signed by
///   the CA (`ssl_verify_client on`; nginx finishes the handshake without one and answers
///   `400 No required SSL certificate was sent`);
/// - ``socketPath``: plain HTTP/1.1 on a Unix socket.
///
/// Locations: `/hello` (`{"hello":"world"}`, `application/json`), `/echo-host` (the `Host`
/// header, `text/plain`), `/basic` (`{"authenticated":true}` behind `auth_basic`: user
/// ``basicUser``, password ``basicPassword``), and on the TLS listeners `/hsts` (adds
/// `Strict-Transport-Security: max-age=3600`), `/stream/events` (``streamEventCount`` events as
/// `text/event-stream`), `/stream/big` (``streamBody``, 8 MiB) and `/models/users.json`
/// (``usersDocument``, revalidated). Anything else is nginx's 404. Every request
/// is logged as `$connection $server_port $status $request` (``accessLog()``), one worker, so
/// connection numbers are unique.
public final class NginxPeer: Sendable {
    /// One access-log line: `$connection $server_port $status $request`.
    public struct LogLine: Sendable, Hashable {
        /// nginx's serial number of the connection the request came on (unique per peer).
        public let connection: Int
        /// The listener's port; `nil` for the Unix socket.
        public let port: Int?
        /// The status nginx answered with (`304` for a conditional request it matched).
        public let status: Int
        /// The request line, e.g. `GET /hello?x=1 HTTP/2.0`.
        public let request: String

        /// The request line's target (`/hello?x=1`), or `""`.
        public var target: String {
            let parts = request.split(separator: " ")
            return parts.count > 1 ? String(parts[1]) : ""
        }
    }

    /// The `auth_basic` user of `/basic`.
    public static let basicUser = "chain"
    /// The `auth_basic` password of `/basic`.
    public static let basicPassword = "secret"

    /// The CA whose server certificate the TLS listeners present.
    public let ca: TestCA
    /// The peer's directory (configuration, logs, socket), removed by ``stop()``.
    public let directory: URL
    /// Plain HTTP on 127.0.0.1.
    public let httpPort: Int
    /// TLS with HTTP/2 on 127.0.0.1.
    public let tlsPort: Int
    /// TLS requiring a client certificate on 127.0.0.1.
    public let mutualTLSPort: Int
    /// Plain HTTP on this Unix socket (in ``directory``).
    public let socketPath: String
    /// The access log (`$connection $server_port $request`).
    public let accessLogFile: URL
    /// nginx's error log.
    public let errorLogFile: URL
    private let process: PeerProcess

    /// The CA certificate to trust for the TLS listeners (``TestCA/certificate``).
    public var caFile: URL { ca.certificate }

    /// Starts a peer from async code, off the concurrency pool. Default: the process's
    /// ``TestCA/shared()``.
    /// - Throws: ``TestFailure`` with nginx's error log when it does not start.
    public static func start(ca: TestCA? = nil) async throws -> NginxPeer {
        try await offPool { Result { try NginxPeer(ca: ca) } }.get()
    }

    /// Starts nginx and waits until every listener accepts (blocking: from async code, use
    /// ``start(ca:)``). Default: the process's ``TestCA/sharedBlocking()``. A port taken by
    /// another program between choosing and binding it makes a fresh attempt (three in all).
    /// - Throws: ``TestFailure`` with nginx's error log when it does not start.
    public init(ca: TestCA? = nil) throws {
        let ca = try ca ?? TestCA.sharedBlocking()
        self.ca = ca
        let started = try PeerProcess.inFreshDirectory("nginx") { directory in
            let ports = try (PeerProcess.freePort(), PeerProcess.freePort(), PeerProcess.freePort())
            guard Set([ports.0, ports.1, ports.2]).count == 3 else { throw TestFailure("the same free port twice") }
            let socketPath = directory.appendingPathComponent("nginx.sock").path
            let errorLog = directory.appendingPathComponent("error.log")
            try NginxPeer.writeFiles(in: directory, ca: ca, ports: ports, socketPath: socketPath)
            let process = try PeerProcess.started(name: "nginx", command: [
                "/usr/sbin/nginx", "-p", directory.path + "/", "-e", errorLog.path,
                "-c", directory.appendingPathComponent("nginx.conf").path,
            ], directory: directory) { process in
                for port in [ports.0, ports.1, ports.2] {
                    try process.waitUntilAccepting(port: port, log: errorLog)
                }
                try process.waitUntilAccepting(unixSocket: socketPath, log: errorLog)
            }
            return (directory, ports, socketPath, errorLog, process)
        }
        (directory, (httpPort, tlsPort, mutualTLSPort), socketPath, errorLogFile, process) = started
        accessLogFile = directory.appendingPathComponent("access.log")
    }

    deinit { stop() }

    /// `http://127.0.0.1:httpPort` + `path` (which starts with `/`).
    public func httpURL(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(httpPort)\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// `https://host:tlsPort` + `path`. Default host `127.0.0.1` (in the certificate as an IP
    /// address; `localhost`, `chain.test` and `*.chain.test` are in it too).
    public func tlsURL(_ path: String, host: String = "127.0.0.1") -> URL {
        URL(string: "https://\(host):\(tlsPort)\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// `https://host:mutualTLSPort` + `path`. Default host `127.0.0.1`.
    public func mutualTLSURL(_ path: String, host: String = "127.0.0.1") -> URL {
        URL(string: "https://\(host):\(mutualTLSPort)\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// Every request logged so far, in order (nginx writes each line when the request ends,
    /// unbuffered).
    public func accessLog() -> [LogLine] {
        let text = (try? String(contentsOf: accessLogFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            // `$server_port` is empty for the Unix socket, hence two spaces.
            let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count == 4, let connection = Int(fields[0]), let status = Int(fields[2]) else { return nil }
            return LogLine(connection: connection, port: Int(fields[1]), status: status, request: String(fields[3]))
        }
    }

    /// nginx's error log so far.
    public func errorLog() -> String {
        (try? String(contentsOf: errorLogFile, encoding: .utf8)) ?? ""
    }

    /// Stops nginx (master and worker) and removes the directory. Later calls do nothing.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: Configuration

    /// `/stream/events`: 2,000 server-sent events, `id: N`, `event: tick`, `data: tick N`.
    public static let streamEventCount = 2_000
    static var streamEvents: String {
        (1...streamEventCount).map { "id: \($0)\nevent: tick\ndata: tick \($0)\n\n" }.joined()
    }

    /// `/models/users.json`: an `errcode` envelope around `data.list`, two users as the source
    /// documents' ObjectMapper `User` reads them (the second without `vip` and `birthday`).
    /// A static file, so nginx sends `ETag` and `Last-Modified` and answers a matching
    /// conditional request with `304`; `Cache-Control: no-cache` makes HTTP caches revalidate.
    public static let usersDocument = #"""
        {"errcode": 0, "errmsg": "ok", "data": {"list": [
          {"userId": 7, "name": "Li Lei 李雷", "avatar": null, "vip": 1, "birthday": 0},
          {"userId": 8, "name": "Han Meimei", "avatar": "https://example.invalid/h.png"}
        ]}}
        """#

    /// `/stream/big`: 8 MiB, byte `i` is `i % 251`.
    public static let streamBody = Data((0..<(8 << 20)).map { UInt8($0 % 251) })

    private static func writeFiles(in directory: URL, ca: TestCA, ports: (Int, Int, Int), socketPath: String) throws {
        let d = directory.path
        let hash = try PeerProcess.runTool(["openssl", "passwd", "-apr1", basicPassword], in: directory)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try write("\(basicUser):\(hash)\n", to: directory.appendingPathComponent("htpasswd"))
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("www"), withIntermediateDirectories: true)
        try write("{\"authenticated\":true}", to: directory.appendingPathComponent("www/basic.json"))
        try write(streamEvents, to: directory.appendingPathComponent("www/events.txt"))
        try write(usersDocument, to: directory.appendingPathComponent("www/users.json"))
        try streamBody.write(to: directory.appendingPathComponent("www/big.bin"))
        // `return` runs before the access phase, so `/basic` serves a file: `auth_basic` applies.
        let locations = """
            location = /hello { return 200 '{"hello":"world"}'; }
            location = /echo-host { default_type text/plain; return 200 $http_host; }
            location = /basic {
                auth_basic "chain";
                auth_basic_user_file \(d)/htpasswd;
                alias \(d)/www/basic.json;
            }
            location = /stream/events { default_type text/event-stream; alias \(d)/www/events.txt; }
            location = /stream/big { default_type application/octet-stream; alias \(d)/www/big.bin; }
            location = /models/users.json {
                add_header Cache-Control "no-cache" always;
                alias \(d)/www/users.json;
            }
            """
        let hsts = """
            location = /hsts {
                add_header Strict-Transport-Security "max-age=3600" always;
                return 200 '{"hsts":true}';
            }
            """
        // Run as root (the machine, CI), the master binds and reads keys as root; the worker
        // runs as nobody and reads only the world-readable htpasswd and www.
        let user = geteuid() == 0 ? "user nobody nogroup;" : ""
        let configuration = """
            # Private test server: loopback and a Unix socket only, every file inside \(d).
            \(user)
            worker_processes 1;
            master_process on;
            daemon off;
            pid \(d)/nginx.pid;
            error_log \(d)/error.log info;
            events { worker_connections 1024; }
            http {
                log_format chain '$connection $server_port $status $request';
                access_log \(d)/access.log chain;
                server_tokens off;
                client_body_temp_path \(d)/client_body;
                proxy_temp_path \(d)/proxy;
                fastcgi_temp_path \(d)/fastcgi;
                uwsgi_temp_path \(d)/uwsgi;
                scgi_temp_path \(d)/scgi;
                default_type application/json;
                keepalive_timeout 300s;
                keepalive_requests 100000;
                http2_max_concurrent_streams 128;
                ssl_certificate \(ca.serverCertificate.path);
                ssl_certificate_key \(ca.serverKey.path);
                server {
                    listen 127.0.0.1:\(ports.0);
                    listen unix:\(socketPath);
                    \(locations)
                }
                server {
                    listen 127.0.0.1:\(ports.1) ssl http2;
                    \(locations)
                    \(hsts)
                }
                server {
                    listen 127.0.0.1:\(ports.2) ssl http2;
                    ssl_verify_client on;
                    ssl_client_certificate \(ca.certificate.path);
                    \(locations)
                    \(hsts)
                }
            }

            """
        try write(configuration, to: directory.appendingPathComponent("nginx.conf"))
    }

    private static func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
    }
}
