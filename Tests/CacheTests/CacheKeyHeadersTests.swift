@testable import Cache
import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

/// Extra key headers named by a configuration (issue 21, item 24): hashed into the key like
/// credentials, in any case, with the order of fields irrelevant.
@Suite("Cache key headers")
struct CacheKeyHeadersTests {
    let url = URL(string: "https://api.example.com/greeting")!

    func key(_ headers: HTTPHeaders, keyHeaders: Set<String> = []) throws -> CacheKey {
        try #require(CacheKey(request: HTTPRequest(url: url, headers: headers), keyHeaders: keyHeaders))
    }

    @Test("A named key header separates keys; unnamed, it does not")
    func namedKeyHeader() throws {
        #expect(try key(["Accept-Language": "en"]) == key(["Accept-Language": "fr"]))
        #expect(try key(["Accept-Language": "en"], keyHeaders: ["accept-language"])
                != key(["Accept-Language": "fr"], keyHeaders: ["accept-language"]))
        #expect(try key(["Accept-Language": "en"], keyHeaders: ["ACCEPT-LANGUAGE"])
                == key(["accept-language": "en"], keyHeaders: ["Accept-Language"]))
        #expect(!(try key(["Accept-Language": "en"], keyHeaders: ["Accept-Language"]).rawValue.contains("en\n")))
    }

    @Test("The order of fields does not change the key")
    func fieldOrder() throws {
        var first = HTTPHeaders()
        first.add(name: "X-Auth-Token", value: "a")
        first.add(name: "X-Tenant", value: "t")
        var second = HTTPHeaders()
        second.add(name: "X-Tenant", value: "t")
        second.add(name: "X-Auth-Token", value: "a")
        #expect(try key(first, keyHeaders: ["x-tenant"]) == key(second, keyHeaders: ["x-tenant"]))
    }

    @Test("The policy runner uses the key headers it is given")
    func runnerUsesKeyHeaders() async throws {
        try await withTemporaryDirectory { directory in
            let cache = ResponseCache(directory: directory)
            let english = HTTPRequest(url: url, headers: ["Accept-Language": "en"])
            let entry = CacheEntry(key: try #require(CacheKey(request: english, keyHeaders: ["Accept-Language"])),
                                   request: english, response: makeResponse(url), requestSentAt: Date(), storedAt: Date())
            #expect(cache.store.writeEntry(entry))
            let deliveries = Recorder<Result<HTTPResponse, NetworkError>>()
            let french = HTTPRequest(url: url, headers: ["Accept-Language": "fr"])
            cache.run(.cacheOnly, request: french, keyHeaders: ["Accept-Language"], queue: .global(),
                      isCacheable: { _ in true }, network: { _, _ in nil }, deliver: { deliveries.append($0) })
            #expect(await deliveries.wait(for: 1).map(\.errorKind) == [.cacheMiss])
            cache.run(.cacheOnly, request: english, keyHeaders: ["Accept-Language"], queue: .global(),
                      isCacheable: { _ in true }, network: { _, _ in nil }, deliver: { deliveries.append($0) })
            #expect(await deliveries.wait(for: 2).last?.bodyText == "fresh")
        }
    }
}
