import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import SampleServer
import Synchronization
@_exported import TestSupport

/// One sample server for the whole test process, on a free loopback port. Tests that count
/// connections start their own (see `withPrivateServer`).
enum TestServer {
    static let shared: SampleServer? = try? SampleServer(port: 0)

    static var baseURL: URL {
        get throws {
            guard let server = shared else { throw TestFailure("the sample server did not start") }
            return server.baseURL
        }
    }

    static func url(_ path: String) throws -> URL {
        guard let url = URL(string: path, relativeTo: try baseURL)?.absoluteURL else {
            throw TestFailure("bad path \(path)")
        }
        return url
    }
}


/// Runs `body` with a server of its own, stopped afterwards, for tests that count connections.
func withPrivateServer<T>(_ body: (SampleServer) async throws -> T) async throws -> T {
    let server = try SampleServer(port: 0)
    defer { server.stop() }
    return try await body(server)
}

extension HTTPClient {
    /// Sends and waits, counting completions so a test can prove "exactly once".
    func result(_ request: HTTPRequest, queue: DispatchQueue? = nil,
                progress: (@Sendable (TransferProgress) -> Void)? = nil) async -> Result<HTTPResponse, NetworkError> {
        await withCheckedContinuation { continuation in
            send(request, queue: queue, progress: progress) { continuation.resume(returning: $0) }
        }
    }
}



