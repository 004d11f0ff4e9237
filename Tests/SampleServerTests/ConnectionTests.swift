import Digest
import Glibc
@testable import SampleServer
import Testing

/// The HTTP/1.1 machinery: keep-alive, body framing, 100-continue, errors, shutdown.
@Suite("SampleServer connections")
struct ConnectionTests {
    @Test("two requests on one keep-alive connection count one accept")
    func keepAlive() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let first = try client.request("GET", "/get?x=1")
        let second = try client.request("GET", "/user/101")
        #expect(first.status == 200)
        #expect(first.json["args"]?["x"]?.stringValue == "1")
        #expect(second.status == 200)
        #expect(second.json["name"]?.stringValue == "wiki")
        #expect(server.acceptedConnections == 1)
        #expect(server.requestCount == 2)
    }

    @Test("Connection: close and HTTP/1.0 end the connection after the response")
    func closing() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let response = try client.request("GET", "/get", headers: ["Connection: close"])
        #expect(response.status == 200)
        #expect(response.header("Connection") == "close")
        #expect(client.isClosedByServer())

        let old = try RawClient(port: server.port)
        try old.send("GET /get HTTP/1.0\r\n\r\n")
        #expect(try old.readResponse().status == 200)
        #expect(old.isClosedByServer())

        let kept = try RawClient(port: server.port)
        try kept.send("GET /get HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try kept.readResponse().header("Connection") == "keep-alive")
        try kept.send("GET /get HTTP/1.0\r\n\r\n")
        #expect(try kept.readResponse().status == 200)
        #expect(server.acceptedConnections == 3)
    }

    @Test("a Content-Length body is echoed with its length and SHA-256")
    func contentLengthBody() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let body = Array(#"{"hello":"world","n":[1,2.5,true,null]}"#.utf8)
        let response = try client.request("POST", "/post", headers: ["Content-Type: application/json"], body: body)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json; charset=utf-8")
        let json = response.json
        #expect(json["bodyLength"]?.intValue == body.count)
        #expect(json["bodySHA256"]?.stringValue == SHA256.hexDigest(body))
        #expect(json["json"]?["hello"]?.stringValue == "world")
        #expect(json["data"]?.stringValue == String(decoding: body, as: UTF8.self))
        #expect(json["headers"]?["Content-Type"]?.stringValue == "application/json")

        let form = try client.request("PUT", "/put", headers: ["Content-Type: application/x-www-form-urlencoded"],
                                      body: Array("a=1&a=2&name=hello+w%C3%B6rld".utf8))
        #expect(form.json["form"]?["a"] == .array(["1", "2"]))
        #expect(form.json["form"]?["name"]?.stringValue == "hello wörld")
    }

    @Test("a chunked body with extensions and trailers is decoded")
    func chunkedBody() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("POST /anything/chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;ext=1\r\nhello\r\n1\r\n \r\nA\r\n0123456789\r\n0\r\nX-Trailer: yes\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.json["data"]?.stringValue == "hello 0123456789")
        #expect(response.json["bodyLength"]?.intValue == 16)
        #expect(response.json["path"]?.stringValue == "/anything/chunked")
        // The connection is still usable after the trailer.
        #expect(try client.request("GET", "/get").status == 200)
        #expect(server.acceptedConnections == 1)
    }

    @Test("Expect: 100-continue gets 100 Continue before the body is sent")
    func expectContinue() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let body = SampleServer.deterministicBytes(count: 100_000, seed: 7)
        try client.send("POST /post HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\nExpect: 100-continue\r\n\r\n")
        let interim = try client.readResponse()
        #expect(interim.status == 100)
        try client.send(body)
        let final = try client.readResponse()
        #expect(final.status == 200)
        #expect(final.json["bodySHA256"]?.stringValue == SHA256.hexDigest(body))
        #expect(final.json["data"]?.stringValue?.hasPrefix("data:application/octet-stream;base64,") == true)

        // A route that does not want the body answers without 100 and closes.
        let rejected = try RawClient(port: server.port)
        try rejected.send("POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n")
        let answer = try rejected.readResponse()
        #expect(answer.status == 404)
        #expect(answer.header("Connection") == "close")
    }

    @Test("/bytes honours Range requests")
    func ranges() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let full = try client.request("GET", "/bytes/1000?seed=3")
        #expect(full.status == 200)
        #expect(full.body == SampleServer.deterministicBytes(count: 1000, seed: 3))
        #expect(full.header("Accept-Ranges") == "bytes")

        let middle = try client.request("GET", "/bytes/1000?seed=3", headers: ["Range: bytes=10-19"])
        #expect(middle.status == 206)
        #expect(middle.header("Content-Range") == "bytes 10-19/1000")
        #expect(middle.body == Array(full.body[10..<20]))

        let tail = try client.request("GET", "/bytes/1000?seed=3", headers: ["Range: bytes=995-"])
        #expect(tail.status == 206)
        #expect(tail.body == SampleServer.deterministicBytes(count: 5, seed: 3, offset: 995))

        let suffix = try client.request("GET", "/bytes/1000?seed=3", headers: ["Range: bytes=-3"])
        #expect(suffix.header("Content-Range") == "bytes 997-999/1000")

        let beyond = try client.request("GET", "/bytes/1000?seed=3", headers: ["Range: bytes=1000-"])
        #expect(beyond.status == 416)
        #expect(beyond.header("Content-Range") == "bytes */1000")

        let head = try client.request("HEAD", "/bytes/1000")
        #expect(head.header("Content-Length") == "1000")
        #expect(head.body.isEmpty)

        let streamed = try client.request("GET", "/stream-bytes/5000?seed=3&chunk_size=777")
        #expect(streamed.header("Transfer-Encoding") == "chunked")
        #expect(streamed.body == SampleServer.deterministicBytes(count: 5000, seed: 3))
        #expect(server.acceptedConnections == 1)
    }

    @Test("/upload reports each multipart part with its SHA-256")
    func upload() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let file = SampleServer.deterministicBytes(count: 200_000, seed: 9)
        let boundary = "----chain-test-boundary"
        let body = multipartBody(boundary: boundary, parts: [
            ("comment", nil, nil, Array("hi there".utf8)),
            ("file", "data.bin", "application/octet-stream", file),
        ])
        let response = try client.request("POST", "/upload",
                                          headers: ["Content-Type: multipart/form-data; boundary=\(boundary)"], body: body)
        #expect(response.status == 200)
        let parts = response.json["parts"]?.arrayValue ?? []
        try #require(parts.count == 2)
        #expect(parts[0]["name"]?.stringValue == "comment")
        #expect(parts[0]["filename"] == .null)
        #expect(parts[0]["size"]?.intValue == 8)
        #expect(parts[0]["sha256"]?.stringValue == SHA256.hexDigest("hi there"))
        #expect(parts[1]["filename"]?.stringValue == "data.bin")
        #expect(parts[1]["contentType"]?.stringValue == "application/octet-stream")
        #expect(parts[1]["size"]?.intValue == file.count)
        #expect(parts[1]["sha256"]?.stringValue == SHA256.hexDigest(file))

        let broken = try client.request("POST", "/upload",
                                        headers: ["Content-Type: multipart/form-data; boundary=\(boundary)"],
                                        body: Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end".utf8))
        #expect(broken.status == 400)
        let notMultipart = try client.request("POST", "/upload", headers: ["Content-Type: text/plain"], body: [1, 2, 3])
        #expect(notMultipart.status == 400)
    }

    @Test("unknown routes are 404 JSON, wrong methods 405")
    func notFound() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let missing = try client.request("GET", "/no/such/route")
        #expect(missing.status == 404)
        #expect(missing.header("Content-Type") == "application/json; charset=utf-8")
        #expect(missing.json["error"]?.stringValue == "not found")
        let wrongMethod = try client.request("DELETE", "/get")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow") == "GET, HEAD")
    }

    @Test("malformed requests get a 4xx/5xx and the connection is closed", arguments: [
        ("GARBAGE\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nBad Header Line\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nName : value\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\n folded: header\r\n\r\n", 400),
        ("GET /get HTTP/2.0\r\n\r\n", 505),
        ("GET /get HTTP/1.1\r\nContent-Length: -5\r\n\r\n", 400),
        ("GET /get HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", 400),
        ("POST /post HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        ("POST /post HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ("GET /\u{7f} HTTP/1.1\r\n\r\n", 400),
        ("G(T / HTTP/1.1\r\n\r\n", 400),
        ("GET /get HTTP/1.1\r\nExpect: something\r\n\r\n", 417),
    ])
    func malformed(request: String, status: Int) throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send(request)
        let response = try client.readResponse()
        #expect(response.status == status)
        #expect(response.header("Connection") == "close")
        #expect(client.isClosedByServer())
    }

    @Test("a request head over 64 KiB is 431")
    func hugeHead() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let filler = String(repeating: "a", count: 1000)
        var request = "GET /get HTTP/1.1\r\n"
        for index in 0..<70 { request += "X-Filler-\(index): \(filler)\r\n" }
        try client.send(request + "\r\n")
        #expect(try client.readResponse().status == 431)
    }

    @Test("stop() returns promptly with idle, stalled and delayed connections open")
    func stopPromptly() throws {
        let server = try SampleServer()
        let idle = try RawClient(port: server.port)
        #expect(try idle.request("GET", "/get").status == 200)
        let stalled = try RawClient(port: server.port)
        try stalled.send("GET /fault/stall HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try stalled.readResponse(forHead: true).header("Content-Length") == "1000")
        let delayed = try RawClient(port: server.port)
        try delayed.send("GET /delay/20 HTTP/1.1\r\nHost: x\r\n\r\n")
        // The delay request is in the server once it has been counted.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        while server.requestCount < 3 && clock.now < deadline { sched_yield() }
        #expect(server.requestCount == 3)

        let start = clock.now
        server.stop()
        #expect(clock.now - start < .seconds(2))
        #expect(idle.isClosedByServer())
        #expect(stalled.isClosedByServer())
        #expect(delayed.isClosedByServer())
        server.stop()
        #expect(throws: ClientError.self) { try RawClient(port: server.port) }
    }

    @Test("200 concurrent connections are all served")
    func manyConnections() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let clients = try (0..<200).map { _ in try RawClient(port: server.port) }
        for (index, client) in clients.enumerated() {
            try client.send("GET /anything/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
        }
        for (index, client) in clients.enumerated() {
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.json["path"]?.stringValue == "/anything/\(index)")
        }
        #expect(server.acceptedConnections == 200)
    }
}
