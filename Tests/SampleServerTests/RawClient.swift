import Glibc

/// Why the test client failed.
enum ClientError: Error {
    case connect(errno: Int32)
    case send(errno: Int32)
    /// No byte within the receive timeout.
    case timedOut
    /// The server closed before a complete response.
    case closed
    case malformed(String)
}

/// A response as read off the wire by `RawClient`.
struct RawResponse {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    /// The first value of `name`, case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A minimal HTTP/1.1 client on a blocking POSIX socket, written for these tests so they
/// exercise the server byte for byte without URLSession or curl. Every read has a timeout,
/// so a server bug fails a test instead of hanging it.
final class RawClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16, timeoutSeconds: Int = 5) throws {
        fd = try Self.makeSocket(family: AF_INET, timeoutSeconds: timeoutSeconds)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // No `close` here: a class whose init throws once every property is set is
        // deinitialized, and `deinit` closes `fd` — closing it here too closed whatever
        // descriptor a parallel test had been given that number meanwhile.
        guard result == 0 else { throw ClientError.connect(errno: errno) }
    }

    /// Connects to a Unix-domain socket at `unixSocketPath` (at most 107 bytes).
    init(unixSocketPath path: String, timeoutSeconds: Int = 5) throws {
        let bytes = Array(path.utf8)
        var address = sockaddr_un()
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw ClientError.connect(errno: ENAMETOOLONG) }
        fd = try Self.makeSocket(family: AF_UNIX, timeoutSeconds: timeoutSeconds)
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        // No `close` here: a class whose init throws once every property is set is
        // deinitialized, and `deinit` closes `fd` — closing it here too closed whatever
        // descriptor a parallel test had been given that number meanwhile.
        guard result == 0 else { throw ClientError.connect(errno: errno) }
    }

    /// A blocking stream socket whose reads and writes give up after `timeoutSeconds`.
    private static func makeSocket(family: Int32, timeoutSeconds: Int) throws -> Int32 {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError.connect(errno: errno) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    deinit {
        close(fd)
    }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw ClientError.send(errno: errno) }
            offset += n
        }
    }

    /// Receives more bytes into the buffer; `false` at EOF (or after a reset).
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                return true
            }
            if n == 0 { return false }
            switch errno {
            case EINTR: continue
            case EAGAIN: throw ClientError.timedOut
            default: return false
            }
        }
    }

    private func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 0x0a) {
                var line = Array(buffer[..<newline])
                if line.last == 0x0d { line.removeLast() }
                buffer.removeFirst(newline + 1)
                return String(decoding: line, as: UTF8.self)
            }
            guard try fill() else { throw ClientError.closed }
        }
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw ClientError.closed }
        }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    /// Reads a response head (status line and fields); the body is left on the socket.
    func readHead() throws -> RawResponse {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw ClientError.malformed("status line \(statusLine)")
        }
        var response = RawResponse(status: status, headers: [], body: [])
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw ClientError.malformed("header \(line)") }
            response.headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters()))
        }
        return response
    }

    /// The next chunk of a chunked body; `nil` after the zero-size chunk (and any trailers).
    /// Throws `ClientError.closed` when the server closes first.
    func nextChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
            throw ClientError.malformed("chunk size \(sizeLine)")
        }
        if size == 0 {
            while try !readLine().isEmpty {}
            return nil
        }
        let data = try readExactly(size)
        guard try readLine().isEmpty else { throw ClientError.malformed("chunk end") }
        return data
    }

    /// Reads one response (a 1xx one too). `forHead` means the request was HEAD: no body.
    func readResponse(forHead: Bool = false) throws -> RawResponse {
        var response = try readHead()
        let status = response.status
        if forHead || (100..<200).contains(status) || status == 204 || status == 304 { return response }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while let chunk = try nextChunk() { response.body += chunk }
        } else if let length = response.header("Content-Length").flatMap({ Int($0) }) {
            response.body = try readExactly(length)
        } else {
            response.body = try readToEnd()
        }
        return response
    }

    /// Everything until the server closes.
    func readToEnd() throws -> [UInt8] {
        while try fill() {}
        defer { buffer.removeAll() }
        return buffer
    }

    /// `true` if the server has closed the connection (reads EOF within the timeout).
    func isClosedByServer() -> Bool {
        (try? readToEnd()) != nil
    }

    /// Sends a request and reads its response.
    func request(_ method: String, _ target: String, headers: [String] = [], body: [UInt8] = []) throws -> RawResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for header in headers { head += header + "\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try send(Array(head.utf8) + body)
        return try readResponse(forHead: method == "HEAD")
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    func trimmingCharacters() -> String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
