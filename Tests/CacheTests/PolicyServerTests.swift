@testable import Cache
import CurlTransport
import Dispatch
import Foundation
import HTTPCore
import HTTPFeatures
import SampleServer
import Testing

/// Every policy over real HTTP: the sample server on loopback, `HTTPClient.shared.send` as
/// the network closure.
@Suite("Policies against the sample server")
struct PolicyServerTests {
    typealias Delivery = Result<HTTPResponse, NetworkError>

    let clock = TestClock(Date())
    let network: ResponseCache.Network = { request, completion in HTTPClient.shared.send(request, completion: completion) }

    func run(_ cache: ResponseCache, _ policy: CachePolicy, _ url: URL, expected: Int = 1) async -> [Delivery] {
        let deliveries = Recorder<Delivery>()
        cache.run(policy, request: HTTPRequest(url: url), queue: DispatchQueue(label: "test.server"),
                  isCacheable: { (200..<300).contains($0.statusCode) }, network: network,
                  deliver: { deliveries.append($0) })
        return await deliveries.wait(for: expected, timeout: 20)
    }

    func withServer(_ body: (SampleServer, ResponseCache) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            let server = try SampleServer(port: 0)
            defer { server.stop() }
            try await body(server, ResponseCache(directory: directory, clock: clock.function))
        }
    }

    @Test(".networkOnly over HTTP: from the network, and stored for later")
    func networkOnly() async throws {
        try await withServer { server, cache in
            let url = server.baseURL.appendingPathComponent("get")
            let first = await run(cache, .networkOnly, url)
            #expect(first.map(\.source) == [.network])
            #expect(await run(cache, .networkOnly, url).map(\.source) == [.network])
            let stored = await run(cache, .cacheOnly, url)
            #expect(stored.map(\.source) == [.cache])
            #expect(stored.first.flatMap(\.bodyText)?.contains("\"path\"") == true)
        }
    }

    @Test(".fileFirst over HTTP: one delivery on a miss, the stored copy then the network on a hit")
    func fileFirst() async throws {
        try await withServer { server, cache in
            let url = server.baseURL.appendingPathComponent("get")
            let miss = await run(cache, .fileFirst, url)
            #expect(miss.map(\.source) == [.network])
            let hit = await run(cache, .fileFirst, url, expected: 2)
            #expect(hit.map(\.source) == [.cache, .network])
            #expect(hit.first.flatMap(\.bodyText) == miss.first.flatMap(\.bodyText))
        }
    }

    @Test(".networkFirst over HTTP: the stored copy once the server is gone")
    func networkFirst() async throws {
        try await withTemporaryDirectory { directory in
            let cache = ResponseCache(directory: directory, clock: clock.function)
            let server = try SampleServer(port: 0)
            let url = server.baseURL.appendingPathComponent("get")
            #expect(await run(cache, .networkFirst, url).map(\.source) == [.network])
            // An HTTP error is delivered as it is, not replaced by the stored copy.
            let status = await run(cache, .networkFirst, server.baseURL.appendingPathComponent("status/503"))
            if case .success(let response) = status.first { #expect(response.statusCode == 503) }
            server.stop()
            let offline = await run(cache, .networkFirst, url)
            #expect(offline.map(\.source) == [.cache])
        }
    }

    @Test(".cacheElseNetwork over HTTP: the second call does not reach the server")
    func cacheElseNetwork() async throws {
        try await withServer { server, cache in
            let url = server.baseURL.appendingPathComponent("get")
            #expect(await run(cache, .cacheElseNetwork(maxAge: 60), url).map(\.source) == [.network])
            let served = server.requestCount
            #expect(await run(cache, .cacheElseNetwork(maxAge: 60), url).map(\.source) == [.cache])
            #expect(server.requestCount == served)
            clock.advance(61)
            #expect(await run(cache, .cacheElseNetwork(maxAge: 60), url).map(\.source) == [.network])
            #expect(server.requestCount == served + 1)
        }
    }

    @Test(".cacheOnly over HTTP: a miss, then the stored copy, never the server")
    func cacheOnly() async throws {
        try await withServer { server, cache in
            let url = server.baseURL.appendingPathComponent("bytes/64")
            let before = server.requestCount
            #expect(await run(cache, .cacheOnly, url).map(\.errorKind) == [.cacheMiss])
            #expect(server.requestCount == before)
            let fetched = await run(cache, .networkOnly, url)
            let stored = await run(cache, .cacheOnly, url)
            #expect(stored.map(\.source) == [.cache])
            if case .success(let a) = fetched.first, case .success(let b) = stored.first {
                #expect(a.body == b.body)
                #expect(b.body.count == 64)
            }
            #expect(server.requestCount == before + 1)
        }
    }

    @Test(".http over HTTP: max-age serves from the cache; a stale ETag revalidates with a 304")
    func http() async throws {
        try await withServer { server, cache in
            let fresh = server.baseURL.appendingPathComponent("cache/60")
            #expect(await run(cache, .http, fresh).map(\.source) == [.network])
            let served = server.requestCount
            #expect(await run(cache, .http, fresh).map(\.source) == [.cache])
            #expect(server.requestCount == served)

            let tagged = server.baseURL.appendingPathComponent("etag/abc")
            let first = await run(cache, .http, tagged)
            #expect(first.map(\.source) == [.network])
            clock.advance(61)
            let beforeRevalidation = server.requestCount
            let revalidated = await run(cache, .http, tagged)
            #expect(revalidated.map(\.source) == [.cache])
            #expect(server.requestCount == beforeRevalidation + 1)
            if case .success(let response) = revalidated.first {
                #expect(response.statusCode == 200)
                #expect(response.body == (try? first.first?.get().body))
            }
            // /cache answers 304 to If-Modified-Since as well.
            let modified = server.baseURL.appendingPathComponent("cache")
            #expect(await run(cache, .http, modified).map(\.source) == [.network])
            clock.advance(61)
            #expect(await run(cache, .http, modified).map(\.source) == [.cache])

            // A 500 is never stored.
            let failing = server.baseURL.appendingPathComponent("status/500")
            _ = await run(cache, .http, failing)
            #expect(await run(cache, .cacheOnly, failing).map(\.errorKind) == [.cacheMiss])
        }
    }
}
