/// Writes a streamed response body, framing it as chunked when there is no Content-Length.
/// Lives on its connection's thread.
package final class BodyWriter {
    private let socket: Socket
    private let chunked: Bool
    /// The server, so a pacing route can wait without outliving `stop()`.
    let context: ServerContext
    /// The body bytes written so far (excluding chunk framing).
    private(set) var bytesWritten = 0

    init(socket: Socket, chunked: Bool, context: ServerContext) {
        self.socket = socket
        self.chunked = chunked
        self.context = context
    }

    /// Sends `bytes` (as one chunk when chunked). Empty input sends nothing, because an empty
    /// chunk would end a chunked body.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        if chunked {
            var framed = Array(String(bytes.count, radix: 16).utf8) + [0x0d, 0x0a]
            framed.append(contentsOf: bytes)
            framed.append(contentsOf: [0x0d, 0x0a])
            try socket.sendAll(framed)
        } else {
            try socket.sendAll(bytes)
        }
        bytesWritten += bytes.count
    }

    /// Sends `bytes`.
    package func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in try write(raw) }
    }

    /// Ends a chunked body (no trailers); does nothing otherwise.
    func finish() throws {
        if chunked { try socket.sendAll(Array("0\r\n\r\n".utf8)) }
    }

    /// Waits `seconds`; `false` if the server stopped meanwhile (the route should give up).
    package func wait(seconds: Double) -> Bool {
        context.wait(seconds: seconds)
    }
}
