@testable import Cache
import CurlTransport
import Foundation
import Glibc
import HTTPCore
import HTTPFeatures
import Synchronization
import Testing

@Suite("Disk store")
struct DiskCacheTests {
    let clock = TestClock()

    func request(_ path: String) throws -> HTTPRequest {
        HTTPRequest(url: try #require(URL(string: "https://e.com/\(path)")))
    }

    @Test("an entry round-trips with every field")
    func roundTrip() async throws {
        try await withTemporaryDirectory { directory in
            let store = DiskCache(directory: directory, clock: clock.function)
            let key = try #require(CacheKey(request: try request("a")))
            let entry = CacheEntry(key: key, url: try #require(URL(string: "https://e.com/a?final=1")), statusCode: 203,
                                   headers: ["ETag": "\"v\"", "Set-Cookie": "a=1", "set-cookie": "b=2",
                                             "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT"],
                                   httpVersion: .http2, body: Data((0..<5000).map { UInt8($0 % 251) }),
                                   requestSentAt: clock.now.addingTimeInterval(-1), storedAt: clock.now,
                                   varyValues: ["accept": "text/plain"])
            #expect(await store.store(entry))
            #expect(await store.entry(for: key) == entry)
            #expect(await store.entryCount() == 1)
            #expect(await store.totalSize() > 5000)
            // A new store over the same directory (after the first lets go) reads it back too.
            store.closeNow()
            let reopened = DiskCache(directory: directory, clock: clock.function)
            #expect(reopened.readEntry(for: key) == entry)
            // An empty body and a different key.
            let emptyKey = try #require(CacheKey(request: try request("empty")))
            let empty = CacheEntry(key: emptyKey, url: directory, statusCode: 204, headers: HTTPHeaders(), body: Data(),
                                   requestSentAt: clock.now, storedAt: clock.now)
            #expect(reopened.writeEntry(empty))
            #expect(reopened.readEntry(for: emptyKey) == empty)
            #expect(reopened.readEntry(for: try #require(CacheKey(request: try request("missing")))) == nil)
        }
    }

    @Test("the directory is 0700 and every file 0600 whatever the umask")
    func permissions() async throws {
        try await withTemporaryDirectory { parent in
            // Only umask(0): the umask is process-wide, and a stricter one could make files of
            // suites running in parallel unusable for a non-root user.
            for mask: mode_t in [0] {
                let directory = parent.appendingPathComponent("store-\(mask)/nested", isDirectory: true)
                let store = DiskCache(directory: directory, clock: clock.function)
                let entry = try makeEntry(try request("p"), at: clock.now)
                let previous = umask(mask)
                let written = store.writeEntry(entry)
                umask(previous)
                #expect(written)
                func mode(_ path: String) throws -> mode_t {
                    var status = stat()
                    try #require(stat(path, &status) == 0)
                    return status.st_mode & 0o777
                }
                #expect(try mode(directory.path) == 0o700)
                #expect(try mode(directory.deletingLastPathComponent().path) == 0o700)
                let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                #expect(files.count == 3) // lock, metadata, body
                for file in files { #expect(try mode(directory.path + "/" + file) == 0o600, "\(file)") }
                store.closeNow()
            }
            // An existing directory with loose permissions is tightened.
            let loose = parent.appendingPathComponent("loose", isDirectory: true)
            try FileManager.default.createDirectory(at: loose, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o777])
            let store = DiskCache(directory: loose, clock: clock.function)
            #expect(store.currentAccess() == .writable)
            let attributes = try FileManager.default.attributesOfItem(atPath: loose.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        }
    }

    @Test("management: size, count, remove one, remove older than, remove all")
    func management() async throws {
        try await withTemporaryDirectory { directory in
            let store = DiskCache(directory: directory, clock: clock.function)
            var keys: [CacheKey] = []
            for index in 0..<5 {
                let entry = try makeEntry(try request("m\(index)"), body: String(repeating: "x", count: 100),
                                          at: clock.now.addingTimeInterval(TimeInterval(index * 10)))
                keys.append(entry.key)
                #expect(await store.store(entry))
            }
            #expect(await store.entryCount() == 5)
            let sizeOfFive = await store.totalSize()
            #expect(await store.remove(keys[4]))
            #expect(!(await store.remove(keys[4])))
            #expect(await store.entryCount() == 4)
            #expect(await store.totalSize() < sizeOfFive)
            // Stored at +0, +10, +20, +30: before +15 removes two.
            #expect(await store.removeEntries(storedBefore: clock.now.addingTimeInterval(15)) == 2)
            #expect(await store.entry(for: keys[0]) == nil)
            #expect(await store.entry(for: keys[2]) != nil)
            #expect(await store.removeAll() == 2)
            #expect(await store.entryCount() == 0)
            #expect(await store.totalSize() == 0)
            #expect(entryFiles(directory).isEmpty)
        }
    }

    @Test("namespaces keep users apart and are removed separately")
    func namespaces() async throws {
        try await withTemporaryDirectory { directory in
            let root = DiskCache(directory: directory, clock: clock.function)
            let alice = root.namespace("alice")
            #expect(alice === root.namespace("alice"))
            let bob = root.namespace("bob@example.com")
            let entry = try makeEntry(try request("shared"), at: clock.now)
            #expect(await alice.store(entry))
            #expect(await bob.entry(for: entry.key) == nil)
            #expect(await root.entry(for: entry.key) == nil)
            #expect(await alice.entryCount() == 1)
            #expect(await root.removeAll() == 0)
            #expect(await alice.entry(for: entry.key) != nil)
            #expect(await alice.removeAll() == 1)
            #expect(alice.directory?.lastPathComponent == "n-alice")
            #expect(bob.directory?.lastPathComponent.hasPrefix("h-") == true)
        }
    }

    @Test("an unusable directory is a miss, reported, and never throws")
    func unusableDirectory() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("not-a-directory")
            try Data("x".utf8).write(to: file)
            let events = Recorder<CacheEvent>()
            let store = DiskCache(directory: file, clock: clock.function, reporter: { events.append($0) })
            let entry = try makeEntry(try request("u"), at: clock.now)
            #expect(!(await store.store(entry)))
            #expect(await store.entry(for: entry.key) == nil)
            #expect(await store.entryCount() == 0)
            let reported = await events.wait(for: 1)
            guard case .diskError(let operation, _, _) = reported.first else {
                Issue.record("expected a disk error, got \(reported)")
                return
            }
            #expect(operation == "open")
            // Reported once, not on every operation.
            #expect(events.values.count == 1)
            // No default directory at all behaves the same.
            let nowhere = DiskCache(optionalDirectory: nil, maximumSize: 1000, lowWatermark: 0.8, maximumEntrySize: 100, memoryBudget: 0,
                                    clock: clock.function, reporter: { _ in })
            #expect(!nowhere.writeEntry(entry))
            #expect(nowhere.readEntry(for: entry.key) == nil)
        }
    }

