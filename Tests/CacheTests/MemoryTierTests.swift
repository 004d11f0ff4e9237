@testable import Cache
import Foundation
import Glibc
import HTTPCore
import Synchronization
import Testing

/// The memory tier: what it holds, when it lets go, and that a held entry never hides a change
/// on disk — another store's write or removal, or damage in place with its times put back.
@Suite("Disk store: the memory tier")
struct MemoryTierTests {
    let clock = TestClock()

    func request(_ path: String) throws -> HTTPRequest {
        HTTPRequest(url: try #require(URL(string: "https://e.com/\(path)")))
    }

    func isHeld(_ store: DiskCache, _ entry: CacheEntry) -> Bool {
        store.state.withLock { $0.memory.entries[entry.key.fileName] != nil }
    }

    func metadataPath(_ store: DiskCache, _ entry: CacheEntry) throws -> String {
        try #require(store.path(entry.key.fileName + DiskCache.metadataSuffix))
    }

    func bodyPath(_ store: DiskCache, _ entry: CacheEntry) throws -> String {
        let name = try #require(store.state.withLock { $0.index[entry.key.fileName]?.bodyFile })
        return try #require(store.path(name))
    }

    @Test("a written entry is held and served; a read from disk is held too")
    func writtenAndReadEntriesAreHeld() async throws {
        try await withTemporaryDirectory { directory in
            let store = DiskCache(directory: directory, clock: clock.function)
            let entry = try makeEntry(try request("a"), at: clock.now)
            #expect(store.writeEntry(entry))
            #expect(isHeld(store, entry))
            #expect(store.readEntry(for: entry.key) == entry)

            store.closeNow()
            #expect(!isHeld(store, entry), "closing lets go of what is held")
            #expect(store.readEntry(for: entry.key) == entry)
            #expect(isHeld(store, entry))
        }
    }

    @Test("a budget of 0 holds nothing, and an entry over an eighth of the budget is not held")
    func budgetLimits() async throws {
        try await withTemporaryDirectory { directory in
            let none = DiskCache(directory: directory.appendingPathComponent("none"), memoryBudget: 0, clock: clock.function)
            let small = try makeEntry(try request("s"), at: clock.now)
            #expect(none.writeEntry(small))
            #expect(!isHeld(none, small))
            #expect(none.readEntry(for: small.key) == small)
            #expect(!isHeld(none, small))

            let tight = DiskCache(directory: directory.appendingPathComponent("tight"), memoryBudget: 16 * 1024, clock: clock.function)
            let big = try makeEntry(try request("big"), body: String(repeating: "x", count: 4 * 1024), at: clock.now)
            #expect(tight.writeEntry(big))
            #expect(!isHeld(tight, big), "4 KiB is over an eighth of 16 KiB")
            #expect(tight.readEntry(for: big.key) == big)
        }
    }

    @Test("damage in place is a miss even with the file's size and modification time put back")
    func damageWithTimesRestoredIsSeen() async throws {
        try await withTemporaryDirectory { directory in
            let events = Recorder<CacheEvent>()
            let store = DiskCache(directory: directory, clock: clock.function, reporter: { events.append($0) })
            let entry = try makeEntry(try request("d"), body: "0123456789", at: clock.now)
            #expect(store.writeEntry(entry))
            #expect(store.readEntry(for: entry.key) == entry)
            let body = try bodyPath(store, entry)
            var before = stat()
            #expect(lstat(body, &before) == 0)

            // The same number of bytes, then the old times: only the change time tells.
            let fd = open(body, O_WRONLY)
            #expect(fd >= 0)
            #expect(pwrite(fd, "X", 1, 3) == 1)
            var times = [before.st_atim, before.st_mtim]
            #expect(futimens(fd, &times) == 0)
            close(fd)

            #expect(store.readEntry(for: entry.key) == nil)
            #expect(events.values.contains { if case .corruptedEntry = $0 { true } else { false } })
            #expect(!isHeld(store, entry))
        }
    }

    @Test("a read-only store sees the writing store's newer entry and its removal, though it held the old one")
    func anotherStoresWritesAreSeen() async throws {
        try await withTemporaryDirectory { directory in
            let writer = DiskCache(directory: directory, clock: clock.function)
            let old = try makeEntry(try request("shared"), body: "old", at: clock.now)
            #expect(writer.writeEntry(old))
            let reader = DiskCache(directory: directory, clock: clock.function)
            #expect(reader.currentAccess() == .readOnly)
            #expect(reader.readEntry(for: old.key) == old)
            #expect(isHeld(reader, old))

            // Same length, so only the file's identity can tell the two apart.
            clock.advance(1)
            let new = try makeEntry(try request("shared"), body: "new", at: clock.now)
            #expect(writer.writeEntry(new))
            #expect(reader.readEntry(for: old.key) == new)

            #expect(writer.removeEntry(for: new.key))
            #expect(reader.readEntry(for: old.key) == nil)
            #expect(!isHeld(reader, old))
        }
    }

    @Test("hits from memory write the access time at most once a second, and eviction still follows the hits")
    func accessTimesAreCoarseButEvictionIsExact() async throws {
        try await withTemporaryDirectory { directory in
            let store = DiskCache(directory: directory, clock: clock.function)
            let entry = try makeEntry(try request("t"), at: clock.now)
            #expect(store.writeEntry(entry))
            let metadata = try metadataPath(store, entry)
            func modified() throws -> TimeInterval { try #require(FileSystem.regularFileInfo(metadata)).modified.timeIntervalSince1970 }
            let written = try modified()

            clock.advance(0.5)
            #expect(store.readEntry(for: entry.key) == entry)
            #expect(try modified() == written, "half a second later: not written")
            #expect(store.state.withLock { $0.index[entry.key.fileName]?.lastAccess } == clock.now)

            clock.advance(0.6)
            #expect(store.readEntry(for: entry.key) == entry)
            #expect(abs(try modified() - clock.now.timeIntervalSince1970) < 0.001, "over a second later: written")
            // The touch is this store's own change: the entry stays held and served.
            #expect(isHeld(store, entry))
            #expect(store.readEntry(for: entry.key) == entry)
        }
    }

    @Test("the budget evicts the least recently used, giving an entry used since its turn one more round")
    func clockEviction() throws {
        let entries = try (0..<4).map { try makeEntry(try request("e\($0)"), body: String(repeating: "b", count: 100), at: clock.now) }
        let cost = MemoryTier.cost(of: entries[0])
        var tier = MemoryTier(budget: cost * 3, maximumCost: cost)
        let file = try #require(FileIdentity.of("/proc/self/exe") ?? FileIdentity.of(#filePath))
        func hold(_ index: Int) {
            tier.hold("h\(index)", entry: entries[index], bodyFileName: "b\(index)", metadataFile: file, bodyFile: file,
                      touchedAt: clock.now)
        }
        hold(0)
        hold(1)
        hold(2)
        #expect(tier.bytes == cost * 3)
        #expect(tier.use("h0") != nil)
        hold(3)
        // h0 was used since it was held, so h1 — the oldest unused — goes.
        #expect(tier.entries.keys.sorted() == ["h0", "h2", "h3"])
        #expect(tier.bytes == cost * 3)

        tier.remove("h2")
        #expect(tier.bytes == cost * 2)
        tier.removeAll()
        #expect(tier.entries.isEmpty && tier.bytes == 0)
    }

    @Test("holding the same entry again and again keeps the tier's bookkeeping bounded")
    func repeatedHoldsStayBounded() throws {
        let entry = try makeEntry(try request("r"), at: clock.now)
        var tier = MemoryTier(budget: 1 << 20)
        let file = try #require(FileIdentity.of(#filePath))
        for _ in 0..<10_000 {
            tier.hold("r", entry: entry, bodyFileName: "b", metadataFile: file, bodyFile: file, touchedAt: clock.now)
        }
        #expect(tier.entries.count == 1)
        #expect(tier.bytes == MemoryTier.cost(of: entry))
        #expect(tier.placesInOrder < 200)
    }
}
