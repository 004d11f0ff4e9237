import Foundation

/// What a client is asked to measure. The raw values are the names used on the command line,
/// in the JSON result lines and by `Benchmarks/run`.
public enum Scenario: String, CaseIterable, Sendable {
    /// GETs of the ~300-byte JSON envelope, one at a time: the next is sent from the previous
    /// completion, so this measures the per-request cost of the whole path.
    case smallSequential = "small-seq"
    /// GETs of the envelope with `--concurrency` (32) in flight: the next is sent from a completion.
    /// Each request has its own URL (``BenchSetup/concurrentURL(_:)``), so that no client can
    /// merge identical requests in flight (HTTPCore coalesces identical GETs by default): every
    /// client must make as many transfers as raw libcurl does.
    case smallConcurrent = "small-32"
    /// GETs of the ~100 KB users array, one at a time, each decoded into `[User]`.
    case usersDecode = "users-decode"
    /// One GET of the big file (256 MiB in a full run) streamed to a file.
    case downloadFile = "download-file"
    /// The same GET into memory, for comparison with `download-file`.
    case downloadMemory = "download-memory"
    /// `.fileFirst` cache hits with `--entries` entries stored (see ``CacheHits``): the client
    /// stores `--entries` distinct responses first (``BenchSetup/cacheURL(_:)``, untimed), then
    /// makes `--count` `.fileFirst` calls for keys drawn at random among them and times only
    /// the way to each call's first delivery, the stored copy (`requests` = deliveries from
    /// the cache, `seconds` = the sum of those times).
    case cacheHits = "cache-hits"
    /// The same with `.cacheOnly` calls: one delivery each, the stored copy, timed from the call
    /// to it; the next call starts from that delivery.
    case cacheOnly = "cache-only"
    /// GETs of the envelope over TLS and HTTP/2 (`https` base URL, the runner's CA in
    /// `--ca-file`): `--concurrency` (100) streams in flight on `--connections` (1) connection,
    /// the next sent from a completion, each with its own URL as in `small-32`. The client first
    /// warms up its connections, untimed (``BenchSetup/warmUpConnections(send:)``), and fails
    /// the run when any response, warm-up included, came over another HTTP version.
    case http2Concurrent = "h2-100"
    /// The same over TLS and HTTP/1.1: `--concurrency` (100) in flight on at most
    /// `--connections` (32) connections, the rest waiting in libcurl's queue; every response
    /// must be HTTP/1.1.
    case http1TLSConcurrent = "h1-tls-100"
    /// One GET of the big file read as it arrives (a streaming API), the bytes counted and
    /// dropped: the cost of handing a body over chunk by chunk.
    case streamChunks = "stream-chunks"
    /// One GET of the server-sent events file (`text/event-stream`, `--count` events), parsed
    /// by the client's event-stream API and counted (`events` in the result line).
    case streamEvents = "stream-events"
    /// One GET of the big file read by a slow consumer (1 ms asleep after every 64 KiB) through
    /// a stream with a 1 MiB buffer: the runner compares the peak RSS with the RSS before the
    /// timed part (``BenchMain`` reports both), which the bounded buffer should keep close.
    case streamSlowRSS = "stream-slow-rss"

    /// The path on the benchmark server that the scenario fetches.
    public var path: String {
        switch self {
        case .smallSequential, .smallConcurrent, .cacheHits, .cacheOnly, .http2Concurrent, .http1TLSConcurrent: "/envelope.json"
        case .usersDecode: "/users.json"
        case .downloadFile, .downloadMemory, .streamChunks, .streamSlowRSS: "/big.bin"
        case .streamEvents: "/events.sse"
        }
    }

    /// Whether the scenario runs over TLS (the runner passes an `https` base URL and `--ca-file`).
    public var isTLS: Bool { self == .http2Concurrent || self == .http1TLSConcurrent }

    /// Whether every response must have come over HTTP/2 (else HTTP/1.1, for the TLS scenarios).
    public var wantsHTTP2: Bool { self == .http2Concurrent }
}

/// Everything a client needs to prepare a scenario, from the command line.
public struct BenchSetup: Sendable {
    /// `http://127.0.0.1:<port>` of the benchmark server.
    public var baseURL: URL
    /// Requests to time (deliveries for `cache-hits`).
    public var count: Int
    /// Requests kept in flight by `small-32`.
    public var concurrency: Int
    /// Where `download-file` writes; the client deletes its file when done.
    public var downloadDirectory: URL
    /// Cache entries stored before `cache-hits` starts.
    public var entries: Int
    /// The per-host connection cap of the TLS scenarios (`--connections`, default 32; 1 for
    /// `h2-100`), the same for every client.
    public var connections: Int
    /// The runner's private CA (`--ca-file`), which the TLS scenarios trust; `nil` otherwise.
    public var caFile: URL?
    /// The response cache's memory budget in bytes (`--memory-mib`); `nil`: the library's
    /// default (4 MiB).
    public var memoryBudget: Int? = nil

