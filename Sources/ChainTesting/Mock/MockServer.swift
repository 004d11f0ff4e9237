import Foundation
import HTTPCore
import SampleServer
import Synchronization

/// A real HTTP/1.1 server on 127.0.0.1, in the test's own process, that answers with the
/// responses a test queues and records what it receives — OkHttp's `MockWebServer`.
///
/// ```swift
/// let server = try MockServer()               // a free port, stopped at deinit
/// server.enqueue(MockResponse(status: 503))
/// server.enqueue(.json(#"{"id":101,"name":"wiki"}"#))
///
/// let user = try await Request.url(server.url("/user/101")).retry(.default).response(User.self)
///
/// let first = try await server.takeRequest()  // the 503's request
/// #expect(first.path == "/user/101")
/// #expect(try await server.takeRequest().isConnectionReused)
/// ```
///
/// Each request gets the next queued response, or — when ``dispatcher`` is set — the one it
/// returns. With neither, the answer is a `500` whose body names the request, so a missing
/// response fails the test instead of hanging it. Connections are the sample server's:
/// keep-alive, chunked and `Content-Length` bodies, `Expect: 100-continue`, HTTP/1.0; a body
/// over 64 MiB gets `413` and is not recorded.
///
/// A ``dispatcher`` that uses the server should capture it weakly: the server keeps its
/// dispatcher, so a strong capture keeps the server alive past the test (until ``shutdown()``).
///
/// With `tls: true` the server speaks HTTPS with a certificate made at start for `127.0.0.1`
/// and `localhost`; give clients ``tlsOptions`` (its certificate as their CA file).
public final class MockServer: Sendable {
    /// The largest request body recorded; larger ones are answered `413`.
    static let bodyLimit = 64 << 20

    /// The port clients connect to.
    public let port: UInt16
    /// `http://127.0.0.1:PORT` (`https://` with TLS), without a trailing slash.
    public let baseURL: URL
    /// The server's certificate (PEM), with TLS; `nil` without.
    public let certificateURL: URL?

    private let server: SampleServer
    private let front: TLSFront?
    /// The directory of the TLS identity, removed at shutdown.
    private let directory: URL?
    private let core = MockServerCore()

    /// Starts a server on a free port of 127.0.0.1.
    /// - Parameter tls: serve HTTPS with a certificate made now. Default `false`.
    /// - Throws: ``MockServerError/startFailed(_:)`` or ``MockServerError/tlsFailed(_:)``.
    public init(tls: Bool = false) throws(MockServerError) {
        let core = self.core
        let server: SampleServer
        do {
            server = try SampleServer(port: 0) { context in try MockServer.answer(context, core: core) }
        } catch {
            throw .startFailed(String(describing: error))
        }
        self.server = server
        guard tls else {
            front = nil
            directory = nil
            certificateURL = nil
            port = server.port
            baseURL = server.baseURL
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chain-mock-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let front = try TLSFront(upstreamPort: server.port, directory: directory)
            guard let url = URL(string: "https://127.0.0.1:\(front.port)") else {
                throw TLSFrontError(message: "cannot form the base URL")
            }
            self.front = front
            self.directory = directory
            certificateURL = front.certificateURL
            port = front.port
            baseURL = url
        } catch {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
            throw .tlsFailed(String(describing: error))
        }
    }

    deinit {
        shutdown()
    }

    /// TLS settings that trust this server's certificate (and only it): its CA file. Without
    /// TLS, the default settings.
    public var tlsOptions: TLSOptions { TLSOptions(caFile: certificateURL) }

    /// The URL of `path` on this server: `server.url("/users?page=2")`. A path without a
    /// leading `/` gets one; characters a URL cannot hold are percent-encoded.
    public func url(_ path: String) -> URL {
        let path = path.hasPrefix("/") ? path : "/" + path
        if let url = URL(string: baseURL.absoluteString + path) { return url }
        var allowed = CharacterSet.urlPathAllowed
        allowed.insert(charactersIn: "?&=%#")
        let encoded = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        return URL(string: baseURL.absoluteString + encoded) ?? baseURL
    }

    /// Queues `response` for the next request that finds the queue's older responses taken.
    public func enqueue(_ response: MockResponse) {
        core.answers.withLock { $0.queue.append(response) }
    }

    /// The responses queued and not yet sent.
    public var queuedResponseCount: Int { core.answers.withLock { $0.queue.count } }

    /// Answers every request instead of the queue, on the request's connection thread; what
    /// it throws is answered with a `500` naming the error. Default `nil`: the queue answers.
    public var dispatcher: (@Sendable (RecordedRequest) throws -> MockResponse)? {
        get { core.answers.withLock { $0.dispatcher } }
        set { core.answers.withLock { $0.dispatcher = newValue } }
    }

    /// The requests received so far (whether or not taken).
    public var requestCount: Int { core.log.receivedCount }

    /// The oldest request not yet taken, waiting up to `timeout` seconds (default 10) for one
    /// to arrive. Blocks the calling thread: from an `async` test the `async` form is chosen.
    /// - Throws: ``MockServerError/noRequest(seconds:)`` when none arrived in time.
    public func takeRequest(timeout: TimeInterval = 10) throws(MockServerError) -> RecordedRequest {
        guard let request = core.log.take(timeout: timeout) else { throw .noRequest(seconds: timeout) }
        return request
    }

    /// The oldest request not yet taken, suspending up to `timeout` seconds (default 10) for
    /// one to arrive.
    /// - Throws: ``MockServerError/noRequest(seconds:)`` when none arrived in time or the
    ///   task was cancelled.
    public func takeRequest(timeout: TimeInterval = 10) async throws(MockServerError) -> RecordedRequest {
        guard let request = await core.log.take(timeout: timeout) else { throw .noRequest(seconds: timeout) }
        return request
    }

    /// Closes the listener and every connection (a request waiting for its answer gets none),
    /// drops the queue and the dispatcher, ends every wait in `takeRequest(timeout:)`
    /// (requests already received can still be taken), removes the TLS identity and waits for
    /// the server's threads. Idempotent; also run at deinit.
    public func shutdown() {
        front?.stop()
        server.stop()
        core.answers.withLock { $0 = MockServerCore.Answers() }
        core.log.close()
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }
}
