/// One client connection, served on its own thread: reads requests one after another
/// (HTTP/1.1 keep-alive), routes each, writes the response, until either side closes.
final class Connection {
    /// The largest request head accepted; larger ones get 431.
    static let maxHeadSize = 64 * 1024
    /// Idle keep-alive connections are dropped after this long, so a forgotten client cannot
    /// hold a thread forever in a long-running `sample-server`.
    static let idleTimeoutSeconds = 120

    private let socket: Socket
    private let context: ServerContext
    private let reader: SocketReader
    private let memory: ConnectionMemory

    init(fd: Int32, context: ServerContext, serial: Int) {
        socket = Socket(fd: fd)
        memory = ConnectionMemory(serial: serial)
        self.context = context
        reader = SocketReader(socket: socket)
    }

    /// Serves requests until the connection should end. Never throws: a network error just
    /// ends the connection (the caller closes the descriptor).
    func run() {
        // Nagle's algorithm is TCP's; a Unix-domain socket has no such option.
        if context.unixSocket == nil { socket.setNoDelay() }
        socket.setReceiveTimeout(seconds: Self.idleTimeoutSeconds)
        do {
            while !context.isStopped, try serveOne() {}
        } catch {
            // The peer went away or the server is stopping; nothing to answer.
        }
    }

    /// Serves one request; `true` if the connection stays open for another.
    private func serveOne() throws -> Bool {
        let headBytes: [UInt8]
        do {
            guard let bytes = try reader.readHead(limit: Self.maxHeadSize) else { return false }
            headBytes = bytes
        } catch SocketReader.LineError.tooLong {
            try fail(status: 431, message: "request header fields too large")
            return false
        } catch SocketReader.LineError.truncated {
            return false
        }

        let head: RequestHead
        do {
            head = try RequestHead.parse(headBytes)
        } catch {
            try fail(status: error.status, message: error.reason)
            return false
        }
        context.state.withLock { $0.requestCount += 1 }

        let framing: RequestBody.Framing
        let mustClose: Bool
        do {
            (framing, mustClose) = try Self.framing(of: head)
        } catch {
            try fail(status: error.status, message: error.reason)
            return false
        }

        let connectionTokens = head.headers.tokens("Connection")
        var keepAlive = head.minorVersion >= 1
            ? !connectionTokens.contains("close")
            : connectionTokens.contains("keep-alive")
        if mustClose { keepAlive = false }

        var sendContinue: (() throws -> Void)?
        let expectations = head.headers.tokens("Expect")
        if !expectations.isEmpty {
            guard expectations == ["100-continue"] else {
                try fail(status: 417, message: "unsupported expectation")
                return false
            }
            if head.minorVersion >= 1 {
                let socket = self.socket
                sendContinue = { try socket.sendAll("HTTP/1.1 100 Continue\r\n\r\n") }
            }
        }

        let body = RequestBody(reader: reader, framing: framing, sendContinue: sendContinue)
        let request = RouteContext(head: head, body: body, context: context, connection: memory)
        var response: Response
        do {
            response = try context.handler?(request) ?? Router.route(request)
        } catch let error as BodyError {
            keepAlive = false
            switch error {
            case .malformed(let reason): response = .error(reason, code: "400", status: 400)
            case .tooLarge(let limit): response = .error("request body larger than \(limit) bytes", code: "413", status: 413)
            case .truncated: return false
            }
        }

        // On a connection that stays open, read what the route left unread so the next
        // request starts at the right byte (before writing, so both sides cannot block in
        // send). A client still waiting for 100 Continue has not sent the body: answer and
        // close instead. A closing connection skips this; the lingering close discards it.
        if response.closeConnection || context.isStopped { keepAlive = false }
        if keepAlive && !body.isFinished {
            if body.isAwaitingContinue {
                keepAlive = false
            } else {
                do { try body.drain() } catch { keepAlive = false }
            }
        }

        if case .raw(let produce) = response.body {
            // Fault responses end with a plain close (or a RST), never a graceful shutdown.
            try produce(socket, context)
            return false
        }
        defer { memory.requestsBefore += 1 }
        if try !write(response, for: head, keepAlive: keepAlive) {
            context.lingeringClose(socket)
            return false
        }
        return true
    }

