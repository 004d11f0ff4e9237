@testable import Cookies
import Dispatch
import Foundation
import Synchronization
import Testing

@Suite struct ConcurrencyTests {
    @Test func manyThreadsStoreAndReadConsistently() throws {
        let jar = CookieJar(clock: ManualClock().reading)
        let threads = 16
        let perThread = 40
        let addresses = try (0..<threads).map { try url("https://t\($0).example.com/") }
        let shared = try url("https://example.com/")
        let mismatches = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                jar.setCookies(fromSetCookie: ["c\(index)=\(thread)"], for: addresses[thread])
                jar.setCookies(fromSetCookie: ["shared\(thread)=\(index); Domain=example.com"], for: addresses[thread])
                // A thread's own cookies are always all there, in order, whatever the others do.
                let own = jar.cookieHeader(for: addresses[thread]) ?? ""
                let expected = (0...index).map { "c\($0)=\(thread)" }
                let ownParts = own.split(separator: "; ").map(String.init).filter { $0.hasPrefix("c") }
                if ownParts != expected { mismatches.add(1, ordering: .relaxed) }
                _ = jar.cookieHeader(for: shared)
                _ = jar.allCookies
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
        #expect(jar.allCookies.count == threads * perThread + threads)
        let sharedHeader = try #require(jar.cookieHeader(for: shared))
        #expect(Set(sharedHeader.split(separator: "; ").map(String.init))
                == Set((0..<threads).map { "shared\($0)=\(perThread - 1)" }))
    }

    @Test func concurrentRemovalsAndStoresEndConsistent() throws {
        let jar = CookieJar(clock: ManualClock().reading)
        let address = try url("https://example.com/")
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<100 {
                jar.setCookies(fromSetCookie: ["k\(thread)-\(index)=1"], for: address)
                if index % 2 == 0 { jar.remove(name: "k\(thread)-\(index)", domain: "example.com") }
            }
        }
        // 8 × 50 survivors, but the domain keeps 50: the count, the list and the header agree.
        let all = jar.allCookies
        #expect(all.count == CookieStore.maximumPerDomain)
        #expect(all.allSatisfy { Int($0.name.split(separator: "-").last ?? "") .map { $0 % 2 == 1 } == true })
        #expect(jar.cookieHeader(for: address)?.split(separator: ";").count == all.count)
    }
}
