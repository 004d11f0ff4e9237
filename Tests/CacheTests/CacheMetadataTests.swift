@testable import Cache
import CurlTransport
import Digest
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

/// The metadata file's JSON: written by the cache's own writer (``MetadataJSON``), read by
/// FastJSON, and the same format `JSONEncoder` wrote before, so a store survives an upgrade
/// (and a downgrade).
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
        return CacheMetadata(entry: entry, bodyFile: entry.key.fileName + "-0123456789abcdef.body",
                             bodySHA256: SHA256.hexDigest(entry.body))
    }

    @Test("every field round-trips, with and without validators", arguments: [true, false])
    func roundTrip(validators: Bool) throws {
        let original = try metadata(validators: validators)
        #expect((original.etag != nil) == validators)
        #expect((original.expiresAt != nil) == validators)
        let decoded = try CacheMetadata.decode(try original.encoded()).get()
        #expect(decoded == original)
    }

    @Test("the payload is what JSONEncoder and JSONDecoder read and write", arguments: [true, false])
    func sameFormatAsFoundation(validators: Bool) throws {
        let original = try metadata(validators: validators)
        let file = try original.encoded()
        let payload = file[CacheMetadata.headerSize..<(file.count - CacheMetadata.digestSize)]
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

    @Test("the bytes on disk are pinned: the writer writes the fixture's files exactly, and reads them back")
    func pinnedBytes() throws {
        let files = try CacheMetadataFixture.files.map { try #require(Data(base64Encoded: $0)) }
        let values = try CacheMetadataFixture.metadata()
        #expect(files.count == values.count)
        for (value, file) in zip(values, files) {
            let written = try value.encoded()
            #expect(written == file, "\(String(decoding: written, as: UTF8.self))")
            #expect(try CacheMetadata.decode(file).get() == value)
        }
    }
}