    /// How the request body is delimited, and whether the connection must close afterwards.
    private static func framing(of head: RequestHead) throws(RequestHead.ParseError) -> (RequestBody.Framing, Bool) {
        let transferCodings = head.headers.tokens("Transfer-Encoding")
        let lengths = head.headers.values("Content-Length")
        if !transferCodings.isEmpty {
            guard transferCodings.last == "chunked", transferCodings.filter({ $0 == "chunked" }).count == 1 else {
                throw RequestHead.ParseError(status: transferCodings.contains("chunked") ? 400 : 501,
                                             reason: "unsupported transfer coding \(transferCodings.joined(separator: ", "))")
            }
            // A message with both is a smuggling signature: honour chunked, then close (RFC 9112 §6.3).
            return (.chunked, !lengths.isEmpty)
        }
        guard !lengths.isEmpty else { return (.none, false) }
        // Repeated or comma-joined lengths are fine only if they all agree.
        let candidates = Set(lengths.flatMap { $0.split(separator: ",") }.map { $0.trimmingOWS() })
        guard candidates.count == 1, let text = candidates.first, !text.isEmpty,
              text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let length = Int(text) else {
            throw RequestHead.ParseError(status: 400, reason: "invalid Content-Length")
        }
        return (.contentLength(length), false)
    }

    /// Answers an unreadable request with a JSON error and marks the connection for closing.
    private func fail(status: Int, message: String) throws {
        let response = Response.error(message, code: String(status), status: status)
        let head = RequestHead(method: "GET", target: "/", path: "/", query: "", minorVersion: 1, headers: HeaderFields())
        _ = try write(response, for: head, keepAlive: false)
        context.lingeringClose(socket)
    }

    /// Writes the status line, headers and body (not for `.raw` bodies). Returns whether the
    /// connection may stay open: `false` when `keepAlive` is, when the body is close-delimited,
    /// or when a stream wrote a different length than it declared.
    private func write(_ response: Response, for head: RequestHead, keepAlive: Bool) throws -> Bool {
        let status = response.status
        var lines = "HTTP/1.1 \(status) \(HTTPStatus.reason(status))\r\n"
        lines += "Date: \(HTTPDate.now())\r\nServer: Chain-SampleServer\r\n"
        for (name, value) in response.headers { lines += "\(name): \(value)\r\n" }

        let noBody = Response.forbidsBody(status)
        var keepAlive = keepAlive
        var chunked = false
        switch response.body {
        case .empty:
            if !noBody { lines += "Content-Length: 0\r\n" }
        case .bytes(let bytes):
            if !noBody { lines += "Content-Length: \(bytes.count)\r\n" }
        case .stream(let length, _):
            if noBody {
                break
            } else if let length {
                lines += "Content-Length: \(length)\r\n"
            } else if head.minorVersion >= 1 {
                lines += "Transfer-Encoding: chunked\r\n"
                chunked = true
            } else {
                // HTTP/1.0 has no chunked coding: the end of the body is the end of the connection.
                keepAlive = false
            }
        case .raw:
            return false
        }
        if !keepAlive {
            lines += "Connection: close\r\n"
        } else if head.minorVersion == 0 {
            lines += "Connection: keep-alive\r\n"
        }
        lines += "\r\n"

        var out = Array(lines.utf8)
        let sendBody = !head.isHead && !noBody
        switch response.body {
        case .bytes(let bytes) where sendBody:
            // One write for a small response; a big body is not copied just to save a syscall.
            if bytes.count <= 64 * 1024 {
                out.append(contentsOf: bytes)
                try socket.sendAll(out)
            } else {
                try socket.sendAll(out)
                try socket.sendAll(bytes)
            }
        case .stream(let length, let produce) where sendBody:
            try socket.sendAll(out)
            let writer = BodyWriter(socket: socket, chunked: chunked, context: context)
            try produce(writer)
            if let length, writer.bytesWritten != length { return false }
            try writer.finish()
        default:
            try socket.sendAll(out)
        }
        return keepAlive
    }
}
