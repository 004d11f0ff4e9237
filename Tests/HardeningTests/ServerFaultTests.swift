import AFStyle
import Chain
import Dispatch
import Foundation
import Testing

/// One broken server behaviour and the error it must end in.
struct Fault: Sendable, CustomTestStringConvertible {
    enum Target: Sendable {
        /// A path (and query) on the shared sample server.
        case path(String)
        /// A port on 127.0.0.1 that nothing listens on.
        case closedPort
    }

    let name: String
    let target: Target
    let expected: NetworkError.Kind
    /// The defence the case covers: removing it changes the outcome this case asserts.
    let defence: String
    var limits = Limits()

    var testDescription: String { name }

    /// The URL, made unique per call (the client shares identical GETs in flight).
    func url() throws -> String {
        switch target {
        case .path(let path):
            return try TestServer.url(path) + (path.contains("?") ? "&" : "?") + "unique=\(unique())"
        case .closedPort:
            return "http://127.0.0.1:\(try closedPort())/get"
        }
    }

    static let mebibyte: Int64 = 1 << 20

    static let all: [Fault] = [
        Fault(name: "connection refused", target: .closedPort, expected: .cannotConnect,
              defence: "CurlError maps COULDNT_CONNECT to cannotConnect"),
        Fault(name: "reset in the middle of the body", target: .path("/fault/reset"), expected: .connectionLost,
              defence: "RECV_ERROR is connectionLost, never a success with part of the body"),
        Fault(name: "close in the middle of the body", target: .path("/fault/close-mid-body"), expected: .truncatedResponse,
              defence: "PARTIAL_FILE is truncatedResponse, never a success with part of the body"),
        Fault(name: "Content-Length larger than the body", target: .path("/fault/short-body"), expected: .truncatedResponse,
              defence: "PARTIAL_FILE is truncatedResponse"),
        Fault(name: "stall after the headers", target: .path("/fault/stall"), expected: .timedOut,
              defence: "the idle timeout (LOW_SPEED_LIMIT/LOW_SPEED_TIME)", limits: Limits(idleTimeout: 1)),
        Fault(name: "a body that trickles slower than the idle timeout", target: .path("/drip?numbytes=3&duration=9"),
              expected: .timedOut, defence: "the idle timeout (LOW_SPEED_LIMIT/LOW_SPEED_TIME)", limits: Limits(idleTimeout: 1)),
        Fault(name: "invalid chunked encoding", target: .path("/fault/bad-chunked"), expected: .invalidResponse,
              defence: "bad framing is invalidResponse"),
        Fault(name: "a garbage status line", target: .path("/fault/garbage-status"), expected: .invalidResponse,
              defence: "no HTTP/0.9, bad status lines are invalidResponse"),
        Fault(name: "1 MiB of headers", target: .path("/fault/huge-headers"), expected: .responseTooLarge,
              defence: "libcurl's response-header size limit, reported as responseTooLarge"),
        Fault(name: "no response at all", target: .path("/fault/no-response"), expected: .connectionLost,
              defence: "GOT_NOTHING is connectionLost"),
        Fault(name: "a redirect loop", target: .path("/redirect-loop"), expected: .tooManyRedirects,
              defence: "MAXREDIRS (10 by default)"),
        Fault(name: "a redirect to ftp", target: .path("/redirect-to?url=ftp://127.0.0.1/secret"), expected: .unsupportedScheme,
              defence: "REDIR_PROTOCOLS_STR http,https"),
        Fault(name: "a redirect to file", target: .path("/redirect-to?url=file:///etc/passwd"), expected: .unsupportedScheme,
              defence: "REDIR_PROTOCOLS_STR http,https"),
        Fault(name: "a gzip bomb", target: .path("/gzip-bomb?size=\(16 << 20)"), expected: .responseTooLarge,
              defence: "the size limit counts decoded bytes in the write callback",
              limits: Limits(maximumResponseSize: mebibyte)),
        Fault(name: "a body over the size limit, with Content-Length", target: .path("/bytes/\(2 << 20)"),
              expected: .responseTooLarge, defence: "the announced length checked at the first chunk, and the write-callback count",
              limits: Limits(maximumResponseSize: mebibyte)),
        Fault(name: "a chunked body over the size limit", target: .path("/stream-bytes/\(2 << 20)?chunk_size=65536"),
              expected: .responseTooLarge, defence: "the write-callback count (no Content-Length to reject early)",
              limits: Limits(maximumResponseSize: mebibyte)),
    ]
}

