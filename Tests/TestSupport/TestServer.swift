import Foundation
import SampleServer

/// One sample server for the whole test process, on a free loopback port. Tests that count
/// requests or connections start their own (see `withPrivateServer`).
public enum TestServer {
    /// The server, or `nil` when it could not start (every accessor then throws).
    public static let shared: SampleServer? = try? SampleServer(port: 0)

    /// `http://127.0.0.1:PORT`.
    public static var baseURL: URL {
        get throws {
            guard let server = shared else { throw TestFailure("the sample server did not start") }
            return server.baseURL
        }
    }

    /// `http://127.0.0.1:PORT` + `path` (which starts with `/`), as a string: it may hold
    /// bytes a `URL` refuses, for tests that send them.
    public static func url(_ path: String) throws -> String {
        try baseURL.absoluteString + path
    }

    /// `path` resolved against the server's base URL.
    public static func endpoint(_ path: String) throws -> URL {
        guard let url = URL(string: path, relativeTo: try baseURL)?.absoluteURL else {
            throw TestFailure("bad path \(path)")
        }
        return url
    }
}

/// Runs `body` with a server of its own, stopped afterwards, for tests that count requests or
/// connections.
public func withPrivateServer<T>(_ body: (SampleServer) async throws -> T) async throws -> T {
    let server = try SampleServer(port: 0)
    defer { server.stop() }
    return try await body(server)
}
