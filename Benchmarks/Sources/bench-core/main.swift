// The engine alone: `HTTPCore.HTTPClient` through every scenario, callback style.
import BenchSupport
import CurlTransport
import Dispatch
import Foundation
import HTTPCore
import HTTPFeatures

struct CoreClient: BenchClient {
    let name = "core"
    let scenarios: [Scenario] = [.smallSequential, .smallConcurrent, .usersDecode, .downloadFile, .downloadMemory,
                                 .http2Concurrent, .http1TLSConcurrent]

    func prepare(_ scenario: Scenario, _ setup: BenchSetup) throws -> () throws -> BenchResult {
        if scenario.isTLS { return try tlsConcurrent(scenario, setup) }
        // The defaults of 6 connections and 6 requests per host would cap the concurrent
        // scenario at 6 in flight.
        let perHost = scenario == .smallConcurrent ? max(32, setup.concurrency) : 6
        let client = HTTPClient(configuration: HTTPClient.Configuration(maximumConnectionsPerHost: perHost,
                                                                        maximumConcurrentRequestsPerHost: perHost))
        try warmUp(client, setup.warmUpURL)
        var request = HTTPRequest(url: setup.url(for: scenario))
        switch scenario {
        case .smallSequential:
            let send = sender(client, request)
            return { try Driver.sequential(count: setup.count, send: send) }
        case .smallConcurrent:
            let requests = (0..<min(setup.count, BenchSetup.concurrentURLCount)).map { HTTPRequest(url: setup.concurrentURL($0)) }
            let send = sender(client, requests)
            return { try Driver.concurrent(count: setup.count, inFlight: setup.concurrency, send: send) }
        case .usersDecode:
            let send = sender(client, request, decodeUsers: true)
            return { try Driver.sequential(count: setup.count, send: send) }
        case .downloadFile:
            let destination = setup.downloadDestination(client: name)
            request.download = DownloadOptions(destination: destination)
            let send = sender(client, request)
            return { try Driver.download(to: destination, send: send) }
        case .downloadMemory:
            request.maximumResponseSize = 4 << 30  // the default 100 MiB limit is below the 256 MiB file
            let send = sender(client, request)
            return { try Driver.sequential(count: 1, send: send) }
        case .cacheHits, .cacheOnly, .http2Concurrent, .http1TLSConcurrent, .streamChunks, .streamEvents, .streamSlowRSS:
            throw BenchError("not implemented")
        }
    }

    /// `h2-100` and `h1-tls-100`: the envelope over TLS (the runner's CA), `concurrency`
    /// requests handed to libcurl at once on at most `connections` connections (1 for HTTP/2:
    /// every request a stream of it), each response checked to be of the scenario's version.
    private func tlsConcurrent(_ scenario: Scenario, _ setup: BenchSetup) throws -> () throws -> BenchResult {
        let client = HTTPClient(configuration: HTTPClient.Configuration(maximumConnectionsPerHost: setup.connections,
                                                                        maximumConcurrentRequestsPerHost: setup.concurrency))
        let tls = TLSOptions(caFile: setup.caFile)
        let requests = (0..<min(setup.count, BenchSetup.concurrentURLCount)).map { index in
            var request = HTTPRequest(url: setup.concurrentURL(index))
            request.tls = tls
            // HTTP/2: the default (`.automatic`), which asks for h2 over TLS.
            if !scenario.wantsHTTP2 { request.httpVersion = .http1_1 }
            return request
        }
        let send = sender(client, requests, version: scenario.wantsHTTP2 ? .http2 : .http1_1)
        try setup.warmUpConnections(send: send)
        return { try Driver.concurrent(count: setup.count, inFlight: setup.concurrency, send: send) }
    }

    private func warmUp(_ client: HTTPClient, _ url: URL) throws {
        let done = DispatchSemaphore(value: 0)
        let status = Status()
        client.send(HTTPRequest(url: url)) { result in
            status.code = (try? result.get().statusCode) ?? 0
            done.signal()
        }
        done.wait()
        guard status.code == 200 else { throw BenchError("warm-up request failed (status \(status.code))") }
    }

    private func sender(_ client: HTTPClient, _ request: HTTPRequest, decodeUsers: Bool = false) -> Send {
        sender(client, [request], decodeUsers: decodeUsers)
    }

    /// Sends `requests[index]`, or the only request for every index when there is one; with
    /// `version`, a response of another HTTP version fails the run.
    private func sender(_ client: HTTPClient, _ requests: [HTTPRequest], decodeUsers: Bool = false,
                        version: HTTPVersion? = nil) -> Send {
        // The core's own decoder setting, as Chain and AFStyle use it: FastJSON by default.
        let decoding = JSONDecoding.fast()
        return { index, done in
            let request = requests.count == 1 ? requests[0] : requests[index % requests.count]
            client.send(request) { result in
                switch result {
                case .success(let response):
                    guard response.statusCode == 200 else {
                        done(.failure(BenchError("HTTP \(response.statusCode) for \(request.url)")))
                        return
                    }
                    if let version, response.httpVersion != version {
                        done(.failure(BenchError("a response came over \(response.httpVersion.rawValue), expected \(version.rawValue)")))
                        return
                    }
                    if decodeUsers {
                        do {
                            let users = try decoding.decode([User].self, from: response.body)
                            guard !users.isEmpty else { throw BenchError("no users decoded") }
                        } catch {
                            done(.failure(BenchError("decoding failed: \(error)")))
                            return
                        }
                    }
                    done(.success(Outcome(bytes: response.body.count, newConnections: response.timings.newConnections)))
                case .failure(let error):
                    done(.failure(BenchError("\(error)")))
                }
            }
        }
    }
}

/// The warm-up status, written on the callback queue before the semaphore is signalled and read
/// after the wait returns (the semaphore orders the two).
private final class Status: @unchecked Sendable {
    var code = 0
}

BenchMain.run(CoreClient())
