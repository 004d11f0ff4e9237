/// Broken responses for the client's error-handling tests. Each writes raw bytes and the
/// connection is closed afterwards.
extension Router {
    static let faultRoutes: [Route] = [
        Route(nil, "/fault/close-mid-body", { _ in partialBody(declared: 100_000, sent: 50_000) }),
        Route(nil, "/fault/short-body", { _ in partialBody(declared: 1_000, sent: 500) }),
        Route(nil, "/fault/reset", { _ in
            Response(status: 200, body: .raw { socket, _ in
                try socket.sendAll(head(contentLength: 100_000))
                try socket.sendAll(SampleServer.deterministicBytes(count: 50_000))
                // With a zero linger time the close that follows sends RST instead of FIN.
                socket.setLingerZero()
            })
        }),
        Route(nil, "/fault/stall", { _ in
            Response(status: 200, body: .raw { socket, server in
                try socket.sendAll(head(contentLength: 1_000))
                server.waitForPeerClose(socket.fd)
            })
        }),
        Route(nil, "/fault/long-body", { _ in
            Response(status: 200, body: .raw { socket, _ in
                try socket.sendAll(head(contentLength: 10) + Array("0123456789-and-bytes-past-content-length".utf8))
            })
        }),
        Route(nil, "/fault/bad-chunked", { _ in
            Response(status: 200, body: .raw { socket, _ in
                try socket.sendAll("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nhello\r\nzz-not-hex\r\nworld\r\n0\r\n\r\n")
            })
        }),
        Route(nil, "/fault/garbage-status", { _ in
            Response(status: 200, body: .raw { socket, _ in
                try socket.sendAll("HTTP/1.1 ABC Not-A-Status\r\nContent-Length: 2\r\n\r\nok")
            })
        }),
        Route(nil, "/fault/huge-headers", { _ in
            Response(status: 200, body: .raw { socket, _ in
                try socket.sendAll("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n")
                let filler = String(repeating: "x", count: 1_000)
                // 1024 lines of about 1 KiB: 1 MiB of headers, sent in 64 KiB batches.
                for batch in 0..<16 {
                    var lines = ""
                    for line in 0..<64 { lines += "X-Filler-\(batch * 64 + line): \(filler)\r\n" }
                    try socket.sendAll(lines)
                }
                try socket.sendAll("Content-Length: 2\r\n\r\nok")
            })
        }),
        Route(nil, "/fault/no-response", { _ in
            Response(status: 200, body: .raw { _, _ in })
        }),
    ]

    private static func head(contentLength: Int) -> [UInt8] {
        Array("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(contentLength)\r\n\r\n".utf8)
    }

    /// A head announcing `declared` bytes, then only `sent` of them, then the close.
    private static func partialBody(declared: Int, sent: Int) -> Response {
        Response(status: 200, body: .raw { socket, _ in
            try socket.sendAll(head(contentLength: declared))
            try socket.sendAll(SampleServer.deterministicBytes(count: sent))
        })
    }
}
