import Foundation
import HTTPCore
import SampleServer
import Synchronization

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

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
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

/// A thread-safe list for collecting events from callbacks.
final class Recorder<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])
    func append(_ element: Element) { storage.withLock { $0.append(element) } }
    var values: [Element] { storage.withLock { $0 } }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    var success: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}

func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("chain-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
