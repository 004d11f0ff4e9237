// The fluent builder: `Request.url(…).responseData { }` / `.response([User].self) { }`, callback
// style, through every scenario, with a configuration of its own (`ChainConfiguration`); the
// streaming scenarios through `chunks()` and `events(reconnect:)`, read by a `for try await` loop.
import BenchSupport
import Chain
import Dispatch
import Foundation

struct ChainClient: BenchClient {
    let name = "chain"
    let scenarios: [Scenario] = [.smallSequential, .smallConcurrent, .usersDecode, .downloadFile, .downloadMemory, .cacheHits, .cacheOnly,
                                 .http2Concurrent, .http1TLSConcurrent, .streamChunks, .streamEvents, .streamSlowRSS]

    func prepare(_ scenario: Scenario, _ setup: BenchSetup) throws -> () throws -> BenchResult {
        if scenario.isTLS { return try tlsConcurrent(scenario, setup) }
        // The defaults of 6 connections and 6 requests per host would cap the concurrent
        // scenario (and the cache fill) at 6 in flight.
        let perHost = [.smallConcurrent, .cacheHits, .cacheOnly].contains(scenario) ? max(32, setup.concurrency) : 6
        let client = HTTPClient(configuration: HTTPClient.Configuration(maximumConnectionsPerHost: perHost,
                                                                        maximumConcurrentRequestsPerHost: perHost))
        var configuration = ChainConfiguration()
        configuration.client = client
        try warmUp(Request.url(setup.warmUpURL).configuration(configuration))
        let request = Request.url(setup.url(for: scenario)).configuration(configuration)
        switch scenario {
        case .smallSequential:
            let send = dataSender([request])
            return { try Driver.sequential(count: setup.count, send: send) }
        case .smallConcurrent:
            let requests = (0..<min(setup.count, BenchSetup.concurrentURLCount)).map {
                Request.url(setup.concurrentURL($0)).configuration(configuration)
            }
            let send = dataSender(requests)
            return { try Driver.concurrent(count: setup.count, inFlight: setup.concurrency, send: send) }
        case .usersDecode:
            let send = usersSender(request)
            return { try Driver.sequential(count: setup.count, send: send) }
        case .downloadFile:
            let destination = setup.downloadDestination(client: name)
            let send = downloadSender(request, to: destination)
            return { try Driver.download(to: destination, send: send) }
        case .downloadMemory:
            // The default 100 MiB response limit is below the big file.
            let send = dataSender([request.maximumResponseSize(4 << 30)])
            return { try Driver.sequential(count: 1, send: send) }
        case .cacheHits:
            return try cacheHits(setup, configuration: configuration, policy: .fileFirst)
        case .cacheOnly:
            return try cacheHits(setup, configuration: configuration, policy: .cacheOnly)
        case .streamChunks:
            return { try AsyncWait.run { try await Self.countBytes(request.chunks()) } }
        case .streamEvents:
            return { try AsyncWait.run { try await Self.countEvents(request.events(reconnect: .never)) } }
        case .streamSlowRSS:
            return { try AsyncWait.run { try await Self.readSlowly(request.chunks(bufferSize: 1 << 20)) } }
        case .http2Concurrent, .http1TLSConcurrent:
            throw BenchError("not implemented")
        }
    }

    /// `h2-100` and `h1-tls-100`: `.tls(TLSOptions(caFile:))` (the runner's CA), and
    /// `.httpVersion(.http1_1)` for HTTP/1.1 (HTTP/2 is the default over TLS); `concurrency`
    /// requests to the client at once, on at most `connections` connections.
    private func tlsConcurrent(_ scenario: Scenario, _ setup: BenchSetup) throws -> () throws -> BenchResult {
        let client = HTTPClient(configuration: HTTPClient.Configuration(maximumConnectionsPerHost: setup.connections,
                                                                        maximumConcurrentRequestsPerHost: setup.concurrency))
        var configuration = ChainConfiguration()
        configuration.client = client
        let tls = TLSOptions(caFile: setup.caFile)
        let requests = (0..<min(setup.count, BenchSetup.concurrentURLCount)).map { index in
            let request = Request.url(setup.concurrentURL(index)).configuration(configuration).tls(tls)
            return scenario.wantsHTTP2 ? request : request.httpVersion(.http1_1)
        }
        let send = versionCheckingSender(requests, version: scenario.wantsHTTP2 ? .http2 : .http1_1)
        try setup.warmUpConnections(send: send)
        return { try Driver.concurrent(count: setup.count, inFlight: setup.concurrency, send: send) }
    }

