@testable import Cache
import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Synchronization
import Testing

/// Damaged entries are misses: deleted, reported, never a crash or a huge allocation.
@Suite("Disk store: damaged entries")
struct DiskCacheCorruptionTests {
    let clock = TestClock()

    enum Damage: String, CaseIterable {
        case truncatedMetadata, truncatedBody, flippedMetadataByte, flippedBodyByte, hugeLengthField, hugeBodyLength,
             emptyMetadata, missingBody, garbageMetadata, longerBody
    }

    @Test("damage is a miss, the entry is deleted and reported", arguments: Damage.allCases)
    func damaged(_ damage: Damage) async throws {
        try await withTemporaryDirectory { directory in
            let events = Recorder<CacheEvent>()
            let store = DiskCache(directory: directory, clock: clock.function, reporter: { events.append($0) })
            let request = HTTPRequest(url: try #require(URL(string: "https://e.com/\(damage.rawValue)")))
            let entry = try makeEntry(request, body: String(repeating: "body ", count: 200), at: clock.now)
            #expect(store.writeEntry(entry))
            let metadataPath = directory.path + "/" + entry.key.fileName + ".meta"
            let bodyName = try #require(entryFiles(directory).first { $0.hasSuffix(".body") })
            let bodyPath = directory.path + "/" + bodyName
            var metadata = try Data(contentsOf: URL(fileURLWithPath: metadataPath))
            var body = try Data(contentsOf: URL(fileURLWithPath: bodyPath))

            switch damage {
            case .truncatedMetadata: metadata = metadata.prefix(metadata.count / 2)
            case .truncatedBody: body = body.prefix(body.count - 1)
            case .flippedMetadataByte: metadata[metadata.count / 2] ^= 0x01
            case .flippedBodyByte: body[body.count / 2] ^= 0x80
            case .hugeLengthField:
                // The frame's length field set to 2^62, the rest intact.
                let value: UInt64 = 1 << 62
                for index in 0..<8 { metadata[8 + index] = UInt8(truncatingIfNeeded: value >> UInt64(8 * index)) }
            case .hugeBodyLength:
                // A well-framed, checksummed metadata file that claims a 2^62-byte body.
                var decoded = try #require(try? CacheMetadata.decode(metadata).get())
                decoded.bodyLength = 1 << 62
                let encoder = JSONEncoder()
                metadata = CacheMetadata.frame(try encoder.encode(decoded))
            case .emptyMetadata: metadata = Data()
            case .missingBody: try FileManager.default.removeItem(atPath: bodyPath)
            case .garbageMetadata: metadata = Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            case .longerBody: body.append(contentsOf: [1, 2, 3])
            }
            try metadata.write(to: URL(fileURLWithPath: metadataPath))
            if damage != .missingBody { try body.write(to: URL(fileURLWithPath: bodyPath)) }

            #expect(store.readEntry(for: entry.key) == nil)
            #expect(entryFiles(directory).isEmpty, "left: \(entryFiles(directory))")
            let reported = await events.wait(for: 1)
            #expect(reported.contains { if case .corruptedEntry = $0 { true } else { false } }, "\(reported)")
            #expect(store.currentEntryCount() == 0)
            // The key works again afterwards.
            #expect(store.writeEntry(entry))
            #expect(store.readEntry(for: entry.key) == entry)
        }
    }

    @Test("damage found at open is removed then too")
    func damagedAtOpen() async throws {
        try await withTemporaryDirectory { directory in
            let store = DiskCache(directory: directory, clock: clock.function)
            let good = try makeEntry(HTTPRequest(url: try #require(URL(string: "https://e.com/good"))), at: clock.now)
            let bad = try makeEntry(HTTPRequest(url: try #require(URL(string: "https://e.com/bad"))), at: clock.now)
            #expect(store.writeEntry(good))
            #expect(store.writeEntry(bad))
            store.closeNow()
            let metadataPath = directory.path + "/" + bad.key.fileName + ".meta"
            var metadata = try Data(contentsOf: URL(fileURLWithPath: metadataPath))
            metadata[20] ^= 0xFF
            try metadata.write(to: URL(fileURLWithPath: metadataPath))

            let events = Recorder<CacheEvent>()
            let reopened = DiskCache(directory: directory, clock: clock.function, reporter: { events.append($0) })
            #expect(reopened.currentEntryCount() == 1)
            #expect(entryFiles(directory).count == 2)
            #expect(reopened.readEntry(for: good.key) == good)
            let reported = await events.wait(for: 2)
            #expect(reported.contains(.corruptedEntry(file: bad.key.fileName + ".meta", reason: "metadata checksum mismatch")))
            // The body the damaged metadata referenced is an orphan now, and is removed too.
            #expect(reported.contains(.removedLeftovers(files: 1)))
        }
    }

    @Test("a hash collision (another key in the file) is a miss that keeps the other entry")
    func collision() async throws {
        try await withTemporaryDirectory { directory in
            let events = Recorder<CacheEvent>()
            let store = DiskCache(directory: directory, clock: clock.function, reporter: { events.append($0) })
            let entry = try makeEntry(HTTPRequest(url: try #require(URL(string: "https://e.com/c"))), at: clock.now)
            #expect(store.writeEntry(entry))
            // Pretend another key hashes to the same file name by rewriting the stored key.
            let metadataPath = directory.path + "/" + entry.key.fileName + ".meta"
            var decoded = try #require(try? CacheMetadata.decode(try Data(contentsOf: URL(fileURLWithPath: metadataPath))).get())
            decoded.key = "chain-cache-key/1\nGET\nhttps://other.example/\nbody:none\ncredentials:none"
            try CacheMetadata.frame(try JSONEncoder().encode(decoded)).write(to: URL(fileURLWithPath: metadataPath))
            #expect(store.readEntry(for: entry.key) == nil)
            #expect(entryFiles(directory).count == 2)
            #expect(events.values.isEmpty)
        }
    }
}
