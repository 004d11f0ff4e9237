import ChainTesting
import Foundation
import Glibc
import Testing
import TestSupport

/// The faults on the wire, read with a plain socket instead of the library under test: what a
/// fault sends, and that it really closes (or holds) the connection.
@Suite("MockServer faults on the wire")
struct MockServerWireTests {
    /// Sends `request` to 127.0.0.1:`port` and reads until the server closes or `timeout`
    /// seconds pass without a byte; returns the bytes and whether the server closed.
    private static func exchange(port: UInt16, request: String, timeout: Int) -> (bytes: [UInt8], closed: Bool) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return ([], false) }
        defer { close(fd) }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return ([], false) }
        let bytes = Array(request.utf8)
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else {
            return ([], false)
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                received.append(contentsOf: buffer[0..<n])
            } else {
                // 0: the peer closed; -1 with EAGAIN: the receive timeout passed.
                return (received, n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
            }
        }
    }

    private static let get = "GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    @Test("disconnectAfterRequest closes without a byte")
    func disconnectAfterRequest() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(body: Data("never sent".utf8), options: [.disconnectAfterRequest]))
        let (bytes, closed) = await offPool { Self.exchange(port: server.port, request: Self.get, timeout: 5) }
        #expect(bytes.isEmpty)
        #expect(closed)
    }

    @Test("disconnectDuringBody sends the whole length, half the body, then closes")
    func disconnectDuringBody() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(body: Data(repeating: 0x41, count: 1000), options: [.disconnectDuringBody]))
        let (bytes, closed) = await offPool { Self.exchange(port: server.port, request: Self.get, timeout: 5) }
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        #expect(parts.first?.hasPrefix("HTTP/1.1 200") == true)
        #expect(parts.first?.contains("Content-Length: 1000") == true)
        #expect(parts.dropFirst().joined(separator: "\r\n\r\n") == String(repeating: "A", count: 500))
        #expect(closed)
    }

    @Test("noResponse holds the connection open and silent until shutdown")
    func noResponse() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(options: [.noResponse]))
        let (bytes, closed) = await offPool { Self.exchange(port: server.port, request: Self.get, timeout: 1) }
        #expect(bytes.isEmpty)
        #expect(!closed, "still open after a second of silence")
        server.enqueue(MockResponse(options: [.noResponse]))
        async let held = offPool { Self.exchange(port: server.port, request: Self.get, timeout: 30) }
        _ = try await server.takeRequest(timeout: 30)
        _ = try await server.takeRequest(timeout: 30)
        server.shutdown()
        let (after, closedByShutdown) = await held
        #expect(after.isEmpty)
        #expect(closedByShutdown)
    }

    @Test("a keep-alive connection carries the queued answers in order")
    func keepAlive() async throws {
        let server = try MockServer()
        server.enqueue(.text("one"))
        server.enqueue(.text("two", headers: ["X-Two": "2"]))
        let request = Self.get + Self.get.replacingOccurrences(of: "\r\n\r\n", with: "\r\nConnection: close\r\n\r\n")
        let (bytes, closed) = await offPool { Self.exchange(port: server.port, request: request, timeout: 5) }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.components(separatedBy: "HTTP/1.1 200").count == 3)
        #expect(text.hasSuffix("two"))
        #expect(text.contains("X-Two: 2"))
        #expect(closed)
        #expect(try await server.takeRequest().indexOnConnection == 0)
        #expect(try await server.takeRequest().indexOnConnection == 1)
    }
}