    @Test("a directory removed under an open store is created again")
    func directoryRemoved() async throws {
        try await withTemporaryDirectory { parent in
            let directory = parent.appendingPathComponent("store", isDirectory: true)
            let events = Recorder<CacheEvent>()
            let store = DiskCache(directory: directory, clock: clock.function, reporter: { events.append($0) })
            let first = try makeEntry(try request("r1"), at: clock.now)
            #expect(store.writeEntry(first))
            try FileManager.default.removeItem(at: directory)
            let second = try makeEntry(try request("r2"), at: clock.now)
            // The write that finds the directory gone fails (and is reported); the next one works.
            #expect(!store.writeEntry(second))
            #expect(store.readEntry(for: first.key) == nil)
            #expect(store.writeEntry(second))
            #expect(store.readEntry(for: second.key) == second)
            #expect(store.currentAccess() == .writable)
            #expect(events.values.contains { if case .diskError = $0 { true } else { false } })
        }
    }

    @Test("a body over the per-entry limit is not stored and drops the old copy")
    func perEntryLimit() async throws {
        try await withTemporaryDirectory { directory in
            let store = DiskCache(directory: directory, maximumSize: 10_000, maximumEntrySize: 1000, clock: clock.function)
            let small = try makeEntry(try request("big"), body: "small", at: clock.now)
            #expect(store.writeEntry(small))
            var big = small
            big.body = Data(count: 1001)
            #expect(!store.writeEntry(big))
            #expect(store.readEntry(for: small.key) == nil)
            #expect(entryFiles(directory).isEmpty)
        }
    }

    @Test("the default directory follows XDG_CACHE_HOME and HOME, never /tmp")
    func defaultDirectory() throws {
        let url = try #require(DiskCache.defaultDirectory(name: "chain"))
        #expect(url.lastPathComponent == "chain")
        if let xdg = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            #expect(url.path == URL(fileURLWithPath: xdg).appendingPathComponent("chain").path)
        } else {
            #expect(url.path.hasSuffix("/.cache/chain"))
        }
        #expect(!url.path.hasPrefix("/tmp/"))
    }

    @Test("file names get random lower-case hex of the length asked for", arguments: [1, 16, 17, 32])
    func randomHex(digits: Int) {
        let names = (0..<64).map { _ in DiskCache.randomHex(digits) }
        #expect(names.allSatisfy { $0.utf8.count == digits && $0.utf8.allSatisfy(DiskCache.isLowerHex) })
        guard digits >= 16 else { return }
        // 64 draws of 16 or more random digits: a repeat would mean the randomness is gone, and
        // among 1,024 or more digits every value turns up (not only 0-9, not a stuck nibble).
        #expect(Set(names).count == names.count)
        #expect(Set(names.joined().utf8).count == 16)
    }
}
