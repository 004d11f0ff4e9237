@testable import Cache
import Digest
import Foundation
import HTTPCore
import Testing

/// The two metadata framings: entries written with the SHA-256 framing and body checksum of
/// earlier versions still read (and refresh), and the CRC-32 this version writes still finds
/// damage.
@Suite("Disk store: metadata framings")
struct DiskCacheFramingTests {
    let clock = TestClock()

    /// Rewrites the stored metadata of `entry` as an earlier version wrote it: `CHAINC01`, the
    /// body's SHA-256, JSONEncoder with sorted keys.
    private func rewriteInEarlierFraming(_ entry: CacheEntry, in directory: URL) throws {
        let path = directory.path + "/" + entry.key.fileName + ".meta"
        var metadata = try CacheMetadata.decode(try Data(contentsOf: URL(fileURLWithPath: path))).get()
        #expect(metadata.bodyCRC32 == CacheMetadata.crc32(entry.body))
        metadata.bodyCRC32 = nil
        metadata.bodySHA256 = SHA256.hexDigest(entry.body)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let file = CacheMetadata.frame(try encoder.encode(metadata), framing: .sha256)
        #expect(Array(file.prefix(8)) == Array("CHAINC01".utf8))
        try file.write(to: URL(fileURLWithPath: path))
    }

