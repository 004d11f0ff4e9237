import Foundation
import Glibc
@testable import SampleServer
import Testing

/// `SampleServer(unixSocketPath:)`: the socket file's life (mode, stale files, removal) and
/// the HTTP machinery over it, which is the TCP listener's.
@Suite("SampleServer on a Unix socket")
struct UnixSocketListenerTests {
    @Test("serves every route over the socket file, keep-alive included")
    func servesRoutes() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sample.sock")
        let server = try SampleServer(unixSocketPath: path)
        defer { server.stop() }
        #expect(server.unixSocketPath == path)
        #expect(server.port == 0)
        #expect(server.baseURL.absoluteString == "http://localhost")

        let client = try RawClient(unixSocketPath: path)
        let user = try client.request("GET", "/user/101")
        #expect(user.status == 200)
        #expect(user.json["name"]?.stringValue == "wiki")
        let echo = try client.request("POST", "/post", headers: ["Content-Type: application/json"],
                                      body: Array(#"{"n":1}"#.utf8))
        #expect(echo.json["json"]?["n"]?.intValue == 1)
        // No Host header: the echoed URL names the host a Unix-socket client uses.
        try client.send("GET /get HTTP/1.1\r\n\r\n")
        #expect(try client.readResponse().json["url"]?.stringValue == "http://localhost/get")
        #expect(server.acceptedConnections == 1)
        #expect(server.requestCount == 3)
    }

    @Test("the socket file has mode 0600 and is gone after stop")
    func fileModeAndRemoval() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sample.sock")
        let server = try SampleServer(unixSocketPath: path)
        var info = stat()
        #expect(lstat(path, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o777 == 0o600)

        server.stop()
        #expect(lstat(path, &info) == -1 && errno == ENOENT)
        #expect(throws: ClientError.self) { try RawClient(unixSocketPath: path) }
        server.stop()
    }

    @Test("a stale socket file is replaced; a live socket and other files are left alone")
    func existingFiles() throws {
        let directory = try TemporaryDirectory()

        // A socket file nobody accepts on, as a crashed server leaves it.
        let stale = directory.file("stale.sock")
        try bindWithoutListening(stale)
        let replacing = try SampleServer(unixSocketPath: stale)
        #expect(try RawClient(unixSocketPath: stale).request("GET", "/v1.43/info").status == 200)

        // A second server on the first one's live socket must not take it over.
        #expect {
            try SampleServer(unixSocketPath: stale)
        } throws: { error in
            guard case SampleServerError.unixSocketFailed(_, let code, _) = error else { return false }
            return code == EADDRINUSE
        }
        #expect(try RawClient(unixSocketPath: stale).request("GET", "/get").status == 200)
        replacing.stop()

        let regular = directory.file("notes.txt")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: regular))
        #expect {
            try SampleServer(unixSocketPath: regular)
        } throws: { error in
            guard case SampleServerError.unixSocketFailed(_, let code, _) = error else { return false }
            return code == EEXIST
        }
        #expect(try String(contentsOfFile: regular, encoding: .utf8) == "keep me")
    }

    @Test("stop leaves a socket file alone that a newer server bound at the same path")
    func stopRemovesOnlyItsOwnFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("shared.sock")
        let old = try SampleServer(unixSocketPath: path)
        // Simulates the old file vanishing and a newer server binding the path meanwhile.
        #expect(unlink(path) == 0)
        let newer = try SampleServer(unixSocketPath: path)
        defer { newer.stop() }
        old.stop()
        #expect(try RawClient(unixSocketPath: path).request("GET", "/get").status == 200)
    }

    @Test("a path that does not fit a socket address is refused")
    func unusablePaths() throws {
        let directory = try TemporaryDirectory()
        let long = directory.file(String(repeating: "s", count: 120) + ".sock")
        for path in ["", long, directory.file("no\u{0}nul.sock")] {
            #expect(throws: SampleServerError.self) { try SampleServer(unixSocketPath: path) }
        }
        #expect(throws: SampleServerError.self) { try SampleServer(unixSocketPath: directory.file("missing/dir.sock")) }
    }

    /// Leaves a socket file at `path` with nobody accepting on it.
    private func bindWithoutListening(_ path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
    }
}