/// Issue 8.1: each server fault ends in its own typed error, the completion is called exactly
/// once, and nothing is cached.
@Suite("Server faults", .timeLimit(.minutes(2)))
struct ServerFaultTests {
    /// Through Chain with `.cache(.networkOnly)` on a store of its own: a success would be
    /// stored, so an empty store proves the fault never passed for one.
    @Test(arguments: Fault.all)
    func chain(_ fault: Fault) async throws {
        let store = try TemporaryCache()
        defer { store.remove() }
        let queue = DispatchQueue(label: "hardening.fault.chain")
        let (task, log) = startChain(Request.url(try fault.url())
            .configuration(chainConfiguration(cache: store.cache, queue: queue))
            .cache(.networkOnly)
            .interceptor(fault.limits))

        let first = try #require(await log.wait(for: 1).first, "no delivery for \(fault.name)")
        await settle(cache: store.cache, queue: queue)
        #expect(first.kind == fault.expected, "\(fault.name) [\(fault.defence)]: \(first)")
        #expect(log.count == 1, "\(fault.name): \(log.count) deliveries")
        #expect(task.state == .completed)
        #expect(await store.entryCount == 0, "\(fault.name) left an entry in the cache")
    }

    /// Through AFStyle with `.fileFirst` (a miss: one callback) on a store of its own.
    @Test(arguments: Fault.all)
    func afStyle(_ fault: Fault) async throws {
        let store = try TemporaryCache()
        defer { store.remove() }
        let queue = DispatchQueue(label: "hardening.fault.afstyle")
        let manager = makeManager(queue: queue)
        manager.responseCache = store.cache
        manager.cachePolicy = .fileFirst
        manager.interceptors = [fault.limits]
        let callbacks = AFCallbacks()
        let task = manager.GET(try fault.url(), success: callbacks.success, failure: callbacks.failure)

        let first = try #require(await callbacks.log.wait(for: 1).first, "no callback for \(fault.name)")
        await settle(cache: store.cache, queue: queue)
        #expect(first.kind == fault.expected, "\(fault.name) [\(fault.defence)]: \(first)")
        #expect(callbacks.log.count == 1, "\(fault.name): \(callbacks.log.count) callbacks")
        #expect(task != nil)
        #expect(await store.entryCount == 0, "\(fault.name) left an entry in the cache")
        #expect(manager.tasks.isEmpty, "a finished task is still registered")
    }

    /// A body longer than its Content-Length: libcurl delivers exactly the announced bytes
    /// (RFC 9112 §6.3) and closes the connection, so the extra bytes can never be read as the
    /// next response on a reused connection. Defence: libcurl's framing by Content-Length
    /// plus not reusing a connection with excess data (a reuse would answer the next request
    /// with "-and-bytes-past-content-length" garbage, an invalidResponse).
    @Test func aBodyLongerThanItsContentLengthIsCutAtTheAnnouncedLength() async throws {
        let queue = DispatchQueue(label: "hardening.fault.long")
        let configuration = chainConfiguration(client: HTTPClient(configuration: .init(
            maximumConnectionsPerHost: 1, maximumConcurrentRequestsPerHost: 1, maximumIdleConnections: 1)), queue: queue)
        let longURL = try TestServer.url("/fault/long-body")
        let nextURL = try TestServer.url("/get")
        let body = await withCheckedContinuation { continuation in
            Request.url(longURL).configuration(configuration).responseData { continuation.resume(returning: $0) }
        }
        #expect(String(decoding: try body.get(), as: UTF8.self) == "0123456789")
        let next = await withCheckedContinuation { continuation in
            Request.url(nextURL).configuration(configuration).responseData { continuation.resume(returning: $0) }
        }
        #expect(throws: Never.self) { try next.get() }
    }
}
