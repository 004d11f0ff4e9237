@testable import Cache
import CurlTransport
import Dispatch
import Foundation
import HTTPCore
import HTTPFeatures
import Synchronization
@_exported import TestSupport
import Testing

/// A fresh directory under the temporary directory, removed when `body` returns.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("chain-cache-tests-\(UUID().uuidString)",
                                                                            isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(url)
}

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(_ seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    var function: @Sendable () -> Date { { self.now } }
}


/// A `network` closure under the test's control: answers from `handler`, or holds the
/// request until it is cancelled when the handler returns `nil`.
final class FakeNetwork: Sendable {
    final class Transfer: CancellableTransfer {
        let onCancel: @Sendable () -> Void
        init(onCancel: @escaping @Sendable () -> Void) { self.onCancel = onCancel }
        func cancel() { onCancel() }
    }

    private struct State {
        var requests: [HTTPRequest] = []
        var cancellations = 0
    }

    private let state = Mutex(State())
    private let handler: @Sendable (HTTPRequest) -> Result<HTTPResponse, NetworkError>?

    init(_ handler: @escaping @Sendable (HTTPRequest) -> Result<HTTPResponse, NetworkError>?) {
        self.handler = handler
    }

    var requests: [HTTPRequest] { state.withLock { $0.requests } }
    var cancellations: Int { state.withLock { $0.cancellations } }

    var closure: ResponseCache.Network {
        { request, completion in
            self.state.withLock { $0.requests.append(request) }
            let answered = Mutex(false)
            let finish: @Sendable (Result<HTTPResponse, NetworkError>) -> Void = { result in
                let first = answered.withLock { done in
                    defer { done = true }
                    return !done
                }
                if first { completion(result) }
            }
            if let result = self.handler(request) {
                DispatchQueue.global().async { finish(result) }
            }
            return Transfer {
                self.state.withLock { $0.cancellations += 1 }
                finish(.failure(NetworkError(.cancelled, "cancelled")))
            }
        }
    }
}

/// A response as a server might send it.
func makeResponse(_ url: URL, status: Int = 200, body: String = "fresh", headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
    HTTPResponse(statusCode: status, headers: headers, body: Data(body.utf8), url: url)
}

/// An entry for `request`, stored at `at`.
func makeEntry(_ request: HTTPRequest, body: String = "stored", headers: HTTPHeaders = HTTPHeaders(),
               at date: Date, status: Int = 200) throws -> CacheEntry {
    let key = try #require(CacheKey(request: request))
    return CacheEntry(key: key, url: request.url, statusCode: status, headers: headers, httpVersion: .http1_1,
                      body: Data(body.utf8), requestSentAt: date, storedAt: date)
}

extension Result where Success == HTTPResponse, Failure == NetworkError {
    var bodyText: String? {
        if case .success(let response) = self { return String(decoding: response.body, as: UTF8.self) }
        return nil
    }

    var source: ResponseSource? {
        if case .success(let response) = self { return response.source }
        return nil
    }

    var errorKind: NetworkError.Kind? {
        if case .failure(let error) = self { return error.kind }
        return nil
    }
}

/// The files of a directory, without the lock file.
func entryFiles(_ directory: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0 != ".lock" }.sorted()
}
