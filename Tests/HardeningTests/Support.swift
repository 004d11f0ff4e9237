import AFStyle
import Chain
import Dispatch
import Foundation
import SampleServer
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif
@_exported import TestSupport

// Shared helpers of the hardening suites. Every wait is on an event with a bounded timeout;
// nothing sleeps to "let things happen".

/// A client of the hardening suites' own, so their stalls and timeouts never queue behind
/// (or in front of) other suites' requests on `HTTPClient.shared`.
enum Clients {
    static let faults = HTTPClient(configuration: HTTPClient.Configuration(
        maximumConnectionsPerHost: 32, maximumConcurrentRequestsPerHost: 32, maximumIdleConnections: 8))
}


/// A string argument with a readable name in the test report.
struct Named<Value: Sendable>: Sendable, CustomTestStringConvertible {
    let name: String
    let value: Value
    var testDescription: String { name }
}

/// A JSON object from `JSONSerialization`, carried across queues. `@unchecked Sendable`: it is
/// made on the callback queue and only read afterwards.
struct JSONBox: @unchecked Sendable {
    let object: [String: Any]
    init(_ object: [String: Any]) { self.object = object }
}

/// A unique query value: the client shares one transfer between identical GETs in flight, and
/// parallel tests must not share theirs.
func unique() -> String { UUID().uuidString }

/// A port on 127.0.0.1 where connections are refused, held for the test process's life.
func closedPort() throws -> UInt16 {
    UInt16(try PeerProcess.refusingPort())
}

// MARK: Collecting callbacks


/// What one delivery said, in a form both front ends can report.
enum Outcome: Sendable, CustomStringConvertible {
    case success(bytes: Int)
    case failure(NetworkError)

    init(_ result: Result<Data, NetworkError>) {
        switch result {
        case .success(let data): self = .success(bytes: data.count)
        case .failure(let error): self = .failure(error)
        }
    }

    var error: NetworkError? {
        if case .failure(let error) = self { return error }
        return nil
    }

    var kind: NetworkError.Kind? { error?.kind }

    var bytes: Int? {
        if case .success(let bytes) = self { return bytes }
        return nil
    }

    var description: String {
        switch self {
        case .success(let bytes): "success(\(bytes) bytes)"
        case .failure(let error): "failure(\(error.debugDescription))"
        }
    }
}

/// Waits until every callback a finished call could still make has had its chance to run:
/// the cache store's queue (where stores happen) and the callback queue are drained, in turn,
/// three times. Each step waits for work already queued, so a duplicate delivery queued by
/// the first one would be seen by the caller's count afterwards.
func settle(cache: ResponseCache?, queue: DispatchQueue) async {
    for _ in 0..<3 {
        if let cache { _ = await cache.store.entryCount() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }
}

// MARK: Requests

/// Sets limits on every request it adapts: how the front ends (which have no modifiers for
/// them) reach the engine's response-size limit, idle timeout and redirect policy.
struct Limits: RequestInterceptor, Sendable {
    var maximumResponseSize: Int64?
    var idleTimeout: TimeInterval?
    var totalTimeout: TimeInterval?
    var redirectPolicy: RedirectPolicy?

    init(maximumResponseSize: Int64? = nil, idleTimeout: TimeInterval? = nil, totalTimeout: TimeInterval? = nil,
         redirectPolicy: RedirectPolicy? = nil) {
        self.maximumResponseSize = maximumResponseSize
        self.idleTimeout = idleTimeout
        self.totalTimeout = totalTimeout
        self.redirectPolicy = redirectPolicy
    }

    func adapt(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPRequest, NetworkError>) -> Void) {
        var request = request
        if let maximumResponseSize { request.maximumResponseSize = maximumResponseSize }
        if let idleTimeout { request.timeouts.idle = idleTimeout }
        if let totalTimeout { request.timeouts.total = totalTimeout }
        if let redirectPolicy { request.redirectPolicy = redirectPolicy }
        completion(.success(request))
    }
}

/// A response cache in a directory of its own, with its reporter's events recorded.
final class TemporaryCache: Sendable {
    let directory: URL
    let cache: ResponseCache
    let events: Recorder<CacheEvent>

