@testable import Cache
import CurlTransport
import Dispatch
import Foundation
import HTTPCore
import HTTPFeatures
import Synchronization
import Testing

/// Each policy's delivery sequence, with a `network` closure under the test's control.
@Suite("Policy runner")
struct PolicyRunnerTests {
    let clock = TestClock()
    let url = URL(string: "https://api.example.com/items?page=1")!
    var request: HTTPRequest { HTTPRequest(url: url) }

    typealias Delivery = Result<HTTPResponse, NetworkError>

    /// Runs one call and waits for `expected` deliveries.
    func run(_ cache: ResponseCache, _ policy: CachePolicy, request: HTTPRequest? = nil, network: FakeNetwork,
             expected: Int = 1, isCacheable: @escaping @Sendable (HTTPResponse) -> Bool = { _ in true }) async -> [Delivery] {
        let deliveries = Recorder<Delivery>()
        cache.run(policy, request: request ?? self.request, queue: DispatchQueue(label: "test.deliveries"),
                  isCacheable: isCacheable, network: network.closure, deliver: { deliveries.append($0) })
        return await deliveries.wait(for: expected)
    }

    func withCache(_ body: (ResponseCache) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            try await body(ResponseCache(directory: directory, clock: clock.function))
        }
    }

    func seed(_ cache: ResponseCache, body: String = "stored", headers: HTTPHeaders = HTTPHeaders(),
              request: HTTPRequest? = nil) throws {
        #expect(cache.store.writeEntry(try makeEntry(request ?? self.request, body: body, headers: headers, at: clock.now)))
    }

    func stored(_ cache: ResponseCache, request: HTTPRequest? = nil) -> String? {
        guard let key = CacheKey(request: request ?? self.request) else { return "no key" }
        return cache.store.readEntry(for: key).map { String(decoding: $0.body, as: UTF8.self) }
    }

    @Test(".networkOnly never reads but stores a cacheable success")
    func networkOnly() async throws {
        try await withCache { cache in
            try seed(cache)
            let network = FakeNetwork { .success(makeResponse($0.url)) }
            let deliveries = await run(cache, .networkOnly, network: network)
            #expect(deliveries.map(\.bodyText) == ["fresh"])
            #expect(deliveries.map(\.source) == [.network])
            #expect(network.requests.count == 1)
            #expect(stored(cache) == "fresh")
        }
    }

    @Test(".fileFirst hit: the stored copy, then the network result, in that order")
    func fileFirstHit() async throws {
        try await withCache { cache in
            try seed(cache)
            let network = FakeNetwork { .success(makeResponse($0.url)) }
            let deliveries = await run(cache, .fileFirst, network: network, expected: 2)
            #expect(deliveries.map(\.bodyText) == ["stored", "fresh"])
            #expect(deliveries.map(\.source) == [.cache, .network])
            #expect(stored(cache) == "fresh")
        }
    }

    @Test(".fileFirst miss: one delivery from the network")
    func fileFirstMiss() async throws {
        try await withCache { cache in
            let network = FakeNetwork { .success(makeResponse($0.url)) }
            let deliveries = await run(cache, .fileFirst, network: network)
            #expect(deliveries.map(\.source) == [.network])
            #expect(stored(cache) == "fresh")
        }
    }

    @Test(".fileFirst hit with a failing network: the stored copy, then the failure")
    func fileFirstFailure() async throws {
        try await withCache { cache in
            try seed(cache)
            let network = FakeNetwork { _ in .failure(NetworkError(.cannotConnect, "refused")) }
            let deliveries = await run(cache, .fileFirst, network: network, expected: 2)
            #expect(deliveries.map(\.bodyText) == ["stored", nil])
            #expect(deliveries.last?.errorKind == .cannotConnect)
            #expect(stored(cache) == "stored")
        }
    }

    @Test(".networkFirst serves the stored copy on a transport failure only")
    func networkFirst() async throws {
        try await withCache { cache in
            try seed(cache)
            let refused = FakeNetwork { _ in .failure(NetworkError(.cannotConnect, "refused")) }
            let fallback = await run(cache, .networkFirst, network: refused)
            #expect(fallback.map(\.bodyText) == ["stored"])
            #expect(fallback.map(\.source) == [.cache])

            let serverError = FakeNetwork { .success(makeResponse($0.url, status: 500, body: "oops")) }
            let http = await run(cache, .networkFirst, network: serverError)
            #expect(http.map(\.bodyText) == ["oops"])
            #expect(http.map(\.source) == [.network])
            #expect(stored(cache) == "stored")

            let businessError = FakeNetwork { _ in .failure(NetworkError(.unacceptableStatus(404), "not found")) }
            #expect(await run(cache, .networkFirst, network: businessError).map(\.errorKind) == [.unacceptableStatus(404)])

            let ok = FakeNetwork { .success(makeResponse($0.url)) }
            #expect(await run(cache, .networkFirst, network: ok).map(\.source) == [.network])
            #expect(stored(cache) == "fresh")
        }
    }

    @Test(".networkFirst without a stored copy delivers the transport failure")
    func networkFirstMiss() async throws {
        try await withCache { cache in
            let network = FakeNetwork { _ in .failure(NetworkError(.timedOut, "slow")) }
            #expect(await run(cache, .networkFirst, network: network).map(\.errorKind) == [.timedOut])
        }
    }

    @Test(".cacheElseNetwork uses a copy younger than maxAge, else the network")
    func cacheElseNetwork() async throws {
        try await withCache { cache in
            try seed(cache)
            let network = FakeNetwork { .success(makeResponse($0.url)) }
            clock.advance(59)
            let young = await run(cache, .cacheElseNetwork(maxAge: 60), network: network)
            #expect(young.map(\.source) == [.cache])
            #expect(network.requests.isEmpty)
            clock.advance(2)
            let old = await run(cache, .cacheElseNetwork(maxAge: 60), network: network)
            #expect(old.map(\.source) == [.network])
            #expect(network.requests.count == 1)
            #expect(stored(cache) == "fresh")
        }
    }

    @Test(".cacheOnly: the stored copy or a cache miss, never the network")
    func cacheOnly() async throws {
        try await withCache { cache in
            let network = FakeNetwork { .success(makeResponse($0.url)) }
            let miss = await run(cache, .cacheOnly, network: network)
            #expect(miss.map(\.errorKind) == [.cacheMiss])
            try seed(cache)
            let hit = await run(cache, .cacheOnly, network: network)
            #expect(hit.map(\.bodyText) == ["stored"])
            #expect(hit.map(\.source) == [.cache])
            #expect(network.requests.isEmpty)
        }
    }

    @Test(".http serves a fresh copy without the network")
    func httpFresh() async throws {
        try await withCache { cache in
            let network = FakeNetwork { .success(makeResponse($0.url, headers: ["Cache-Control": "max-age=60"])) }
            #expect(await run(cache, .http, network: network).map(\.source) == [.network])
            clock.advance(30)
            let second = await run(cache, .http, network: network)
            #expect(second.map(\.source) == [.cache])
            if case .success(let response) = second.first { #expect(response.headers["Age"] == "30") }
            #expect(network.requests.count == 1)
        }
    }

    @Test(".http revalidates a stale copy; a 304 refreshes it and serves the stored body")
    func httpRevalidation() async throws {
        try await withCache { cache in
            let network = FakeNetwork { request in
                if request.headers["If-None-Match"] == "\"v1\"" {
                    return .success(makeResponse(request.url, status: 304, body: "",
                                                 headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=120"]))
                }
                return .success(makeResponse(request.url, body: "v1", headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=60"]))
            }
            #expect(await run(cache, .http, network: network).map(\.bodyText) == ["v1"])
            clock.advance(61)
            let revalidated = await run(cache, .http, network: network)
            #expect(revalidated.map(\.bodyText) == ["v1"])
            #expect(revalidated.map(\.source) == [.cache])
            if case .success(let response) = revalidated.first {
                #expect(response.statusCode == 200)
                #expect(response.headers["Cache-Control"] == "max-age=120")
            }
            #expect(network.requests.count == 2)
            #expect(network.requests.last?.headers["If-None-Match"] == "\"v1\"")
            // The refreshed entry is fresh for 120 s from the 304.
            clock.advance(100)
            #expect(await run(cache, .http, network: network).map(\.source) == [.cache])
            #expect(network.requests.count == 2)
        }
    }

    @Test(".http never stores no-store, and drops the old copy")
    func httpNoStore() async throws {
        try await withCache { cache in
            try seed(cache, headers: ["Cache-Control": "max-age=0"])
            let network = FakeNetwork { .success(makeResponse($0.url, headers: ["Cache-Control": "no-store, max-age=60"])) }
            #expect(await run(cache, .http, network: network).map(\.source) == [.network])
            #expect(stored(cache) == nil)
            #expect(await run(cache, .http, network: network).map(\.source) == [.network])
            #expect(network.requests.count == 2)
        }
    }

    @Test(".http: only-if-cached without a fresh copy is a cache miss")
    func httpOnlyIfCached() async throws {
        try await withCache { cache in
            let network = FakeNetwork { .success(makeResponse($0.url)) }
            var request = self.request
            request.headers["Cache-Control"] = "only-if-cached"
            #expect(await run(cache, .http, request: request, network: network).map(\.errorKind) == [.cacheMiss])
            #expect(network.requests.isEmpty)
        }
    }

    @Test(".http: a successful POST invalidates the stored GET")
    func httpInvalidation() async throws {
        try await withCache { cache in
            try seed(cache, headers: ["Cache-Control": "max-age=600"])
            var post = self.request
            post.method = .post
            post.body = .data(Data("x=1".utf8))
            let network = FakeNetwork { .success(makeResponse($0.url, status: 201)) }
            #expect(await run(cache, .http, request: post, network: network).map(\.source) == [.network])
            #expect(stored(cache) == nil)
        }
    }

    @Test("only acceptable responses are stored, whatever the plan says",
          arguments: [(206, "Content-Range"), (404, ""), (500, ""), (304, ""), (200, "short"), (200, "plan-rejects")])
    func storageRules(status: Int, variant: String) async throws {
        try await withCache { cache in
            var fields: HTTPHeaders = ["Cache-Control": "max-age=60"]
            if variant == "Content-Range" { fields["Content-Range"] = "bytes 0-4/10" }
            if variant == "short" { fields["Content-Length"] = "100" }
            let headers = fields
            let network = FakeNetwork { .success(makeResponse($0.url, status: status, headers: headers)) }
            for policy in [CachePolicy.networkOnly, .http] {
                _ = await run(cache, policy, network: network, isCacheable: { _ in variant != "plan-rejects" })
                #expect(stored(cache) == nil, "\(policy) stored \(status) \(variant)")
            }
        }
    }

    @Test("the plan's isCacheable is asked, and a Content-Length that matches is fine")
    func planAccepts() async throws {
        try await withCache { cache in
            let asked = Mutex(0)
            let network = FakeNetwork { .success(makeResponse($0.url, headers: ["Content-Length": "5"])) }
            _ = await run(cache, .networkOnly, network: network, isCacheable: { _ in
                asked.withLock { $0 += 1 }
                return true
            })
            #expect(asked.withLock { $0 } == 1)
            #expect(stored(cache) == "fresh")
        }
    }

    @Test("cancel before any delivery: exactly one cancelled delivery, and the transfer is cancelled")
    func cancelBeforeDelivery() async throws {
        try await withCache { cache in
            let network = FakeNetwork { _ in nil }
            let deliveries = Recorder<Delivery>()
            let call = cache.run(.networkOnly, request: request, queue: .global(), isCacheable: { _ in true },
                                 network: network.closure, deliver: { deliveries.append($0) })
            call.cancel()
            call.cancel()
            let delivered = await deliveries.wait(for: 1)
            #expect(delivered.map(\.errorKind) == [.cancelled])
            #expect(network.cancellations == 1)
            #expect(call.isCancelled)
            #expect(call.deliveryCount == 1)
            #expect(stored(cache) == nil)
        }
    }

    @Test("cancel a .fileFirst call after its stored copy: nothing more is delivered")
    func cancelAfterStoredCopy() async throws {
        try await withCache { cache in
            try seed(cache)
            let network = FakeNetwork { _ in nil }
            let deliveries = Recorder<Delivery>()
            let call = cache.run(.fileFirst, request: request, queue: .global(), isCacheable: { _ in true },
                                 network: network.closure, deliver: { deliveries.append($0) })
            #expect(await deliveries.wait(for: 1).map(\.source) == [.cache])
            // The transfer was attached before the stored copy was handed over? Not necessarily:
            // wait for the network to have been asked.
            call.cancel()
            #expect(call.isFinished)
            #expect(call.deliveryCount == 1)
            #expect(deliveries.values.count == 1)
        }
    }

    @Test("cancel before a .cacheOnly lookup still delivers exactly once")
    func cancelCacheOnly() async throws {
        try await withCache { cache in
            try seed(cache)
            let deliveries = Recorder<Delivery>()
            let network = FakeNetwork { _ in nil }
            // Hold the store's queue with a queued mutation, so the lookup cannot run before the
            // cancel: not there, and not on this thread either (a queued mutation turns off the
            // quick read of a held entry).
            let gate = DispatchSemaphore(value: 0)
            cache.store.enqueueMutation({ gate.wait() }, completion: { _ in })
            let call = cache.run(.cacheOnly, request: request, queue: .global(), isCacheable: { _ in true },
                                 network: network.closure, deliver: { deliveries.append($0) })
            call.cancel()
            gate.signal()
            #expect(await deliveries.wait(for: 1).map(\.errorKind) == [.cancelled])
            let drained = await withCheckedContinuation { continuation in
                cache.store.queue.async { continuation.resume(returning: true) }
            }
            #expect(drained)
            #expect(deliveries.values.count == 1)
        }
    }

    @Test("deliveries run on the caller's queue, one at a time, even on a concurrent queue")
    func deliveryQueue() async throws {
        try await withCache { cache in
            try seed(cache)
            let key = DispatchSpecificKey<String>()
            let queue = DispatchQueue(label: "test.concurrent", attributes: .concurrent)
            queue.setSpecific(key: key, value: "mine")
            let inside = Mutex(0)
            let overlaps = Mutex(0)
            let onQueue = Recorder<Bool>()
            let network = FakeNetwork { .success(makeResponse($0.url)) }
            cache.run(.fileFirst, request: request, queue: queue, isCacheable: { _ in true }, network: network.closure,
                      deliver: { _ in
                          if inside.withLock({ value in
                              value += 1
                              return value
                          }) > 1 { overlaps.withLock { $0 += 1 } }
                          // Stay a moment so an overlapping second delivery would be seen.
                          for _ in 0..<10_000 { _ = DispatchQueue.getSpecific(key: key) }
                          inside.withLock { $0 -= 1 }
                          onQueue.append(DispatchQueue.getSpecific(key: key) == "mine")
                      })
            #expect(await onQueue.wait(for: 2) == [true, true])
            #expect(overlaps.withLock { $0 } == 0)
        }
    }

    @Test("an unusable cache directory never fails the request")
    func diskErrorIsAMiss() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("file")
            try Data().write(to: file)
            let events = Recorder<CacheEvent>()
            let cache = ResponseCache(directory: file, clock: clock.function, reporter: { events.append($0) })
            let network = FakeNetwork { .success(makeResponse($0.url)) }
            #expect(await run(cache, .networkOnly, network: network).map(\.bodyText) == ["fresh"])
            #expect(await run(cache, .fileFirst, network: network).map(\.source) == [.network])
            #expect(await run(cache, .cacheOnly, network: network).map(\.errorKind) == [.cacheMiss])
            #expect(await events.wait(for: 1).contains { if case .diskError = $0 { true } else { false } })
        }
    }

    @Test("the core pipeline's CacheStep marks the stored copy as not final")
    func cacheStep() async throws {
        try await withCache { cache in
            try seed(cache)
            let step = cache.step(for: .fileFirst)
            let deliveries = Recorder<(Delivery, Bool)>()
            step.run(request, isCacheable: { _ in true },
                     network: { request, completion in completion(.success(makeResponse(request.url))) },
                     deliver: { deliveries.append(($0, $1)) })
            let delivered = await deliveries.wait(for: 2)
            #expect(delivered.map(\.0.source) == [.cache, .network])
            #expect(delivered.map(\.1) == [false, true])
        }
    }

    @Test("ignored parameters let calls with a fresh timestamp share an entry")
    func ignoredParametersShareEntries() async throws {
        try await withCache { cache in
            let network = FakeNetwork { .success(makeResponse($0.url)) }
            let first = HTTPRequest(url: try #require(URL(string: "https://e.com/feed?ts=1&page=2")))
            let second = HTTPRequest(url: try #require(URL(string: "https://e.com/feed?page=2&ts=2")))
            let deliveries = Recorder<Delivery>()
            cache.run(.networkOnly, request: first, ignoredParameters: ["ts"], queue: .global(), isCacheable: { _ in true },
                      network: network.closure, deliver: { deliveries.append($0) })
            await deliveries.wait(for: 1)
            cache.run(.cacheOnly, request: second, ignoredParameters: ["ts"], queue: .global(), isCacheable: { _ in true },
                      network: network.closure, deliver: { deliveries.append($0) })
            #expect(await deliveries.wait(for: 2).map(\.source) == [.network, .cache])
        }
    }
}
