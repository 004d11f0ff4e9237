@testable import Cache
import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

@Suite("Disk store: eviction and cleanup")
struct DiskCacheEvictionTests {
    let clock = TestClock()

    func entry(_ index: Int, size: Int = 1000) throws -> CacheEntry {
        try makeEntry(HTTPRequest(url: try #require(URL(string: "https://e.com/e\(index)"))),
                      body: String(repeating: "e", count: size), at: clock.now)
    }

    /// The bytes one test entry takes on disk (metadata and body).
    func entrySize() async throws -> Int64 {
        try await withTemporaryDirectory { directory in
            let store = DiskCache(directory: directory, clock: clock.function)
            let first = try entry(0)
            #expect(store.writeEntry(first))
            return store.currentTotalSize()
        }
    }

    @Test("the size limit holds, least recently used first, down to the low watermark")
    func leastRecentlyUsed() async throws {
        let size = try await entrySize()
        try await withTemporaryDirectory { directory in
            let events = Recorder<CacheEvent>()
            // Room for six entries and a half; eviction goes down to 3.25 entries.
            let store = DiskCache(directory: directory, maximumSize: size * 6 + size / 2, lowWatermark: 0.5,
                                  clock: clock.function, reporter: { events.append($0) })
            var entries: [CacheEntry] = []
            for index in 0..<6 {
                clock.advance(1)
                let e = try entry(index)
                entries.append(e)
                #expect(store.writeEntry(e))
            }
            #expect(store.currentEntryCount() == 6)
            // Use 0 and 1 again: now 2, 3, 4, 5 are the least recently used.
            clock.advance(1)
            #expect(store.readEntry(for: entries[0].key) != nil)
            clock.advance(1)
            #expect(store.readEntry(for: entries[1].key) != nil)
            clock.advance(1)
            let seventh = try entry(6)
            entries.append(seventh)
            #expect(store.writeEntry(seventh))
            #expect(store.currentTotalSize() <= size * 6 + size / 2)
            let kept = entries.indices.filter { store.readEntry(for: entries[$0].key) != nil }
            #expect(kept == [0, 1, 6])
            #expect(events.values.contains(.evicted(entries: 4, bytes: size * 4)))
        }
    }

    @Test("the least-recently-used order survives a reopen")
    func orderSurvivesReopen() async throws {
        let size = try await entrySize()
        try await withTemporaryDirectory { directory in
            let limit = size * 3 + size / 2
            let store = DiskCache(directory: directory, maximumSize: limit, lowWatermark: 0.9, clock: clock.function)
            let entries = try (0..<3).map { try entry($0) }
            for e in entries {
                clock.advance(1)
                #expect(store.writeEntry(e))
            }
            clock.advance(1)
            #expect(store.readEntry(for: entries[0].key) != nil)
            store.closeNow()
            let reopened = DiskCache(directory: directory, maximumSize: limit, lowWatermark: 0.9, clock: clock.function)
            clock.advance(1)
            #expect(reopened.writeEntry(try entry(3)))
            #expect(reopened.readEntry(for: entries[1].key) == nil)
            #expect(reopened.readEntry(for: entries[0].key) != nil)
            #expect(reopened.readEntry(for: entries[2].key) != nil)
        }
    }

    @Test("temporary files and orphaned bodies are removed at open")
    func cleanupAtOpen() async throws {
        try await withTemporaryDirectory { directory in
            let first = DiskCache(directory: directory, clock: clock.function)
            let kept = try entry(1)
            #expect(first.writeEntry(kept))
            first.closeNow()
            let orphan = String(repeating: "ab", count: 32) + "-0123456789abcdef.body"
            let foreign = "notes.txt"
            for name in [".tmp-0000", ".tmp-half-written", orphan, foreign] {
                try Data("left over".utf8).write(to: directory.appendingPathComponent(name))
            }
            let events = Recorder<CacheEvent>()
            let store = DiskCache(directory: directory, clock: clock.function, reporter: { events.append($0) })
            #expect(store.currentEntryCount() == 1)
            let files = entryFiles(directory)
            #expect(!files.contains { $0.hasPrefix(".tmp-") })
            #expect(!files.contains(orphan))
            #expect(files.contains(foreign))
            #expect(store.readEntry(for: kept.key) == kept)
            #expect(events.values.contains(.removedLeftovers(files: 3)))
        }
    }
}
