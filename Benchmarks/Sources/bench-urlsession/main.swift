// The reference: FoundationNetworking's URLSession (itself on libcurl on Linux), used the way an
// iOS app would — completion handlers, one session, a serial delegate queue.
import BenchSupport
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct URLSessionClient: BenchClient {
    let name = "urlsession"
    let scenarios: [Scenario] = [.smallSequential, .smallConcurrent, .usersDecode, .downloadFile, .downloadMemory]

    func prepare(_ scenario: Scenario, _ setup: BenchSetup) throws -> () throws -> BenchResult {
        let configuration = URLSessionConfiguration.default
        // No URLCache: nginx sends ETag and Last-Modified, and a cache answering for the network
        // would make the numbers meaningless (the cache scenario is a separate one).
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // The default of 6 would cap the concurrent scenario at 6 in flight.
        configuration.httpMaximumConnectionsPerHost = max(32, setup.concurrency)
        configuration.timeoutIntervalForRequest = 120
        // A serial queue for completions, like HTTPClient's callback queue.
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: nil, delegateQueue: queue)
        try warmUp(session, setup.warmUpURL)
        let url = setup.url(for: scenario)
        switch scenario {
        case .smallSequential:
            let send = sender(session, url)
            return { try Driver.sequential(count: setup.count, send: send) }
        case .smallConcurrent:
            let urls = (0..<min(setup.count, BenchSetup.concurrentURLCount)).map(setup.concurrentURL)
            let send = sender(session, urls)
            return { try Driver.concurrent(count: setup.count, inFlight: setup.concurrency, send: send) }
        case .usersDecode:
            let send = sender(session, url, decodeUsers: true)
            return { try Driver.sequential(count: setup.count, send: send) }
        case .downloadFile:
            let destination = setup.downloadDestination(client: name)
            let send = downloader(session, url, to: destination)
            return { try Driver.download(to: destination, send: send) }
        case .downloadMemory:
            let send = sender(session, url)
            return { try Driver.sequential(count: 1, send: send) }
        case .cacheHits, .cacheOnly, .http2Concurrent, .http1TLSConcurrent, .streamChunks, .streamEvents, .streamSlowRSS:
            throw BenchError("not implemented")
        }
    }

    private func warmUp(_ session: URLSession, _ url: URL) throws {
        let done = DispatchSemaphore(value: 0)
        let status = Status()
        session.dataTask(with: url) { _, response, _ in
            status.code = (response as? HTTPURLResponse)?.statusCode ?? 0
            done.signal()
        }.resume()
        done.wait()
        guard status.code == 200 else { throw BenchError("warm-up request failed (status \(status.code))") }
    }

    private func sender(_ session: URLSession, _ url: URL, decodeUsers: Bool = false) -> Send {
        sender(session, [url], decodeUsers: decodeUsers)
    }

    /// Fetches `urls[index]`, or the only URL for every index when there is one.
    private func sender(_ session: URLSession, _ urls: [URL], decodeUsers: Bool = false) -> Send {
        let decoder = JSONDecoder()
        return { index, done in
            let url = urls.count == 1 ? urls[0] : urls[index % urls.count]
            session.dataTask(with: url) { data, response, error in
                if let error {
                    done(.failure(BenchError("\(error)")))
                    return
                }
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                guard status == 200, let data else {
                    done(.failure(BenchError("HTTP \(status) for \(url)")))
                    return
                }
                if decodeUsers {
                    do {
                        let users = try decoder.decode([User].self, from: data)
                        guard !users.isEmpty else { throw BenchError("no users decoded") }
                    } catch {
                        done(.failure(BenchError("decoding failed: \(error)")))
                        return
                    }
                }
                // URLSession does not tell whether a connection was new; the runner counts the
                // server's accepts instead.
                done(.success(Outcome(bytes: data.count, newConnections: nil)))
            }.resume()
        }
    }

    private func downloader(_ session: URLSession, _ url: URL, to destination: URL) -> Send {
        return { _, done in
            session.downloadTask(with: url) { location, response, error in
                if let error {
                    done(.failure(BenchError("\(error)")))
                    return
                }
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                guard status == 200, let location else {
                    done(.failure(BenchError("HTTP \(status) for \(url)")))
                    return
                }
                // The temporary file is deleted when this handler returns: move it, as apps must.
                do {
                    try? FileManager.default.removeItem(at: destination)
                    try FileManager.default.moveItem(at: location, to: destination)
                } catch {
                    done(.failure(BenchError("cannot move the download: \(error)")))
                    return
                }
                done(.success(Outcome(bytes: fileSize(destination) ?? 0, newConnections: nil)))
            }.resume()
        }
    }
}

/// The warm-up status, written on the delegate queue before the semaphore is signalled and read
/// after the wait returns (the semaphore orders the two).
private final class Status: @unchecked Sendable {
    var code = 0
}

BenchMain.run(URLSessionClient())
