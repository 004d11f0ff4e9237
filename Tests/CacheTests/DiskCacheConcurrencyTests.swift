@testable import Cache
import CurlTransport
import Dispatch
import Foundation
import HTTPCore
import HTTPFeatures
import Synchronization
import Testing

@Suite("Disk store: locking and concurrency")
struct DiskCacheConcurrencyTests {
    let clock = TestClock()

    @Test("a second store on the same directory opens read-only until the first closes")
    func twoStores() async throws {
        try await withTemporaryDirectory { directory in
            let first = DiskCache(directory: directory, clock: clock.function)
            let events = Recorder<CacheEvent>()
            let second = DiskCache(directory: directory, clock: clock.function, reporter: { events.append($0) })
            let a = try makeEntry(HTTPRequest(url: try #require(URL(string: "https://e.com/a"))), at: clock.now)
            let b = try makeEntry(HTTPRequest(url: try #require(URL(string: "https://e.com/b"))), at: clock.now)
            #expect(first.writeEntry(a))
            #expect(second.currentAccess() == .readOnly)
            #expect(await events.wait(for: 1) == [.openedReadOnly(directory: directory.standardizedFileURL.path)])
            // Reads work, writes and removals are dropped.
            #expect(second.readEntry(for: a.key) == a)
            #expect(!second.writeEntry(b))
            #expect(!second.removeEntry(for: a.key))
            #expect(second.removeAllEntries() == 0)
            #expect(first.readEntry(for: a.key) == a)
            #expect(first.readEntry(for: b.key) == nil)
            #expect(second.currentEntryCount() == 1)
            // Damage seen by the read-only store is reported but left for the writer.
            // Once the first store lets go, the second takes over on its next write.
            first.closeNow()
            #expect(second.writeEntry(b))
            #expect(second.currentAccess() == .writable)
            #expect(first.currentAccess() == .readOnly)
            #expect(first.readEntry(for: b.key) == b)
            #expect(events.values.count == 1)
            second.closeNow()
            first.closeNow()
        }
    }

    @Test("concurrent writers on one key: every read sees one whole entry")
    func concurrentWriters() async throws {
        try await withTemporaryDirectory { directory in
            let store = DiskCache(directory: directory, clock: clock.function)
            let request = HTTPRequest(url: try #require(URL(string: "https://e.com/contended")))
            let key = try #require(CacheKey(request: request))
            let problems = Mutex<[String]>([])
            let reads = Mutex(0)
            let group = DispatchGroup()
            for writer in 0..<4 {
                DispatchQueue.global().async(group: group) {
                    for round in 0..<40 {
                        let version = "\(writer)-\(round)"
                        // Body and header carry the version; sizes differ per round.
                        let body = String(repeating: version + ";", count: 50 + round * 7)
                        let entry = CacheEntry(key: key, url: request.url, statusCode: 200, headers: ["X-Version": version],
                                               body: Data(body.utf8), requestSentAt: Date(), storedAt: Date())
                        if !store.writeEntry(entry) { problems.withLock { $0.append("write \(version) failed") } }
                    }
                }
            }
            for _ in 0..<2 {
                DispatchQueue.global().async(group: group) {
                    for _ in 0..<100 {
                        guard let entry = store.readEntry(for: key) else { continue }
                        reads.withLock { $0 += 1 }
                        let version = entry.headers["X-Version"] ?? "?"
                        let text = String(decoding: entry.body, as: UTF8.self)
                        let parts = text.split(separator: ";")
                        if parts.isEmpty || !parts.allSatisfy({ $0 == version }) {
                            problems.withLock { $0.append("read mixed entry \(version)") }
                        }
                    }
                }
            }
            // Notified, not waited for: a blocked thread of Dispatch's global queues (a few on
            // Linux, shared with the concurrency pool) would stall other suites.
            await withCheckedContinuation { continuation in group.notify(queue: .global()) { continuation.resume() } }
            #expect(problems.withLock { $0 }.isEmpty)
            #expect(reads.withLock { $0 } > 0)
            #expect(store.currentEntryCount() == 1)
            // Exactly one metadata file and one body remain.
            #expect(entryFiles(directory).count == 2)
        }
    }
}
