@testable import Cache
import Dispatch
import Foundation
import HTTPCore
import Synchronization
import Testing

/// A held entry read on the caller's thread: served only when nothing queued or changed on disk
/// could make it wrong, and the policies that deliver a stored copy first take it.
@Suite("Disk store: the quick read of a held entry", .timeLimit(.minutes(1)))
struct HeldEntryQuickReadTests {
    let clock = TestClock()
    let request = HTTPRequest(url: URL(string: "https://api.example.com/items?page=1")!)

    @Test("served while held and unchanged, also when its access time is due; not when the body file changed or a mutation is queued")
    func quickReadRules() async throws {
        try await withTemporaryDirectory { directory in
            let store = DiskCache(directory: directory, clock: clock.function)
            let entry = try makeEntry(request, at: clock.now)
            #expect(store.heldEntryWithoutWaiting(for: entry.key) == nil, "nothing held before the store opens")
            #expect(store.writeEntry(entry))
            #expect(store.heldEntryWithoutWaiting(for: entry.key) == entry)

            let gate = DispatchSemaphore(value: 0)
            let released = DispatchSemaphore(value: 0)
            store.enqueueMutation({ gate.wait() }, completion: { _ in released.signal() })
            #expect(store.heldEntryWithoutWaiting(for: entry.key) == nil, "a queued mutation comes first")
            gate.signal()
            released.wait()
            #expect(store.heldEntryWithoutWaiting(for: entry.key) == entry)

            // A due access time does not hold the hit up: it is written on the store's queue
            // afterwards, once, and the held identity follows the touched file.
            let metadataPath = try #require(store.path(entry.key.fileName + DiskCache.metadataSuffix))
            let written = try #require(FileSystem.regularFileInfo(metadataPath)).modified
            clock.advance(DiskCache.accessTimeResolution)
            let gate2 = DispatchSemaphore(value: 0)
            store.queue.async { gate2.wait() }
            #expect(store.heldEntryWithoutWaiting(for: entry.key) == entry, "served though the access time is due")
            #expect(store.heldEntryWithoutWaiting(for: entry.key) == entry)
            #expect(store.state.withLock { $0.pendingTouches } == [entry.key.fileName], "marked once")
            #expect(try #require(FileSystem.regularFileInfo(metadataPath)).modified == written, "not written on this thread")
            gate2.signal()
            store.queue.sync {}
            #expect(store.state.withLock { $0.pendingTouches.isEmpty })
            let touched = try #require(FileSystem.regularFileInfo(metadataPath)).modified
            #expect(abs(touched.timeIntervalSince(clock.now)) < 0.001, "the time of the hit, written behind it")
            #expect(store.heldEntryWithoutWaiting(for: entry.key) == entry, "the held identity follows the touch")
            #expect(store.state.withLock { $0.pendingTouches.isEmpty }, "not due again within the resolution")

            let bodyName = try #require(store.state.withLock { $0.index[entry.key.fileName]?.bodyFile })
            let bodyPath = try #require(store.path(bodyName))
            try Data("tampered".utf8).write(to: URL(fileURLWithPath: bodyPath))
            #expect(store.heldEntryWithoutWaiting(for: entry.key) == nil, "a changed body file is never served from memory")
            #expect(store.readEntry(for: entry.key) == nil, "and the disk read finds it damaged")
        }
    }

    @Test("quick reads on many threads, their access times due, while the entries are rewritten: each read is a version written for its key, and every due time is written")
    func concurrentQuickReadsWithDueTouches() async throws {
        try await withTemporaryDirectory { directory in
            let store = DiskCache(directory: directory, clock: clock.function)
            let requests = try (0..<20).map { HTTPRequest(url: try #require(URL(string: "https://api.example.com/items?page=\($0)"))) }
            let first = try requests.map { try makeEntry($0, body: "v0", at: clock.now) }
            for entry in first { #expect(store.writeEntry(entry)) }
            let wrong = Mutex(0)
            DispatchQueue.concurrentPerform(iterations: 5) { lane in
                for round in 0..<200 {
                    if lane == 0 {
                        // The writer: a new body for one entry, and time moves on so touches fall due.
                        clock.advance(DiskCache.accessTimeResolution)
                        let index = round % requests.count
                        let entry = (try? makeEntry(requests[index], body: "v\(round)", at: clock.now))
                        if let entry { _ = store.writeEntry(entry) }
                    } else {
                        let index = (round * lane) % requests.count
                        guard let read = store.heldEntryWithoutWaiting(for: first[index].key) else { continue }
                        let body = String(decoding: read.body, as: UTF8.self)
                        // v0, or a version the writer wrote for this entry (round ≡ index).
                        let version = Int(body.dropFirst())
                        let written = body.hasPrefix("v") && version.map { $0 == 0 || $0 % requests.count == index } == true
                        if read.key != first[index].key || !written { wrong.withLock { $0 += 1 } }
                    }
                }
            }
            store.queue.sync {}
            #expect(wrong.withLock { $0 } == 0)
            #expect(store.state.withLock { $0.pendingTouches.isEmpty })
            // Every held entry still matches its files, so the next read is quick and is the last write.
            for (index, request) in requests.enumerated() {
                let key = first[index].key
                let fromDisk = try #require(store.readEntry(for: key))
                #expect(store.heldEntryWithoutWaiting(for: key) == fromDisk, "\(request.url)")
            }
        }
    }

    @Test(".cacheOnly and .fileFirst deliver a held copy while the store's queue is busy; a queued removal wins")
    func policiesTakeTheQuickRead() async throws {
        try await withTemporaryDirectory { directory in
            let cache = ResponseCache(directory: directory, clock: clock.function)
            let entry = try makeEntry(request, at: clock.now)
            #expect(cache.store.writeEntry(entry))
            // A read (not a mutation) blocks the queue: only the quick read can answer.
            let gate = DispatchSemaphore(value: 0)
            cache.store.queue.async { gate.wait() }
            defer { gate.signal() }
            for policy in [CachePolicy.cacheOnly, .cacheElseNetwork(maxAge: 60), .fileFirst] {
                let deliveries = Recorder<Result<HTTPResponse, NetworkError>>()
                let network = FakeNetwork { _ in nil }
                cache.run(policy, request: request, queue: DispatchQueue(label: "test.deliveries"), isCacheable: { _ in true },
                          network: network.closure, deliver: { deliveries.append($0) })
                let first = await deliveries.wait(for: 1)
                #expect(first.map(\.bodyText) == ["stored"], "\(policy)")
                #expect(first.map(\.source) == [.cache], "\(policy)")
            }
            gate.signal()

            let removed = DispatchSemaphore(value: 0)
            cache.store.removeAll { _ in removed.signal() }
            let deliveries = Recorder<Result<HTTPResponse, NetworkError>>()
            cache.run(.cacheOnly, request: request, queue: DispatchQueue(label: "test.deliveries"), isCacheable: { _ in true },
                      network: FakeNetwork { _ in nil }.closure, deliver: { deliveries.append($0) })
            #expect(await deliveries.wait(for: 1).map(\.errorKind) == [.cacheMiss], "removed before the read, so a miss")
            removed.wait()
        }
    }
}
