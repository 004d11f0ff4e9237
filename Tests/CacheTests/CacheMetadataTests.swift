@testable import Cache
import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

/// The metadata file's JSON: written by the cache's own writer (``MetadataJSON``), read by
/// FastJSON, and the same format `JSONEncoder` wrote before, so a store survives an upgrade.
/// (A version before the CRC-32 framing reads this version's files as damaged: misses, deleted.)
@Suite("Cache metadata encoding")
struct CacheMetadataTests {
    private func metadata(validators: Bool) throws -> CacheMetadata {
        let request = HTTPRequest(url: try #require(URL(string: "https://e.com/a?q=1")))
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "X-Awkward", value: "quote \" backslash \\ tab \t control \u{1} \u{1F} ünïcödé ✓ </script>")
        headers.add(name: "X-Awkward", value: "")
        if validators {
            headers.add(name: "ETag", value: "\"v1\"")
            headers.add(name: "Last-Modified", value: "Tue, 01 Dec 2026 10:00:00 GMT")
            headers.add(name: "Cache-Control", value: "max-age=60")
            headers.add(name: "Vary", value: "Accept-Language")
        }
        var entry = try makeEntry(request, body: "{}", headers: headers, at: Date(timeIntervalSince1970: 1_764_500_000.123_456))
        entry.requestSentAt = Date(timeIntervalSince1970: 1_764_499_999.5)
        if validators { entry.varyValues = ["accept-language": "de, en;q=0.5"] }
        return CacheMetadata(entry: entry, bodyFile: entry.key.fileName + "-0123456789abcdef.body")
    }

    @Test("every field round-trips, with and without validators", arguments: [true, false])
    func roundTrip(validators: Bool) throws {
        let original = try metadata(validators: validators)
        #expect((original.etag != nil) == validators)
        #expect((original.expiresAt != nil) == validators)
        #expect(original.bodyCRC32 != nil && original.bodySHA256 == nil)
        let decoded = try CacheMetadata.decode(try original.encoded()).get()
        #expect(decoded == original)
    }

    @Test("the payload is what JSONEncoder and JSONDecoder read and write", arguments: [true, false])
    func sameFormatAsFoundation(validators: Bool) throws {
        let original = try metadata(validators: validators)
        let file = try original.encoded()
        let payload = file[CacheMetadata.headerSize..<(file.count - CacheMetadata.Framing.crc32.checksumSize)]
        // A store written by this version, read by one that decodes with Foundation.
        #expect(try JSONDecoder().decode(CacheMetadata.self, from: Data(payload)) == original)
        // A store written by an earlier version (JSONEncoder, sorted keys), read by this one.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(try CacheMetadata.decode(CacheMetadata.frame(try encoder.encode(original))).get() == original)
    }

    @Test("a time JSON cannot hold is refused, not written")
    func nonFiniteTime() throws {
        var bad = try metadata(validators: false)
        bad.storedAt = .infinity
        #expect(throws: NetworkError.self) { try bad.encoded() }
    }

    @Test("the bytes on disk are pinned: files of the SHA-256 framing read back, and the writer writes their payload in the CRC-32 framing")
    func pinnedBytes() throws {
        let files = try CacheMetadataFixture.files.map { try #require(Data(base64Encoded: $0)) }
        let values = try CacheMetadataFixture.metadata()
        #expect(files.count == values.count)
        for (value, file) in zip(values, files) {
            #expect(try CacheMetadata.decode(file).get() == value)
            let payload = file[CacheMetadata.headerSize..<(file.count - CacheMetadata.Framing.sha256.checksumSize)]
            #expect(CacheMetadata.frame(Data(payload), framing: .sha256) == file)
            let written = try value.encoded()
            #expect(written == CacheMetadata.frame(Data(payload)), "\(String(decoding: written, as: UTF8.self))")
            #expect(Array(written.prefix(8)) == Array("CHAINC02".utf8))
            var crc = UInt32(0)
            for (index, byte) in written.suffix(4).enumerated() { crc |= UInt32(byte) << UInt32(8 * index) }
            #expect(crc == CacheMetadata.crc32(Data(written.dropLast(4))))
        }
    }

    @Test("the checksum is the standard CRC-32 (zlib's, gzip's): its check value, and the empty input")
    func standardCRC32() {
        #expect(CacheMetadata.crc32(Data("123456789".utf8)) == 0xCBF4_3926)
        #expect(CacheMetadata.crc32(Data()) == 0)
        #expect(CacheMetadata.crc32(Data("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
    }
}
