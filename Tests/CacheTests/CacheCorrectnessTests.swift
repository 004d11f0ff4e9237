@testable import Cache
import CurlTransport
import Dispatch
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

/// Issue 21's cache items, without I/O beyond a temporary store: freshness after a retry
/// wait (11), the heuristic cap, invalidation under every policy, `Vary` under every policy
/// and credential-like headers in the key (24), the async management forms (23). The clock is
/// the test's, moved by hand.
@Suite("Cache correctness")
struct CacheCorrectnessTests {
    let clock = TestClock()
    let url = URL(string: "https://api.example.com/items/7")!

    typealias Delivery = Result<HTTPResponse, NetworkError>

    func withCache(_ body: (ResponseCache) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            try await body(ResponseCache(directory: directory, clock: clock.function))
        }
    }

    func run(_ cache: ResponseCache, _ policy: CachePolicy, _ request: HTTPRequest,
             network: @escaping ResponseCache.Network, expected: Int = 1) async -> [Delivery] {
        let deliveries = Recorder<Delivery>()
        cache.run(policy, request: request, queue: DispatchQueue(label: "test.correctness"),
                  isCacheable: { _ in true }, network: network, deliver: { deliveries.append($0) })
        return await deliveries.wait(for: expected)
    }

    func get(_ url: URL? = nil, headers: HTTPHeaders = HTTPHeaders()) -> HTTPRequest {
        HTTPRequest(url: url ?? self.url, headers: headers)
    }

    func seed(_ cache: ResponseCache, _ request: HTTPRequest, headers: HTTPHeaders = HTTPHeaders(),
              varyValues: [String: String] = [:]) throws {
        var entry = try makeEntry(request, headers: headers, at: clock.now)
        entry.varyValues = varyValues
        #expect(cache.store.writeEntry(entry))
    }

    func isStored(_ cache: ResponseCache, _ request: HTTPRequest) -> Bool {
        CacheKey(request: request).flatMap { cache.store.readEntry(for: $0) } != nil
    }

    // MARK: 11. The request time is the producing attempt's

    @Test(".http: a response that arrives after a 3 s retry wait with max-age=2 is served fresh")
    func responseAfterRetryWaitIsFresh() async throws {
        try await withCache { cache in
            let clock = self.clock
            let calls = Recorder<HTTPRequest>()
            // The network step waits 3 s (a `Retry-After: 3`), then the attempt that answers
            // takes 0.5 s: only the last 0.5 s age the response.
            let network: ResponseCache.Network = { request, completion in
                calls.append(request)
                clock.advance(3.5)
                var response = makeResponse(request.url, headers: ["Cache-Control": "max-age=2"])
                response.timings = TransferTimings(total: 0.5)
                let answer = response
                DispatchQueue.global().async { completion(.success(answer)) }
                return nil
            }
            let first = await run(cache, .http, get(), network: network)
            #expect(first.map(\.source) == [.network])
            let second = await run(cache, .http, get(), network: network)
            #expect(second.map(\.source) == [.cache], "born stale: the retry wait was counted as the response's delay")
            #expect(calls.count == 1)
        }
    }

    @Test("The request time is the arrival minus the attempt's own transfer time")
    func requestTimeOfAttempt() {
        let arrival = Date(timeIntervalSince1970: 1_000)
        var response = makeResponse(url)
        response.timings = TransferTimings(total: 0.25)
        #expect(ResponseCache.requestTime(of: .success(response), receivedAt: arrival) == arrival.addingTimeInterval(-0.25))
        response.timings = TransferTimings(total: .nan)
        #expect(ResponseCache.requestTime(of: .success(response), receivedAt: arrival) == arrival)
        #expect(ResponseCache.requestTime(of: .failure(NetworkError(.timedOut, "x")), receivedAt: arrival) == arrival)
    }

    // MARK: Heuristic freshness is capped

    @Test("Heuristic freshness is 10% of Date − Last-Modified, at most 24 hours")
    func heuristicFreshnessCapped() {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        func lifetime(modifiedSecondsEarlier seconds: TimeInterval) -> TimeInterval {
            let headers: HTTPHeaders = ["Date": HTTPDate.format(date),
                                        "Last-Modified": HTTPDate.format(date.addingTimeInterval(-seconds))]
            return CacheStrategy.freshnessLifetime(statusCode: 200, headers: headers, receivedAt: date)
        }
        #expect(lifetime(modifiedSecondsEarlier: 36_000) == 3_600)
        #expect(lifetime(modifiedSecondsEarlier: 10 * 365 * 86_400) == 86_400)
    }

    @Test(".http: an entry last modified ten years ago is stale after a day and a second")
    func heuristicEntryExpiresWithinADay() async throws {
        try await withCache { cache in
            let headers: HTTPHeaders = ["Date": HTTPDate.format(clock.now),
                                        "Last-Modified": HTTPDate.format(clock.now.addingTimeInterval(-10 * 365 * 86_400))]
            try seed(cache, get(), headers: headers)
            clock.advance(86_401)
            let decision = CacheStrategy.decide(method: .get, requestHeaders: HTTPHeaders(),
                                                stored: cache.store.readEntry(for: try #require(CacheKey(request: get()))),
                                                now: clock.now)
            #expect(decision == .revalidate(conditionalHeaders: ["If-Modified-Since": headers["Last-Modified"]!]))
        }
    }

    // MARK: Invalidation after an unsafe request, whatever the policy

    @Test("A successful POST drops the stored GET of its URL and of its same-origin Location, under every policy",
          arguments: [CachePolicy.networkOnly, .networkFirst, .fileFirst, .cacheElseNetwork(maxAge: 60), .http])
    func unsafeRequestInvalidates(policy: CachePolicy) async throws {
        try await withCache { cache in
            let collection = URL(string: "https://api.example.com/items")!
            let created = URL(string: "https://api.example.com/items/8")!
            let elsewhere = URL(string: "https://other.example.com/items/8")!
            for target in [collection, created, elsewhere] { try seed(cache, get(target)) }
            var post = HTTPRequest(url: collection, method: .post)
            post.body = .data(Data("name=x".utf8))
            let network: ResponseCache.Network = { request, completion in
                let location = request.method == .post ? "/items/8" : ""
                DispatchQueue.global().async {
                    completion(.success(makeResponse(request.url, status: 201, headers: ["Location": location,
                                                                                       "Content-Location": elsewhere.absoluteString])))
                }
                return nil
            }
            let deliveries = await run(cache, policy, post, network: network)
            #expect(deliveries.map(\.source) == [.network])
            #expect(!isStored(cache, get(collection)), "the POST's own URL")
            #expect(!isStored(cache, get(created)), "the same-origin Location")
            #expect(isStored(cache, get(elsewhere)), "another origin's entry is not the POST's to drop")
        }
    }

    @Test("A failed POST invalidates nothing")
    func failedUnsafeRequestKeepsEntries() async throws {
        try await withCache { cache in
            try seed(cache, get())
            let network: ResponseCache.Network = { request, completion in
                DispatchQueue.global().async { completion(.success(makeResponse(request.url, status: 500))) }
                return nil
            }
            _ = await run(cache, .networkOnly, HTTPRequest(url: url, method: .delete), network: network)
            #expect(isStored(cache, get()))
        }
    }

    // MARK: 24. Vary under every policy

    @Test("A stored entry whose Vary'd request header differs is a miss under .cacheOnly")
    func varyMismatchCacheOnly() async throws {
        try await withCache { cache in
            try seed(cache, get(headers: ["Accept-Language": "en"]), headers: ["Vary": "Accept-Language"],
                     varyValues: ["accept-language": "en"])
            let never: ResponseCache.Network = { _, _ in Issue.record("no network under .cacheOnly"); return nil }
            let french = await run(cache, .cacheOnly, get(headers: ["Accept-Language": "fr"]), network: never)
            #expect(french.map(\.errorKind) == [.cacheMiss])
            let english = await run(cache, .cacheOnly, get(headers: ["Accept-Language": "en"]), network: never)
            #expect(english.map(\.bodyText) == ["stored"])
        }
    }

    @Test("A Vary mismatch is a miss under .fileFirst, .cacheElseNetwork and .networkFirst",
          arguments: [CachePolicy.fileFirst, .cacheElseNetwork(maxAge: .infinity), .networkFirst])
    func varyMismatchAppPolicies(policy: CachePolicy) async throws {
        try await withCache { cache in
            try seed(cache, get(headers: ["Accept-Language": "en"]), headers: ["Vary": "Accept-Language"],
                     varyValues: ["accept-language": "en"])
            let network: ResponseCache.Network = { request, completion in
                DispatchQueue.global().async {
                    completion(policy == .networkFirst ? .failure(NetworkError(.cannotConnect, "offline"))
                                                       : .success(makeResponse(request.url, body: "bonjour")))
                }
                return nil
            }
            let deliveries = await run(cache, policy, get(headers: ["Accept-Language": "fr"]), network: network)
            #expect(!deliveries.map(\.bodyText).contains("stored"), "the English copy was served to a French request")
        }
    }

    @Test("Vary: * never matches, and is never stored")
    func varyStar() async throws {
        try await withCache { cache in
            try seed(cache, get(), headers: ["Vary": "*"])
            let never: ResponseCache.Network = { _, _ in nil }
            let deliveries = await run(cache, .cacheOnly, get(), network: never)
            #expect(deliveries.map(\.errorKind) == [.cacheMiss])

            let network: ResponseCache.Network = { request, completion in
                DispatchQueue.global().async { completion(.success(makeResponse(request.url, headers: ["Vary": "*"]))) }
                return nil
            }
            let other = get(URL(string: "https://api.example.com/star")!)
            _ = await run(cache, .networkOnly, other, network: network)
            #expect(!isStored(cache, other))
        }
    }

    // MARK: 24. Credential-like headers are part of the key

    @Test("Headers named like credentials separate keys; other headers do not", arguments: [
        "X-Auth-Token", "token", "X-API-Key", "X-Session-Id", "Authorization", "Cookie",
    ])
    func credentialHeadersInKey(name: String) throws {
        let alice = try #require(CacheKey(request: get(headers: [name: "alice"])))
        let bob = try #require(CacheKey(request: get(headers: [name: "bob"])))
        let anonymous = try #require(CacheKey(request: get()))
        #expect(alice != bob)
        #expect(alice != anonymous)
        #expect(!alice.rawValue.contains("alice"), "only a digest of a credential is kept")
        let plain = try #require(CacheKey(request: get(headers: ["Accept": "text/plain"])))
        #expect(plain == anonymous)
    }

    @Test(".cacheOnly does not serve one user's entry to another with a custom auth header")
    func customAuthHeaderSeparatesUsers() async throws {
        try await withCache { cache in
            try seed(cache, get(headers: ["X-Auth-Token": "alice"]))
            let never: ResponseCache.Network = { _, _ in nil }
            let bob = await run(cache, .cacheOnly, get(headers: ["X-Auth-Token": "bob"]), network: never)
            #expect(bob.map(\.errorKind) == [.cacheMiss])
            let alice = await run(cache, .cacheOnly, get(headers: ["X-Auth-Token": "alice"]), network: never)
            #expect(alice.map(\.bodyText) == ["stored"])
        }
    }

    // MARK: 8. Caller numbers

    @Test(".cacheElseNetwork with a negative or NaN age is an invalid request; infinity is any age",
          arguments: [-1.0, .nan])
    func cacheElseNetworkInvalidAge(maxAge: Double) async throws {
        try await withCache { cache in
            try seed(cache, get())
            let never: ResponseCache.Network = { _, _ in Issue.record("no network for an invalid age"); return nil }
            let deliveries = await run(cache, .cacheElseNetwork(maxAge: maxAge), get(), network: never)
            #expect(deliveries.map(\.errorKind) == [.invalidRequest])
        }
    }

    @Test(".cacheElseNetwork(maxAge: .infinity) and 1e300 serve any stored copy", arguments: [Double.infinity, 1e300])
    func cacheElseNetworkUnlimitedAge(maxAge: Double) async throws {
        try await withCache { cache in
            try seed(cache, get())
            clock.advance(10 * 365 * 86_400)
            let never: ResponseCache.Network = { _, _ in Issue.record("the stored copy is young enough"); return nil }
            let deliveries = await run(cache, .cacheElseNetwork(maxAge: maxAge), get(), network: never)
            #expect(deliveries.map(\.bodyText) == ["stored"])
        }
    }

    // MARK: 23. The async forms are the ones a plain `await` gets

    @Test("await store.removeAll() returns how many entries it removed")
    func removeAllReturnsCount() async throws {
        try await withCache { cache in
            try seed(cache, get())
            try seed(cache, get(URL(string: "https://api.example.com/other")!))
            let store = cache.store
            let removed = await store.removeAll()
            #expect(removed == 2)
            let count = await store.entryCount()
            #expect(count == 0)
        }
    }
}
