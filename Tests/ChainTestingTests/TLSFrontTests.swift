import Chain
@testable import ChainTesting
import Foundation
import Glibc
import SampleServer
import Testing
import TestSupport

/// The TLS front before a plain sample server, through Chain (libcurl with OpenSSL) and raw
/// sockets: verification against the certificate made at start, connection reuse one to one,
/// large bodies both ways, the upstream's resets and closes reaching the client, clients that
/// are not TLS or never finish a handshake, a prompt stop, and no SIGPIPE.
@Suite("TLS front", .timeLimit(.minutes(2)))
struct TLSFrontTests {
    static let childVariable = "CHAIN_TLS_FRONT_SIGPIPE_MARKER"

    @Test func servesHTTPSToAClientThatTrustsTheCertificate() async throws {
        let fronted = try FrontedServer()
        defer { fronted.stop() }
        let delivery = await fronted.configuration.url("/get?q=1").delivery(FrontEcho.self)
        let echo = try delivery.result.get()
        #expect(delivery.response?.statusCode == 200)
        #expect(echo.method == "GET" && echo.path == "/get" && echo.args == ["q": "1"])
        // libcurl offers h2 and http/1.1 by ALPN; the upstream speaks HTTP/1.1 only.
        #expect(delivery.response?.httpVersion == .http1_1)

        // The certificate's DNS name too (localhost may resolve to ::1 first, which is refused).
        let byName = await fronted.configuration.url("https://localhost:\(fronted.front.port)/get")
            .delivery(FrontEcho.self)
        #expect(byName.response?.statusCode == 200, "\(String(describing: byName.result.failure))")
    }

    @Test func aClientWithoutTheCertificateFailsItsHandshake() async throws {
        let fronted = try FrontedServer()
        defer { fronted.stop() }
        var configuration = fronted.configuration
        configuration.tls = TLSOptions()
        let result = await configuration.url("/get").delivery(FrontEcho.self).result
        #expect(result.failure?.kind == .tls, "\(result)")
        // The upstream connection is made only after a handshake succeeded.
        #expect(fronted.server.acceptedConnections == 0)
    }

    @Test func sequentialRequestsShareOneConnectionUpstreamToo() async throws {
        let fronted = try FrontedServer()
        defer { fronted.stop() }
        for index in 0..<3 {
            let echo = try await fronted.configuration.url("/get?n=\(index)").value(FrontEcho.self)
            #expect(echo.args == ["n": "\(index)"])
        }
        #expect(fronted.server.acceptedConnections == 1)
        #expect(fronted.server.requestCount == 3)
    }

    @Test func concurrentRequestsGetOneUpstreamConnectionEach() async throws {
        let fronted = try FrontedServer()
        defer { fronted.stop() }
        let configuration = fronted.configuration
        let count = 256 << 10
        let results = await withTaskGroup(of: (Int, Delivery<Data>).self) { group in
            for seed in 0..<8 {
                group.addTask {
                    let delivery = await configuration.url("/bytes/\(count)?seed=\(seed)").dataDelivery()
                    return (seed, delivery)
                }
            }
            var all: [(Int, Delivery<Data>)] = []
            for await result in group { all.append(result) }
            return all
        }
        var newConnections = 0
        for (seed, delivery) in results {
            let body = try delivery.result.get()
            #expect(body == Data(SampleServer.deterministicBytes(count: count, seed: UInt64(seed))), "seed \(seed)")
            newConnections += delivery.response?.timings.newConnections ?? 0
        }
        // However libcurl spread the eight over its connections, each of them is one upstream.
        #expect(newConnections >= 1)
        #expect(fronted.server.acceptedConnections == newConnections)
    }

    @Test func aMebibyteUploadArrivesIntact() async throws {
        let fronted = try FrontedServer()
        defer { fronted.stop() }
        let body = Data(SampleServer.deterministicBytes(count: 1 << 20, seed: 42))
        let echo = try await fronted.configuration.url("/post").method(.post)
            .body(body, contentType: "application/octet-stream").value(FrontEcho.self)
        #expect(echo.bodyLength == body.count)
        // The echo's `data` is the body itself: as text, or as a data URL when it is not UTF-8.
        let expected = String(validating: Array(body), as: UTF8.self)
            ?? "data:application/octet-stream;base64," + body.base64EncodedString()
        #expect(echo.data == expected)
    }

    @Test func aLargeDownloadArrivesIntact() async throws {
        let fronted = try FrontedServer()
        defer { fronted.stop() }
        let count = 8 << 20
        let body = try await fronted.configuration.url("/bytes/\(count)?seed=7").data()
        #expect(body.count == count)
        #expect(body == Data(SampleServer.deterministicBytes(count: count, seed: 7)))
    }