    /// The full URL of a scenario's resource.
    public func url(for scenario: Scenario) -> URL {
        baseURL.appendingPathComponent(String(scenario.path.dropFirst()))
    }

    /// Distinct URLs `small-32` cycles through: far more than are ever in flight at once (32),
    /// so no two requests in flight are identical, and few enough to build before the clock
    /// starts without weighing on peak RSS.
    public static let concurrentURLCount = 1024

    /// The URL of request `index` of `small-32` (modulo ``concurrentURLCount``): the envelope with
    /// a distinct query, which nginx ignores. Clients build these before the clock starts, so
    /// URL parsing is not timed.
    public func concurrentURL(_ index: Int) -> URL {
        URL(string: baseURL.absoluteString + "/envelope.json?i=\(index)") ?? url(for: .smallConcurrent)
    }

    /// The URL of cache entry `index` of `cache-hits`: the envelope with a distinct query
    /// (nginx ignores it), so every entry has its own key.
    public func cacheURL(_ index: Int) -> URL {
        URL(string: baseURL.absoluteString + "/envelope.json?entry=\(index)") ?? url(for: .cacheHits)
    }

    /// A fresh, not yet existing directory in ``downloadDirectory`` for one client's cache
    /// store (the runner's temporary folder, never `~/.cache`); the client removes it when done.
    public func cacheDirectory(client: String) -> URL {
        downloadDirectory.appendingPathComponent("cache-\(client)-\(getpid())", isDirectory: true)
    }

    /// The URL of the warm-up request every client makes before the clock starts, so that
    /// one-time costs (library set-up, the first connection) are not timed.
    public var warmUpURL: URL { url(for: .smallSequential) }

    /// The warm-up of the TLS scenarios, instead of the single request to ``warmUpURL``:
    /// 2 × ``concurrency`` requests, ``concurrency`` in flight, through the scenario's own `send`
    /// (which checks the HTTP version of every response), as raw libcurl's warm-up on its multi
    /// handle does. The connections up to the cap and their TLS handshakes are then made before
    /// the clock starts: ``connections`` requests at once did not do it, as the first ones
    /// finished and their connections were reused before the last ones were handed over.
    public func warmUpConnections(send: @escaping Send) throws {
        let count = 2 * concurrency
        let result = try Driver.concurrent(count: count, inFlight: concurrency, send: send)
        guard result.requests == count else {
            throw BenchError("warm-up: \(result.requests) of \(count) requests completed")
        }
    }

    /// A fresh file name in ``downloadDirectory`` for one client's download.
    public func downloadDestination(client: String) -> URL {
        downloadDirectory.appendingPathComponent("download-\(client)-\(getpid()).bin")
    }
}

/// What the timed part of a scenario reports; the harness adds the time and peak RSS.
public struct BenchResult: Sendable {
    /// Requests completed (deliveries for `cache-hits`).
    public var requests: Int
    /// Body bytes received (or written to the file) in total.
    public var bytes: Int
    /// Connections the client opened while timed, when it can tell; `nil` otherwise (the
    /// runner then uses the server's count).
    public var newConnections: Int?

    /// The time to report instead of the harness's clock around the whole timed part, when
    /// only some intervals of it count (`cache-hits`: the way to each stored copy, not the
    /// network call that follows it). `nil` (default): the harness's clock.
    public var timedSeconds: Double?
    /// The CPU time (user + system, all threads) over the same intervals as ``timedSeconds``.
    public var timedCPUSeconds: Double?
    /// Events parsed (`stream-events`); `nil` (default) for the other scenarios.
    public var events: Int?
    /// Work the harness runs after its clock has stopped: deleting the downloaded file, which
    /// the C client also does after its own clock. Freeing 256 MiB of freshly written page
    /// cache took 10 ms from a shell and up to ~60 ms right after a download here, a quarter of
    /// the download's own time. `nil` (default): nothing.
    public var cleanUp: (@Sendable () -> Void)?

    public init(requests: Int, bytes: Int, newConnections: Int?, timedSeconds: Double? = nil,
                timedCPUSeconds: Double? = nil, events: Int? = nil) {
        self.requests = requests
        self.bytes = bytes
        self.newConnections = newConnections
        self.timedSeconds = timedSeconds
        self.timedCPUSeconds = timedCPUSeconds
        self.events = events
    }
}

/// A failed benchmark: the harness prints the message and exits non-zero.
public struct BenchError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
