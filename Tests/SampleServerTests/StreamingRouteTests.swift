import Digest
import Foundation
import Glibc
@testable import SampleServer
import Testing

/// The `/stream/*` routes: SSE with resumption and drops, NDJSON, paced and endless chunks,
/// token streams and hashed uploads, checked chunk by chunk on the wire.
// Serialized: these synchronous tests block a thread of the concurrency pool (one per core)
// on socket reads for up to seconds each; side by side they starved other suites' awaits.
@Suite("SampleServer streaming routes", .serialized)
struct StreamingRouteTests {
    /// One `tick` event as `/stream/sse` writes it.
    private static func tick(_ number: Int) -> String {
        "id: \(number)\nevent: tick\ndata: tick \(number)\ndata: line two\n\n"
    }

    /// Sends a GET and reads its head, leaving the body to the returned reader.
    private static func open(_ target: String, on client: RawClient, headers: [String] = []) throws
        -> (RawResponse, ChunkedReader) {
        var head = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for header in headers { head += header + "\r\n" }
        try client.send(head + "\r\n")
        let reader = ChunkedReader(client)
        return (try reader.readHead(), reader)
    }

    /// `true` if the server closes before the next chunk (a dropped stream, not a finished one).
    private static func endsWithoutFinalChunk(_ reader: ChunkedReader) -> Bool {
        do {
            _ = try reader.nextChunk()
            return false
        } catch ClientError.closed {
            return true
        } catch {
            return false
        }
    }

