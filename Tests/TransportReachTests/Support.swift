import Chain
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@_exported import TestSupport

// Shared helpers of the transport-reach suites: one instance of each outside peer per test
// process, started on first use and stopped when the process ends (PeerProcess's guard).

/// The peers every suite here shares. Each starts off the concurrency pool the first time a
/// test asks (a lazy `static let` of the peer itself would hold a pool thread while nginx
/// starts). Tests that count connections or log lines filter by a unique marker of their
/// own, so sharing never makes one test see another's traffic.
enum Peers {
    private static let startingNginx = Task { try await NginxPeer.start() }
    private static let startingTinyproxy = Task { try await TinyproxyPeer.start() }
    private static let startingAuthenticatingTinyproxy = Task { try await TinyproxyPeer.start(requiresAuthentication: true) }
    private static let startingDante = Task { try await DantePeer.start() }

    /// nginx with the shared ``TestCA``.
    static var nginx: NginxPeer { get async throws { try await startingNginx.value } }
    /// tinyproxy without authentication.
    static var tinyproxy: TinyproxyPeer { get async throws { try await startingTinyproxy.value } }
    /// tinyproxy asking for ``TinyproxyPeer/user``.
    static var authenticatingTinyproxy: TinyproxyPeer {
        get async throws { try await startingAuthenticatingTinyproxy.value }
    }
    /// Dante with user name authentication.
    static var dante: DantePeer { get async throws { try await startingDante.value } }
}

/// nginx's access-log line for the request whose target contains `marker`, waiting up to 5 s
/// for it: nginx writes the line after it sent the response, so a client may read the log a
/// moment too early.
func loggedLine(_ nginx: NginxPeer, containing marker: String) async -> NginxPeer.LogLine? {
    await loggedLines(nginx, containing: marker, count: 1).first
}

/// nginx's access-log lines of requests whose targets contain `marker`, once there are `count`
/// of them (or after 5 s, however many there are then).
func loggedLines(_ nginx: NginxPeer, containing marker: String, count: Int) async -> [NginxPeer.LogLine] {
    await offPool {
        let deadline = Date().addingTimeInterval(5)
        var lines: [NginxPeer.LogLine] = []
        repeat {
            lines = nginx.accessLog().filter { $0.target.contains(marker) }
            if lines.count >= count { return lines }
            usleep(5_000)
        } while Date() < deadline
        return lines
    }
}

/// A unique query value: the client shares one transfer between identical GETs in flight, and
/// a test counting log lines must find only its own.
func unique() -> String { UUID().uuidString }

/// A blocking TCP connection to 127.0.0.1 for speaking a proxy's handshake by hand, with a
/// receive timeout so a silent peer fails the test instead of hanging it. Use off the pool.
final class RawConnection {
    private let fd: Int32

    /// Connects to 127.0.0.1:`port`; every read waits at most `timeout` seconds (default 10).
    init(port: Int, timeout: Int = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket() failed") }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // `deinit` closes `fd` even when this throws (every property is set by then).
        guard connected == 0 else { throw TestFailure("cannot connect to 127.0.0.1:\(port)") }
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw TestFailure("send() failed") }
            offset += sent
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Exactly `count` bytes. - Throws: when the peer closes or times out first.
    func receive(exactly count: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count < count {
            let chunk = try receiveSome(maximum: count - bytes.count)
            guard !chunk.isEmpty else { throw TestFailure("the peer closed after \(bytes.count) of \(count) bytes") }
            bytes += chunk
        }
        return bytes
    }

    /// Bytes up to and including the first `\r\n\r\n` (a response head), read one at a time
    /// so nothing after it is consumed.
    func receiveHead() throws -> String {
        var bytes: [UInt8] = []
        while !bytes.suffix(4).elementsEqual([13, 10, 13, 10]) {
            bytes += try receive(exactly: 1)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Everything until the peer closes.
    func receiveToEnd() throws -> String {
        var bytes: [UInt8] = []
        while true {
            let chunk = try receiveSome(maximum: 65536)
            if chunk.isEmpty { return String(decoding: bytes, as: UTF8.self) }
            bytes += chunk
        }
    }

    private func receiveSome(maximum: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximum)
        let received = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, maximum, 0) }
        guard received >= 0 else { throw TestFailure("recv() failed or timed out (errno \(errno))") }
        return Array(buffer[0..<received])
    }
}