    init(directory: URL? = nil) throws {
        let directory = try directory ?? temporaryDirectory("cache").appendingPathComponent("store", isDirectory: true)
        let events = Recorder<CacheEvent>()
        self.directory = directory
        self.events = events
        cache = ResponseCache(directory: directory, reporter: { events.append($0) })
    }

    var entryCount: Int {
        get async { await cache.store.entryCount() }
    }

    /// Removes the directory (and its parent made by `init`).
    func remove() {
        try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
    }
}

/// A Chain configuration on the hardening client, with `cache` as its store.
func chainConfiguration(cache: ResponseCache? = nil, client: HTTPClient = Clients.faults,
                        queue: DispatchQueue) -> ChainConfiguration {
    var configuration = ChainConfiguration(callbackQueue: queue, client: client)
    if let cache { configuration.cache = cache }
    return configuration
}

/// Runs a Chain request with the data terminal; returns its task and the log of deliveries.
func startChain(_ request: Request) -> (HTTPTask, Recorder<Outcome>) {
    let log = Recorder<Outcome>()
    let task = request.responseData { log.append(Outcome($0)) }
    return (task, log)
}

/// An AFStyle manager on `client` whose callbacks go to `queue` and whose `responseObject` is `Data`.
func makeManager(client: HTTPClient = Clients.faults, queue: DispatchQueue, baseURL: URL? = nil) -> HTTPSessionManager {
    let manager = HTTPSessionManager(baseURL: baseURL, client: client)
    manager.responseSerializer = .data
    manager.completionQueue = queue
    return manager
}

/// The `success`/`failure` pair of an AFStyle call, recorded as outcomes; `tasks` records
/// whether `failure` got a task.
struct AFCallbacks: Sendable {
    let log = Recorder<Outcome>()
    let failureTasks = Recorder<Bool>()

    var success: HTTPSessionManager.SuccessHandler {
        { [log] _, object in log.append(.success(bytes: (object as? Data)?.count ?? -1)) }
    }

    var failure: HTTPSessionManager.FailureHandler {
        { [log, failureTasks] task, error in
            failureTasks.append(task != nil)
            log.append(.failure(error))
        }
    }
}

// MARK: Open files

/// What this process has open, from `/proc/self/fd` and `/proc/net/tcp{,6}`.
struct OpenFiles {
    /// `readlink` of every descriptor: a path, `socket:[inode]`, `pipe:[inode]`, `anon_inode:…`.
    let targets: [String]
    /// For each TCP socket inode: its local and remote ports.
    private let tcpPorts: [String: (local: UInt16, remote: UInt16)]

    static func snapshot() -> OpenFiles {
        var targets: [String] = []
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for name in names {
            var buffer = [CChar](repeating: 0, count: 4096)
            let length = readlink("/proc/self/fd/\(name)", &buffer, buffer.count - 1)
            guard length > 0 else { continue }  // the directory's own descriptor, already closed
            targets.append(String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        var ports: [String: (local: UInt16, remote: UInt16)] = [:]
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let columns = line.split(separator: " ", omittingEmptySubsequences: true)
                guard columns.count > 9,
                      let local = columns[1].split(separator: ":").last.flatMap({ UInt16($0, radix: 16) }),
                      let remote = columns[2].split(separator: ":").last.flatMap({ UInt16($0, radix: 16) }) else { continue }
                ports[String(columns[9])] = (local, remote)
            }
        }
        return OpenFiles(targets: targets, tcpPorts: ports)
    }

    var count: Int { targets.count }

    /// Descriptors of files under `directory`.
    func files(under directory: URL) -> [String] {
        let prefix = directory.resolvingSymlinksInPath().path
        return targets.filter { $0.hasPrefix(prefix) }
    }

    /// Descriptors of TCP sockets with `port` at either end (a client's connection to a
    /// server on `port`, or the server's side of it).
    func sockets(port: UInt16) -> [String] {
        targets.filter { target in
            guard target.hasPrefix("socket:["), target.hasSuffix("]") else { return false }
            let inode = String(target.dropFirst("socket:[".count).dropLast())
            guard let ports = tcpPorts[inode] else { return false }
            return ports.local == port || ports.remote == port
        }
    }
}