    /// `responseDelivery(using: .data)` — the call `responseData` makes, with the response
    /// attached — of `requests[index]`, failing the run on a response of another HTTP version.
    private func versionCheckingSender(_ requests: [Request], version: HTTPVersion) -> Send {
        return { index, done in
            requests[index % requests.count].responseDelivery(using: .data) { delivery in
                switch delivery.result {
                case .success(let data):
                    let actual = delivery.response?.httpVersion ?? .unknown
                    guard actual == version else {
                        done(.failure(BenchError("a response came over \(actual.rawValue), expected \(version.rawValue)")))
                        return
                    }
                    done(.success(Outcome(bytes: data.count, newConnections: delivery.timings?.newConnections)))
                case .failure(let error):
                    done(.failure(BenchError("\(error)")))
                }
            }
        }
    }

    /// Fills a store of its own in the runner's temporary folder with `.networkOnly` calls,
    /// then times the stored copies of `.fileFirst` or `.cacheOnly` calls (see ``CacheHits``).
    private func cacheHits(_ setup: BenchSetup, configuration base: ChainConfiguration,
                           policy: CachePolicy) throws -> () throws -> BenchResult {
        let directory = setup.cacheDirectory(client: name)
        var configuration = base
        configuration.cache = ResponseCache(directory: directory, maximumSize: 1 << 30,
                                            memoryBudget: setup.memoryBudget ?? DiskCache.defaultMemoryBudget)
        // URLs only: each call builds its request, as an app does (10,000 prebuilt `Request`
        // values would also weigh on the peak RSS the table shows for Chain).
        let urls = (0..<setup.entries).map { setup.cacheURL($0) }
        let base = Request.url(setup.warmUpURL).configuration(configuration)
        do {
            try CacheHits.fill(entries: setup.entries, inFlight: setup.concurrency, store: { index, done in
                base.url(urls[index]).cache(.networkOnly).responseData { result in
                    switch result {
                    case .success(let data): done(.success(Outcome(bytes: data.count, newConnections: nil)))
                    case .failure(let error): done(.failure(BenchError("filling the cache: \(error)")))
                    }
                }
            })
            let stored = entryCount(configuration.cache.store)
            guard stored == setup.entries else {
                throw BenchError("the cache holds \(stored) entries after storing \(setup.entries)")
            }
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        let cached = base.cache(policy)
        let deliversOnce = policy == .cacheOnly
        return {
            defer { try? FileManager.default.removeItem(at: directory) }
            return try CacheHits.measure(count: setup.count, entries: setup.entries) { entry, deliver in
                cached.url(urls[entry]).responseDelivery(using: .data) { delivery in
                    switch delivery.result {
                    case .success(let data) where delivery.isFromCache && deliversOnce:
                        deliver(.cached(bytes: data.count))
                        deliver(.final)
                    case .success(let data) where delivery.isFromCache && !delivery.isFinal:
                        deliver(.cached(bytes: data.count))
                    case .success where delivery.isFinal:
                        deliver(.final)
                    case .success:
                        deliver(.failed(BenchError("a delivery that is neither the stored copy nor the last")))
                    case .failure(let error):
                        deliver(.failed(BenchError("\(error)")))
                    }
                }
            }
        }
    }

    /// `stream-chunks`: the body as it arrives (the default 1 MiB buffer), the bytes counted.
    private static func countBytes(_ chunks: ResponseChunks) async throws -> BenchResult {
        var bytes = 0
        for try await chunk in chunks { bytes += chunk.count }
        return BenchResult(requests: 1, bytes: bytes, newConnections: nil)
    }

    /// `stream-events`: every event counted, and the bytes of its data (the runner checks both).
    private static func countEvents(_ events: ServerSentEvents) async throws -> BenchResult {
        var count = 0
        var bytes = 0
        for try await event in events {
            count += 1
            bytes += event.data.utf8.count
        }
        return BenchResult(requests: 1, bytes: bytes, newConnections: nil, events: count)
    }

    /// `stream-slow-rss`: a consumer slower than the network, 1 ms asleep after every 64 KiB, so
    /// the stream's buffer fills and the transfer pauses; the runner reads the peak RSS.
    private static func readSlowly(_ chunks: ResponseChunks) async throws -> BenchResult {
        var bytes = 0
        var sinceSleep = 0
        for try await chunk in chunks {
            bytes += chunk.count
            sinceSleep += chunk.count
            if sinceSleep >= 64 << 10 {
                sinceSleep = 0
                try await Task.sleep(nanoseconds: 1_000_000)
            }
        }
        return BenchResult(requests: 1, bytes: bytes, newConnections: nil)
    }

    private func warmUp(_ request: Request) throws {
        let done = DispatchSemaphore(value: 0)
        let outcome = WarmUp()
        request.responseData { result in
            outcome.error = result.failure
            done.signal()
        }
        done.wait()
        if let error = outcome.error { throw BenchError("warm-up request failed: \(error)") }
    }

    /// `responseData` of `requests[index]`, or of the only request for every index.
    private func dataSender(_ requests: [Request]) -> Send {
        return { index, done in
            let request = requests.count == 1 ? requests[0] : requests[index % requests.count]
            request.responseData { result in
                switch result {
                case .success(let data):
                    // Chain validates the status (200..<300): a success is an accepted response.
                    // `responseData` does not say whether the connection was new; the runner
                    // counts the server's accepts instead.
                    done(.success(Outcome(bytes: data.count, newConnections: nil)))
                case .failure(let error):
                    done(.failure(BenchError("\(error)")))
                }
            }
        }
    }

    /// `[User]` decoded by Chain's plan (its `JSONDecoder`), off the loop thread.
    /// `responseDelivery` is `response(_:)` with the response attached (the same call path),
    /// so the received bytes can be counted.
    private func usersSender(_ request: Request) -> Send {
        return { _, done in
            request.responseDelivery([User].self) { delivery in
                switch delivery.result {
                case .success(let users) where !users.isEmpty:
                    done(.success(Outcome(bytes: delivery.response?.body.count ?? 0,
                                          newConnections: delivery.timings?.newConnections)))
                case .success:
                    done(.failure(BenchError("no users decoded")))
                case .failure(let error):
                    done(.failure(BenchError("\(error)")))
                }
            }
        }
    }

    /// `download(to:)`: the body streams to `destination` (through a temporary file moved
    /// into place, as an app's download would).
    private func downloadSender(_ request: Request, to destination: URL) -> Send {
        return { _, done in
            request.download(to: destination) { result in
                switch result {
                case .success: done(.success(Outcome(bytes: 0, newConnections: nil)))
                case .failure(let error): done(.failure(BenchError("\(error)")))
                }
            }
        }
    }
}

/// The number of entries in a store, waited for (the store answers on its own queue).
func entryCount(_ store: DiskCache) -> Int {
    let done = DispatchSemaphore(value: 0)
    let count = Counter()
    store.entryCount { value in
        count.value = value
        done.signal()
    }
    done.wait()
    return count.value
}

/// Written on a library queue before the semaphore is signalled and read after the wait
/// returns (the semaphore orders the two).
private final class WarmUp: @unchecked Sendable {
    var error: NetworkError?
}

private final class Counter: @unchecked Sendable {
    var value = 0
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

BenchMain.run(ChainClient())