    @Test func anUpstreamResetResetsTheClient() async throws {
        let fronted = try FrontedServer()
        defer { fronted.stop() }
        let result = await fronted.configuration.url("/fault/reset").dataDelivery().result
        #expect(result.failure?.kind == .connectionLost, "\(result)")
    }

    @Test func anUpstreamCloseMidBodyEndsTheClientsResponseShort() async throws {
        let fronted = try FrontedServer()
        defer { fronted.stop() }
        let result = await fronted.configuration.url("/fault/close-mid-body").dataDelivery().result
        #expect(result.failure?.kind == .truncatedResponse, "\(result)")
    }

    @Test func aClientThatSpeaksPlainHTTPIsClosedAndTheFrontGoesOn() async throws {
        let fronted = try FrontedServer()
        defer { fronted.stop() }
        let port = fronted.front.port
        let answer = await offPool { Result { () throws(RawSocketError) in
            let socket = try RawSocket(port: port)
            defer { socket.close() }
            try socket.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            return try socket.readToEnd()
        } }
        let received = try answer.get()
        // OpenSSL answers nothing an HTTP parser would take for a response (at most an alert).
        #expect(!String(decoding: received, as: UTF8.self).hasPrefix("HTTP/"))

        let echo = try await fronted.configuration.url("/get").value(FrontEcho.self)
        #expect(echo.path == "/get")
        // The plain-text client never reached the upstream.
        #expect(fronted.server.acceptedConnections == 1)
    }

    @Test func aClientThatNeverHandshakesIsClosedAtTheTimeout() async throws {
        let timeout = Duration.milliseconds(300)
        let fronted = try FrontedServer(handshakeTimeout: timeout)
        defer { fronted.stop() }
        let port = fronted.front.port
        let waited = await offPool { Result { () throws(RawSocketError) in
            let socket = try RawSocket(port: port)
            defer { socket.close() }
            let start = ContinuousClock.now
            let received = try socket.readToEnd()
            return (received, ContinuousClock.now - start)
        } }
        let (received, elapsed) = try waited.get()
        #expect(received.isEmpty)
        // Closed by the timeout, not before it (the read itself gives up after 20 s).
        #expect(elapsed >= timeout - .milliseconds(50), "closed after \(elapsed)")
        let echo = try await fronted.configuration.url("/get").value(FrontEcho.self)
        #expect(echo.path == "/get")
    }

    @Test func stopClosesIdleConnectionsAtOnce() async throws {
        let fronted = try FrontedServer()
        defer { fronted.stop() }
        let port = fronted.front.port
        // Connected before the request below, so accepted before it (the backlog is first in,
        // first out): once the request is answered, this one's relay waits in its handshake.
        let idle = try RawSocket(port: port)
        defer { idle.close() }
        // A second idle connection, past its handshake: libcurl keeps it for reuse.
        let echo = try await fronted.configuration.url("/get").value(FrontEcho.self)
        #expect(echo.path == "/get")
        #expect(fronted.server.acceptedConnections == 1)

        let start = ContinuousClock.now
        fronted.front.stop()
        let elapsed = ContinuousClock.now - start
        // Far below the 10 s handshake timeout the idle client would otherwise hold it for.
        #expect(elapsed < .seconds(5), "stop took \(elapsed)")
        let closed = await offPool { Result { () throws(RawSocketError) in try idle.readToEnd() } }
        #expect(try closed.get().isEmpty)
        fronted.front.stop()

        let after = await fronted.configuration.url("/get").delivery(FrontEcho.self).result
        #expect(after.failure?.kind == .cannotConnect, "\(after)")
    }

    @Test func theIdentityIsFreshAndItsKeyPrivate() throws {
        var before = sigaction()
        sigaction(SIGPIPE, nil, &before)
        let directory = try temporaryDirectory("tls-front")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try TLSFront(upstreamPort: 9, directory: directory)
        let firstPEM = first.certificatePEM
        first.stop()
        let second = try TLSFront(upstreamPort: 9, directory: directory)
        defer { second.stop() }

        #expect(String(decoding: second.certificatePEM, as: UTF8.self).hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        #expect(try Data(contentsOf: second.certificateURL) == second.certificatePEM)
        #expect(second.certificatePEM != firstPEM)
        let key = try Data(contentsOf: second.keyURL)
        #expect(String(decoding: key, as: UTF8.self).hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        var status = stat()
        #expect(stat(second.keyURL.path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(second.certificateURL.deletingLastPathComponent().standardizedFileURL == directory.standardizedFileURL)

        // The front leaves the process's SIGPIPE disposition as it found it.
        var after = sigaction()
        sigaction(SIGPIPE, nil, &after)
        #expect(unsafeBitCast(after.__sigaction_handler, to: Int.self) == unsafeBitCast(before.__sigaction_handler, to: Int.self))
    }