    private static func texts(_ chunks: [[UInt8]]) -> [String] {
        chunks.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("SSE events are one chunk each, with keep-alive comments, and the connection stays usable")
    func sseFraming() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let (head, reader) = try Self.open("/stream/sse?count=3", on: client)
        #expect(head.status == 200)
        #expect(head.header("Content-Type") == "text/event-stream")
        #expect(head.header("Cache-Control") == "no-store")
        #expect(head.header("Transfer-Encoding") == "chunked")
        #expect(head.header("Content-Length") == nil)
        #expect(Self.texts(try reader.remainingChunks()) == [Self.tick(1), Self.tick(2), ": keep-alive\n", Self.tick(3)])

        let defaults = try client.request("GET", "/stream/sse?retry=1500")
        #expect(defaults.text == "retry: 1500\n\n" + Self.tick(1) + Self.tick(2) + ": keep-alive\n" + Self.tick(3) + Self.tick(4)
            + ": keep-alive\n" + Self.tick(5))
        #expect(server.acceptedConnections == 1)
    }

    @Test("Last-Event-ID resumes after that id, echo-last-id echoes it, nothing left is 204")
    func sseResume() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let resumed = try client.request("GET", "/stream/sse?count=5", headers: ["Last-Event-ID: 3"])
        #expect(resumed.status == 200)
        // The comment follows even-numbered events, whichever event the stream started at.
        #expect(resumed.text == Self.tick(4) + ": keep-alive\n" + Self.tick(5))

        let echoed = try client.request("GET", "/stream/sse?count=5&echo-last-id=1", headers: ["Last-Event-ID: 3"])
        #expect(echoed.text == "event: resumed\ndata: 3\n\n" + Self.tick(4) + ": keep-alive\n" + Self.tick(5))
        let noHeader = try client.request("GET", "/stream/sse?count=1&echo-last-id=1")
        #expect(noHeader.text == Self.tick(1))
        let notANumber = try client.request("GET", "/stream/sse?count=1&echo-last-id=1", headers: ["Last-Event-ID: abc"])
        #expect(notANumber.text == "event: resumed\ndata: abc\n\n" + Self.tick(1))

        for lastID in ["5", "9", "\(Int.max)"] {
            let done = try client.request("GET", "/stream/sse?count=5&echo-last-id=1", headers: ["Last-Event-ID: \(lastID)"])
            #expect(done.status == 204)
            #expect(done.body.isEmpty)
            #expect(done.header("Transfer-Encoding") == nil)
        }
        #expect(try client.request("GET", "/stream/sse?count=0").status == 204)
        #expect(try client.request("GET", "/stream/sse?count=x").status == 400)
        #expect(try client.request("GET", "/stream/sse?retry=soon").status == 400)
        #expect(server.acceptedConnections == 1)
    }

    @Test("drop-after closes the connection after K events without the final chunk")
    func sseDrop() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let (_, reader) = try Self.open("/stream/sse?count=5&drop-after=2", on: client)
        #expect(try reader.nextChunk().map { String(decoding: $0, as: UTF8.self) } == Self.tick(1))
        #expect(try reader.nextChunk().map { String(decoding: $0, as: UTF8.self) } == Self.tick(2))
        #expect(Self.endsWithoutFinalChunk(reader))

        // Dropped after the last event: the resumed request finds nothing left.
        let last = try RawClient(port: server.port)
        let (_, lastReader) = try Self.open("/stream/sse?count=2&drop-after=2&retry=10", on: last)
        #expect(Self.texts([try #require(try lastReader.nextChunk()), try #require(try lastReader.nextChunk())])
            == ["retry: 10\n\n", Self.tick(1)])
        #expect(try lastReader.nextChunk().map { String(decoding: $0, as: UTF8.self) } == Self.tick(2))
        #expect(Self.endsWithoutFinalChunk(lastReader))
        let again = try RawClient(port: server.port)
        #expect(try again.request("GET", "/stream/sse?count=2&drop-after=2", headers: ["Last-Event-ID: 2"]).status == 204)

        let resumed = try RawClient(port: server.port)
        let (_, resumedReader) = try Self.open("/stream/sse?count=5&drop-after=1", on: resumed, headers: ["Last-Event-ID: 3"])
        #expect(try resumedReader.nextChunk().map { String(decoding: $0, as: UTF8.self) } == Self.tick(4))
        #expect(Self.endsWithoutFinalChunk(resumedReader))
    }

    @Test("each piece is flushed as written: the first arrives while the next is a minute away")
    func flushedPieces() throws {
        let server = try SampleServer()
        let sse = try RawClient(port: server.port)
        let (_, sseReader) = try Self.open("/stream/sse?count=2&interval-ms=60000", on: sse)
        #expect(try sseReader.nextChunk().map { String(decoding: $0, as: UTF8.self) } == Self.tick(1))
        let drip = try RawClient(port: server.port)
        let (_, dripReader) = try Self.open("/stream/drip?chunks=2&size=100&interval-ms=60000", on: drip)
        #expect(try dripReader.nextChunk() == SampleServer.deterministicBytes(count: 100))
        let tokens = try RawClient(port: server.port)
        let (_, tokenReader) = try Self.open("/stream/tokens?text=one+two&interval-ms=60000", on: tokens)
        #expect(try tokenReader.nextChunk().map { String(decoding: $0, as: UTF8.self) } == "data: {\"token\":\"one \"}\n\n")

        // The paused routes wake for stop() instead of holding their threads for the minute.
        let clock = ContinuousClock()
        let start = clock.now
        server.stop()
        #expect(clock.now - start < .seconds(2))
        #expect(sse.isClosedByServer())
    }

    @Test("NDJSON records, a malformed line and blank lines that count as lines")
    func ndjson() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let (head, reader) = try Self.open("/stream/ndjson?count=3", on: client)
        #expect(head.header("Content-Type") == "application/x-ndjson")
        #expect(head.header("Transfer-Encoding") == "chunked")
        let lines = Self.texts(try reader.remainingChunks())
        #expect(lines == (1...3).map { "{\"index\":\($0),\"name\":\"item \($0)\"}\n" })
        #expect(lines.map { JSONParser.parse(Array($0.utf8))?["index"]?.intValue } == [1, 2, 3])

        let defaults = try client.request("GET", "/stream/ndjson")
        #expect(defaults.text.split(separator: "\n").count == 5)

        let bad = try client.request("GET", "/stream/ndjson?count=3&bad-line=2")
        #expect(bad.text == "{\"index\":1,\"name\":\"item 1\"}\n{\"index\": 2,\n{\"index\":3,\"name\":\"item 3\"}\n")
        #expect(JSONParser.parse(Array("{\"index\": 2,".utf8)) == nil)

        let blanks = try client.request("GET", "/stream/ndjson?count=3&blank-lines=1&bad-line=5")
        #expect(blanks.text == "{\"index\":1,\"name\":\"item 1\"}\n\n{\"index\":3,\"name\":\"item 3\"}\n\r\n{\"index\": 5,\n")
        #expect(try client.request("GET", "/stream/ndjson?bad-line=first").status == 400)
    }

    @Test("drip sends N deterministic chunks of S bytes, I ms apart")
    func drip() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let clock = ContinuousClock()
        let start = clock.now
        let (head, reader) = try Self.open("/stream/drip?chunks=4&size=1000&interval-ms=50", on: client)
        #expect(head.header("Content-Type") == "application/octet-stream")
        #expect(head.header("Transfer-Encoding") == "chunked")
        var chunks: [[UInt8]] = []
        var arrivals: [ContinuousClock.Instant] = []
        while let chunk = try reader.nextChunk() {
            chunks.append(chunk)
            arrivals.append(reader.lastArrival)
        }
        #expect(chunks.map(\.count) == [1000, 1000, 1000, 1000])
        #expect(chunks.joined().elementsEqual(SampleServer.deterministicBytes(count: 4000)))
        // The server cannot send chunk k before k intervals have passed.
        for (index, arrival) in arrivals.enumerated() {
            #expect(arrival - start >= .milliseconds(50 * index))
        }

        let defaults = try client.request("GET", "/stream/drip")
        #expect(defaults.body == SampleServer.deterministicBytes(count: 10 * 1024))
        #expect(try client.request("GET", "/stream/drip?size=0").body.count == 10)
        #expect(try client.request("GET", "/stream/drip?chunks=ten").status == 400)
    }

    /// The descriptor (and its socket's inode, which tells a reused number apart) of the
    /// server's end of the connection from `clientPort`, found while it is connected.
    private static func serverEnd(serverPort: UInt16, clientPort: UInt16) -> (fd: Int32, inode: UInt)? {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in descriptors.compactMap({ Int32($0) })
        where port(of: fd, peer: false) == serverPort && port(of: fd, peer: true) == clientPort {
            if let inode = inode(of: fd) { return (fd, inode) }
        }
        return nil
    }

    /// Whether `end` is still open: the connection thread closes it only once its route has
    /// returned. (After a reset the socket has no peer any more, so the peer cannot be asked.)
    private static func isOpen(_ end: (fd: Int32, inode: UInt)) -> Bool {
        inode(of: end.fd) == end.inode
    }

    private static func inode(of fd: Int32) -> UInt? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return UInt(info.st_ino)
    }

    private static func port(of fd: Int32, peer: Bool) -> UInt16? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length)
            }
        }
        guard result == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
        return UInt16(bigEndian: address.sin_port)
    }

    @Test("endless streams until the client closes, then its connection thread ends")
    func endless() throws {
        let server = try SampleServer()
        defer { server.stop() }
        var serverEnd: (fd: Int32, inode: UInt)?
        do {
            let client = try RawClient(port: server.port)
            let (head, reader) = try Self.open("/stream/endless", on: client)
            #expect(head.header("Transfer-Encoding") == "chunked")
            var received: [UInt8] = []
            for _ in 0..<16 {
                let chunk = try #require(try reader.nextChunk())
                #expect(chunk.count == 65536)
                received += chunk
            }
            #expect(received == SampleServer.deterministicBytes(count: 16 * 65536))
            serverEnd = Self.serverEnd(serverPort: server.port, clientPort: reader.localPort)
        }
        let end = try #require(serverEnd)
        // The client is gone (closed with unread data, so the server's next write fails).
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        while Self.isOpen(end) && clock.now < deadline { sched_yield() }
        #expect(!Self.isOpen(end))

        let small = try RawClient(port: server.port)
        let (_, smallReader) = try Self.open("/stream/endless?chunk=1000", on: small)
        #expect(try smallReader.nextChunk()?.count == 1000)
        #expect(try smallReader.nextChunk() == SampleServer.deterministicBytes(count: 1000, offset: 1000))
        #expect(try RawClient(port: server.port).request("GET", "/get").status == 200)
    }

    @Test("tokens stream one JSON-escaped SSE event per word, then [DONE]")
    func tokens() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let (head, reader) = try Self.open("/stream/tokens?text=say+%22hi%22%5Cn%20w%C3%B6rld&interval-ms=0", on: client)
        #expect(head.header("Content-Type") == "text/event-stream")
        #expect(head.header("Cache-Control") == "no-store")
        #expect(Self.texts(try reader.remainingChunks()) == [
            "data: {\"token\":\"say \"}\n\n", "data: {\"token\":\"\\\"hi\\\"\\\\n \"}\n\n",
            "data: {\"token\":\"wörld \"}\n\n", "data: [DONE]\n\n",
        ])

        let clock = ContinuousClock()
        let start = clock.now
        let defaults = try client.request("GET", "/stream/tokens")
        // Nine words and [DONE], 30 ms apart by default.
        #expect(clock.now - start >= .milliseconds(270))
        let events = defaults.text.components(separatedBy: "\n\n").filter { !$0.isEmpty }
        #expect(events.count == 10)
        let words = events.dropLast().compactMap { JSONParser.parse(Array($0.dropFirst("data: ".count).utf8))?["token"]?.stringValue }
        #expect(words.joined() == Router.defaultTokenText + " ")
        #expect(events.last == "data: [DONE]")
    }

    /// `POST /stream/upload` of `body`, chunked in pieces of `pieceSize` bytes when given.
    private static func upload(_ body: [UInt8], on client: RawClient, pieceSize: Int? = nil) throws -> RawResponse {
        guard let pieceSize else { return try client.request("POST", "/stream/upload", body: body) }
        try client.send("POST /stream/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n")
        var offset = 0
        while offset < body.count {
            let piece = body[offset..<min(offset + pieceSize, body.count)]
            try client.send(Array("\(String(piece.count, radix: 16))\r\n".utf8) + piece + [0x0d, 0x0a])
            offset += piece.count
        }
        try client.send("0\r\n\r\n")
        return try client.readResponse()
    }

    @Test("upload counts and hashes Content-Length and chunked bodies (SHA-256 test vectors)")
    func upload() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port, timeoutSeconds: 30)
        let vectors: [([UInt8], String)] = [
            (Array("abc".utf8), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ([], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000),
             "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
        ]
        for (body, digest) in vectors {
            let plain = try Self.upload(body, on: client)
            #expect(plain.status == 200)
            #expect(plain.header("Content-Type") == "application/json; charset=utf-8")
            #expect(plain.json == ["bytes": .int(body.count), "chunked": false, "sha256": .string(digest)])
            let chunked = try Self.upload(body, on: client, pieceSize: 4093)
            #expect(chunked.json == ["bytes": .int(body.count), "chunked": true, "sha256": .string(digest)])
        }

        // Larger than the routes that read a body into memory accept: hashed as it arrives.
        let large = SampleServer.deterministicBytes(count: 8 << 20, seed: 5)
        let streamed = try Self.upload(large, on: client, pieceSize: 1 << 20)
        #expect(streamed.json == ["bytes": .int(large.count), "chunked": true, "sha256": .string(SHA256.hexDigest(large))])
        #expect(try client.request("GET", "/stream/upload").status == 405)
        #expect(server.acceptedConnections == 1)
    }
}
