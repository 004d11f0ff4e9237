// The AFNetworking-style facade: `HTTPSessionManager.GET(…)` with `responseSerializer = .data`,
// the typed `GET(_:parameters:as:)` for `[User]`, `download(_:to:)` for the file, through every
// scenario, each on a manager of its own over its own `HTTPClient`.
import AFStyle
import BenchSupport
import Dispatch
import Foundation

struct AFStyleClient: BenchClient {
    let name = "afstyle"
    let scenarios: [Scenario] = [.smallSequential, .smallConcurrent, .usersDecode, .downloadFile, .downloadMemory, .cacheHits, .cacheOnly,
                                 .http2Concurrent, .http1TLSConcurrent]

    func prepare(_ scenario: Scenario, _ setup: BenchSetup) throws -> () throws -> BenchResult {
        if scenario.isTLS { return try tlsConcurrent(scenario, setup) }
        // The defaults of 6 connections and 6 requests per host would cap the concurrent
        // scenario (and the cache fill) at 6 in flight.
        let perHost = [.smallConcurrent, .cacheHits, .cacheOnly].contains(scenario) ? max(32, setup.concurrency) : 6
        let client = HTTPClient(configuration: HTTPClient.Configuration(maximumConnectionsPerHost: perHost,
                                                                        maximumConcurrentRequestsPerHost: perHost))
        let manager = HTTPSessionManager(baseURL: nil, client: client)
        // AFHTTPResponseSerializer: `responseObject` is the body as `Data`. The typed call of
        // `users-decode` keeps the default JSON serializer's checks (status, content type).
        if scenario != .usersDecode { manager.responseSerializer = .data }
        try warmUp(manager, setup.warmUpURL.absoluteString)
        let url = setup.url(for: scenario).absoluteString
        switch scenario {
        case .smallSequential:
            let send = dataSender(manager, [url])
            return { try Driver.sequential(count: setup.count, send: send) }
        case .smallConcurrent:
            let urls = (0..<min(setup.count, BenchSetup.concurrentURLCount)).map { setup.concurrentURL($0).absoluteString }
            let send = dataSender(manager, urls)
            return { try Driver.concurrent(count: setup.count, inFlight: setup.concurrency, send: send) }
        case .usersDecode:
            let send = usersSender(manager, url)
            return { try Driver.sequential(count: setup.count, send: send) }
        case .downloadFile:
            let destination = setup.downloadDestination(client: name)
            let send = downloader(manager, url, to: destination)
            return { try Driver.download(to: destination, send: send) }
        case .downloadMemory:
            // The default 100 MiB response limit is below the big file.
            manager.requestSerializer.maximumResponseSize = 4 << 30
            let send = dataSender(manager, [url])
            return { try Driver.sequential(count: 1, send: send) }
        case .cacheHits:
            return try cacheHits(setup, manager: manager, policy: .fileFirst)
        case .cacheOnly:
            return try cacheHits(setup, manager: manager, policy: .cacheOnly)
        case .http2Concurrent, .http1TLSConcurrent, .streamChunks, .streamEvents, .streamSlowRSS:
            throw BenchError("not implemented")
        }
    }

    /// `h2-100` and `h1-tls-100`: `manager.tlsOptions` trusts the runner's CA; `concurrency`
    /// requests to the client at once, on at most `connections` connections. The manager has
    /// no HTTP version setting (its requests ask for HTTP/2 over TLS), so `h1-tls-100`'s server
    /// offers HTTP/1.1 only and ALPN settles it; every response is checked either way.
    private func tlsConcurrent(_ scenario: Scenario, _ setup: BenchSetup) throws -> () throws -> BenchResult {
        let client = HTTPClient(configuration: HTTPClient.Configuration(maximumConnectionsPerHost: setup.connections,
                                                                        maximumConcurrentRequestsPerHost: setup.concurrency))
        let manager = HTTPSessionManager(baseURL: nil, client: client)
        manager.responseSerializer = .data
        manager.tlsOptions = TLSOptions(caFile: setup.caFile)
        let urls = (0..<min(setup.count, BenchSetup.concurrentURLCount)).map { setup.concurrentURL($0).absoluteString }
        let send = dataSender(manager, urls, version: scenario.wantsHTTP2 ? .http2 : .http1_1)
        try setup.warmUpConnections(send: send)
        return { try Driver.concurrent(count: setup.count, inFlight: setup.concurrency, send: send) }
    }