    @Test func badArgumentsAreTypedErrors() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("chain-no-such-\(UUID().uuidString)")
        #expect {
            _ = try TLSFront(upstreamPort: 9, directory: missing)
        } throws: { error in
            (error as? TLSFrontError)?.message.contains(missing.path) == true
        }
        let directory = try temporaryDirectory("tls-front")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: TLSFrontError.self) { _ = try TLSFront(upstreamPort: 0, directory: directory) }
        #expect(throws: TLSFrontError.self) {
            _ = try TLSFront(upstreamPort: 9, directory: directory, handshakeTimeout: .zero)
        }
    }

    /// Peers that vanish while the front writes to them, in a child process whose SIGPIPE has
    /// its default action (ending the process): here it may be ignored, which would hide one.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] == nil))
    func vanishingPeersRaiseNoSIGPIPE() async throws {
        let directory = try temporaryDirectory("tls-front-sigpipe")
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("passed")
        var environment = ProcessInfo.processInfo.environment
        environment[Self.childVariable] = marker.path
        let output = try await runThisBundle(filter: "TLSFrontTests/inAChildProcess", environment: environment)
        #expect(FileManager.default.fileExists(atPath: marker.path), "the child's checks did not pass:\n\(output)")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func inAChildProcess() async throws {
        let marker = try #require(ProcessInfo.processInfo.environment[Self.childVariable])
        signal(SIGPIPE, SIG_DFL)
        let fronted = try FrontedServer()
        defer { fronted.stop() }
        for round in 0..<3 {
            // The client goes away mid-body: the front's next writes to it fail (EPIPE).
            for try await chunk in fronted.configuration.url("/bytes/\(64 << 20)?seed=\(round)").chunks() {
                #expect(!chunk.isEmpty)
                break
            }
            // The upstream answers without reading an 8 MiB body and closes: the front's
            // writes to it fail.
            let upload = Data(count: 8 << 20)
            let result = await fronted.configuration.url("/fault/close-mid-body?round=\(round)").method(.post)
                .body(upload, contentType: "application/octet-stream").dataDelivery().result
            #expect(result.failure != nil)
        }
        let echo = try await fronted.configuration.url("/get").value(FrontEcho.self)
        try #require(echo.path == "/get")
        try Data("passed".utf8).write(to: URL(fileURLWithPath: marker))
    }
}

// MARK: Fixtures

/// A sample server with a TLS front before it and a configuration for it: a client of its
/// own (so connection counts are this test's), the certificate as CA, no cookie jar.
private final class FrontedServer: Sendable {
    let server: SampleServer
    let front: TLSFront
    let directory: URL
    let configuration: ChainConfiguration

    init(handshakeTimeout: Duration = .seconds(10)) throws {
        let directory = try temporaryDirectory("tls-front")
        do {
            let server = try SampleServer()
            let front = try TLSFront(upstreamPort: server.port, directory: directory, handshakeTimeout: handshakeTimeout)
            var configuration = ChainConfiguration(baseURL: URL(string: "https://127.0.0.1:\(front.port)"),
                                                   client: HTTPClient())
            configuration.tls = TLSOptions(caFile: front.certificateURL)
            configuration.cookieJar = nil
            self.server = server
            self.front = front
            self.directory = directory
            self.configuration = configuration
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    func stop() {
        front.stop()
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// The parts of the sample server's echo these tests read.
private struct FrontEcho: Decodable, Sendable {
    let method: String
    let path: String
    let args: [String: String]
    let bodyLength: Int
    let data: String
}

private struct RawSocketError: Error, CustomStringConvertible {
    let description: String
}

/// A blocking TCP socket to 127.0.0.1 for clients that do not speak TLS; every read gives up
/// after 20 s, so a front that never closes fails the test instead of hanging it.
private struct RawSocket: Sendable {
    let fd: Int32

    init(port: UInt16) throws(RawSocketError) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw RawSocketError(description: "socket: errno \(errno)") }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            Glibc.close(fd)
            throw RawSocketError(description: "connect: errno \(code)")
        }
    }

    func send(_ text: String) throws(RawSocketError) {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw RawSocketError(description: "send: \(sent), errno \(errno)") }
    }

    /// Everything until the peer closes (FIN, or RST after which nothing more comes).
    /// Throws when nothing ends the connection within the read timeout.
    func readToEnd() throws(RawSocketError) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[0..<count]
            } else if count == 0 || errno == ECONNRESET {
                return received
            } else if errno != EINTR {
                throw RawSocketError(description: "recv: errno \(errno) (EAGAIN: the front kept the connection open)")
            }
        }
    }

    func close() {
        Glibc.close(fd)
    }
}

extension Request {
    /// The body as it arrived with the rest of the delivery (the response's timings).
    fileprivate func dataDelivery() async -> Delivery<Data> {
        await withCheckedContinuation { continuation in
            responseDelivery(using: .data) { continuation.resume(returning: $0) }
        }
    }
}