    @Test("an entry in the earlier framing reads back, at open and on a read from disk")
    func earlierFramingReads() async throws {
        try await withTemporaryDirectory { directory in
            let store = DiskCache(directory: directory, memoryBudget: 0, clock: clock.function)
            let entry = try makeEntry(HTTPRequest(url: try #require(URL(string: "https://e.com/old"))),
                                      body: "ünïcödé body ✓", at: clock.now)
            #expect(store.writeEntry(entry))
            store.closeNow()
            try rewriteInEarlierFraming(entry, in: directory)

            let events = Recorder<CacheEvent>()
            let reopened = DiskCache(directory: directory, memoryBudget: 0, clock: clock.function, reporter: { events.append($0) })
            #expect(reopened.currentEntryCount() == 1)
            #expect(reopened.readEntry(for: entry.key) == entry)
            #expect(reopened.readEntry(for: entry.key) == entry)
            #expect(events.values.isEmpty, "\(events.values)")
        }
    }

    @Test("a damaged body of an earlier-framing entry is a reported miss (its SHA-256 is checked)")
    func earlierFramingDamage() async throws {
        try await withTemporaryDirectory { directory in
            let events = Recorder<CacheEvent>()
            let store = DiskCache(directory: directory, memoryBudget: 0, clock: clock.function, reporter: { events.append($0) })
            let entry = try makeEntry(HTTPRequest(url: try #require(URL(string: "https://e.com/old-damaged"))),
                                      body: String(repeating: "body ", count: 50), at: clock.now)
            #expect(store.writeEntry(entry))
            try rewriteInEarlierFraming(entry, in: directory)
            let bodyName = try #require(entryFiles(directory).first { $0.hasSuffix(".body") })
            let bodyURL = directory.appendingPathComponent(bodyName)
            var body = try Data(contentsOf: bodyURL)
            body[7] ^= 0x04
            try body.write(to: bodyURL)

            #expect(store.readEntry(for: entry.key) == nil)
            let reported = await events.wait(for: 1)
            #expect(reported.contains(.corruptedEntry(file: entry.key.fileName + ".meta", reason: "body checksum mismatch")))
            #expect(entryFiles(directory).isEmpty, "left: \(entryFiles(directory))")
        }
    }

    @Test("a 304 refresh of an earlier-framing entry keeps its body file and rewrites the metadata in the CRC-32 framing")
    func earlierFramingRefresh() async throws {
        try await withTemporaryDirectory { directory in
            let store = DiskCache(directory: directory, memoryBudget: 0, clock: clock.function)
            let entry = try makeEntry(HTTPRequest(url: try #require(URL(string: "https://e.com/refresh"))), at: clock.now)
            #expect(store.writeEntry(entry))
            try rewriteInEarlierFraming(entry, in: directory)
            let bodyName = try #require(entryFiles(directory).first { $0.hasSuffix(".body") })

            clock.advance(10)
            var refreshed = entry
            refreshed.storedAt = clock.now
            refreshed.headers.add(name: "ETag", value: "\"v2\"")
            #expect(store.refreshEntry(refreshed))
            #expect(entryFiles(directory).contains(bodyName))
            let path = directory.path + "/" + entry.key.fileName + ".meta"
            let file = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(Array(file.prefix(8)) == Array("CHAINC02".utf8))
            let metadata = try CacheMetadata.decode(file).get()
            #expect(metadata.bodySHA256 == nil && metadata.bodyCRC32 == CacheMetadata.crc32(entry.body))
            #expect(store.readEntry(for: entry.key) == refreshed)
        }
    }

    @Test("a refresh whose body is not the one on disk writes the whole entry")
    func refreshWithOtherBody() async throws {
        try await withTemporaryDirectory { directory in
            let store = DiskCache(directory: directory, memoryBudget: 0, clock: clock.function)
            let entry = try makeEntry(HTTPRequest(url: try #require(URL(string: "https://e.com/other"))), body: "first", at: clock.now)
            #expect(store.writeEntry(entry))
            let firstBody = try #require(entryFiles(directory).first { $0.hasSuffix(".body") })
            var other = entry
            other.body = Data("fist!".utf8)  // the same length, another checksum
            #expect(store.refreshEntry(other))
            #expect(!entryFiles(directory).contains(firstBody))
            #expect(store.readEntry(for: entry.key) == other)
        }
    }

    @Test("every single flipped bit of a stored body, and of its metadata file, is found", arguments: [false, true])
    func everyFlippedBit(inMetadata: Bool) throws {
        let entry = try makeEntry(HTTPRequest(url: try #require(URL(string: "https://e.com/bits"))),
                                  body: "{\"id\":1,\"name\":\"x\"}", at: clock.now)
        let metadata = CacheMetadata(entry: entry, bodyFile: entry.key.fileName + "-0123456789abcdef.body")
        #expect(metadata.describesBody(entry.body))
        let file = try metadata.encoded()
        #expect(try CacheMetadata.decode(file).get() == metadata)
        let original = inMetadata ? file : entry.body
        for index in original.indices {
            for bit in 0..<8 {
                var damaged = original
                damaged[index] ^= UInt8(1) << UInt8(bit)
                if inMetadata {
                    if case .success = CacheMetadata.decode(damaged) { Issue.record("bit \(bit) of byte \(index) not found") }
                } else {
                    #expect(!metadata.describesBody(damaged), "bit \(bit) of byte \(index) not found")
                }
            }
        }
    }

    @Test("metadata with no body checksum, or a malformed SHA-256, is refused")
    func missingBodyChecksum() throws {
        let entry = try makeEntry(HTTPRequest(url: try #require(URL(string: "https://e.com/none"))), at: clock.now)
        var metadata = CacheMetadata(entry: entry, bodyFile: entry.key.fileName + "-0123456789abcdef.body")
        #expect(metadata.validationProblem(fileName: entry.key.fileName, maximumBodyLength: 1 << 20) == nil)
        metadata.bodyCRC32 = nil
        #expect(metadata.validationProblem(fileName: entry.key.fileName, maximumBodyLength: 1 << 20) == "body checksum is missing")
        #expect(!metadata.describesBody(entry.body))
        metadata.bodySHA256 = "not hex"
        #expect(metadata.validationProblem(fileName: entry.key.fileName, maximumBodyLength: 1 << 20) == "body checksum is malformed")
        metadata.bodySHA256 = SHA256.hexDigest(entry.body)
        #expect(metadata.validationProblem(fileName: entry.key.fileName, maximumBodyLength: 1 << 20) == nil)
        #expect(metadata.describesBody(entry.body))
    }

    @Test("a file with an unknown magic, or cut inside either checksum, is refused", arguments: [
        "CHAINC03", "CHAINC01", "CHAINC02",
    ])
    func unknownOrShortFraming(magic: String) throws {
        let entry = try makeEntry(HTTPRequest(url: try #require(URL(string: "https://e.com/magic"))), at: clock.now)
        let file = try CacheMetadata(entry: entry, bodyFile: entry.key.fileName + "-0123456789abcdef.body").encoded()
        var relabelled = Data(magic.utf8) + file.dropFirst(8)
        if magic == "CHAINC02" {
            #expect(try CacheMetadata.decode(relabelled).get().key == entry.key.rawValue)
            relabelled = relabelled.dropLast(2)
        }
        guard case .failure(let error) = CacheMetadata.decode(relabelled) else {
            Issue.record("\(magic) was accepted")
            return
        }
        #expect(!error.reason.isEmpty)
        // A bare header with a short trailer is truncated whatever the magic says.
        #expect((try? CacheMetadata.decode(Data(magic.utf8) + Data(count: 10)).get()) == nil)
    }
}