    /// Fills a store of its own in the runner's temporary folder with `.networkOnly` calls,
    /// then times the stored copies of `.fileFirst` calls (see ``CacheHits``).
    private func cacheHits(_ setup: BenchSetup, manager: HTTPSessionManager, policy: CachePolicy) throws -> () throws -> BenchResult {
        let directory = setup.cacheDirectory(client: name)
        let cache = ResponseCache(directory: directory, maximumSize: 1 << 30,
                                  memoryBudget: setup.memoryBudget ?? DiskCache.defaultMemoryBudget)
        manager.responseCache = cache
        let urls = (0..<setup.entries).map { setup.cacheURL($0).absoluteString }
        do {
            try CacheHits.fill(entries: setup.entries, inFlight: setup.concurrency, store: { index, done in
                manager.GET(urls[index], parameters: nil, headers: nil, cachePolicy: .networkOnly, progress: nil,
                            success: { _, object in
                                done(.success(Outcome(bytes: (object as? Data)?.count ?? 0, newConnections: nil)))
                            }, failure: { _, error in
                                done(.failure(BenchError("filling the cache: \(error)")))
                            })
            })
            let stored = entryCount(cache.store)
            guard stored == setup.entries else {
                throw BenchError("the cache holds \(stored) entries after storing \(setup.entries)")
            }
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        return {
            defer { try? FileManager.default.removeItem(at: directory) }
            return try CacheHits.measure(count: setup.count, entries: setup.entries) { entry, deliver in
                manager.GET(urls[entry], parameters: nil, headers: nil, cachePolicy: policy, progress: nil,
                            success: { task, object in
                                // Under .fileFirst the stored copy comes first, its task still
                                // running; the network's answer completes the task. Under
                                // .cacheOnly the stored copy is the only delivery.
                                if policy == .cacheOnly, task.response?.source == .cache {
                                    deliver(.cached(bytes: (object as? Data)?.count ?? 0))
                                    deliver(.final)
                                } else if task.state != .completed, task.response?.source == .cache {
                                    deliver(.cached(bytes: (object as? Data)?.count ?? 0))
                                } else if task.state == .completed {
                                    deliver(.final)
                                } else {
                                    deliver(.failed(BenchError("a delivery that is neither the stored copy nor the last")))
                                }
                            }, failure: { _, error in
                                deliver(.failed(BenchError("\(error)")))
                            })
            }
        }
    }

    private func warmUp(_ manager: HTTPSessionManager, _ url: String) throws {
        let done = DispatchSemaphore(value: 0)
        let outcome = WarmUp()
        manager.GET(url, parameters: nil, headers: nil, progress: nil, success: { _, _ in
            done.signal()
        }, failure: { _, error in
            outcome.error = error
            done.signal()
        })
        done.wait()
        if let error = outcome.error { throw BenchError("warm-up request failed: \(error)") }
    }

    /// `GET` of `urls[index]` (or of the only URL), `responseObject` as `Data`; with `version`,
    /// a response of another HTTP version fails the run.
    private func dataSender(_ manager: HTTPSessionManager, _ urls: [String], version: HTTPVersion? = nil) -> Send {
        return { index, done in
            let url = urls.count == 1 ? urls[0] : urls[index % urls.count]
            manager.GET(url, parameters: nil, headers: nil, progress: nil, success: { task, object in
                guard let data = object as? Data else {
                    done(.failure(BenchError("responseObject is not Data for \(url)")))
                    return
                }
                if let version {
                    let actual = task.response?.httpVersion ?? .unknown
                    guard actual == version else {
                        done(.failure(BenchError("a response came over \(actual.rawValue), expected \(version.rawValue)")))
                        return
                    }
                }
                done(.success(Outcome(bytes: data.count, newConnections: task.response?.timings.newConnections)))
            }, failure: { _, error in
                done(.failure(BenchError("\(error)")))
            })
        }
    }

    /// The typed `GET(_:parameters:as:)`: `[User]` decoded by the manager's `jsonDecoder`.
    private func usersSender(_ manager: HTTPSessionManager, _ url: String) -> Send {
        return { _, done in
            manager.GET(url, parameters: nil, as: [User].self, headers: nil, progress: nil, success: { task, users in
                guard !users.isEmpty else {
                    done(.failure(BenchError("no users decoded")))
                    return
                }
                done(.success(Outcome(bytes: task.response?.body.count ?? 0,
                                      newConnections: task.response?.timings.newConnections)))
            }, failure: { _, error in
                done(.failure(BenchError("\(error)")))
            })
        }
    }

    /// `download(_:to:)`: streamed to a temporary file next to the destination, then renamed.
    private func downloader(_ manager: HTTPSessionManager, _ url: String, to destination: URL) -> Send {
        return { _, done in
            manager.download(url, to: destination, progress: nil, success: { task, location in
                done(.success(Outcome(bytes: fileSize(location) ?? 0, newConnections: task.response?.timings.newConnections)))
            }, failure: { _, error in
                done(.failure(BenchError("\(error)")))
            })
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

BenchMain.run(AFStyleClient())
