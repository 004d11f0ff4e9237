@testable import Cache
import Foundation
import HTTPCore
import Testing

/// The metadata reader (`CacheMetadata(reading:)`, field by field from FastJSON's value) against
/// the synthesized `Decodable` conformance read by Foundation's `JSONDecoder`: on every payload
/// below, valid or not, both give the same metadata or both refuse it.
@Suite("Cache metadata reader agrees with JSONDecoder")
struct CacheMetadataReadingTests {
    private static let required = ["key", "url", "statusCode", "httpVersion", "headers", "requestSentAt",
                                   "storedAt", "varyValues", "bodyFile", "bodyLength"]
    private static let optional = ["etag", "lastModified", "expiresAt", "bodyCRC32", "bodySHA256"]

    /// A payload with every field, optional ones included.
    private func payload() throws -> [String: Any] {
        let request = HTTPRequest(url: try #require(URL(string: "https://e.com/a?q=1")))
        var headers = HTTPHeaders()
        headers.add(name: "ETag", value: "\"v1\"")
        headers.add(name: "Last-Modified", value: "Tue, 01 Dec 2026 10:00:00 GMT")
        headers.add(name: "Cache-Control", value: "max-age=60")
        var entry = try makeEntry(request, body: "{}", headers: headers, at: Date(timeIntervalSince1970: 1_764_500_000.25))
        entry.varyValues = ["accept-language": "de"]
        var metadata = CacheMetadata(entry: entry, bodyFile: entry.key.fileName + "-0123456789abcdef.body")
        metadata.bodySHA256 = String(repeating: "ab", count: 32)
        let file = try metadata.encoded()
        let json = file[CacheMetadata.headerSize..<(file.count - CacheMetadata.Framing.crc32.checksumSize)]
        return try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
    }

    private func text(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    /// Both readers on `payload`: equal results, `nil` meaning refused.
    private func expectAgreement(_ payload: Data, _ comment: Comment? = nil,
                                 sourceLocation: SourceLocation = #_sourceLocation) -> CacheMetadata? {
        let foundation = try? JSONDecoder().decode(CacheMetadata.self, from: payload)
        let reader = try? CacheMetadata(reading: payload)
        #expect(foundation == reader, comment ?? Comment(rawValue: String(decoding: payload, as: UTF8.self)),
                sourceLocation: sourceLocation)
        return reader
    }

    @Test("the complete payload, and one without each optional field or with it null")
    func optionalFields() throws {
        #expect(expectAgreement(try text(try payload())) != nil)
        for name in Self.optional {
            var without = try payload()
            without[name] = nil
            #expect(expectAgreement(try text(without), "without \(name)") != nil)
            var null = try payload()
            null[name] = NSNull()
            #expect(expectAgreement(try text(null), "\(name): null") != nil)
        }
    }

    @Test("a missing or null required field is refused by both")
    func requiredFields() throws {
        for name in Self.required {
            var without = try payload()
            without[name] = nil
            #expect(expectAgreement(try text(without), "without \(name)") == nil)
            var null = try payload()
            null[name] = NSNull()
            #expect(expectAgreement(try text(null), "\(name): null") == nil)
        }
    }

    @Test("a value of the wrong type is refused by both, in every field")
    func wrongTypes() throws {
        let wrong: [Any] = ["text", 7, 7.5, true, [1], ["a": "b"], [["a", 1]]]
        for name in Self.required + Self.optional {
            for value in wrong {
                var changed = try payload()
                changed[name] = value
                _ = expectAgreement(try text(changed), "\(name): \(value)")
            }
        }
    }

    @Test("numbers at the edges: integral doubles, fractions, out of range, beyond Double")
    func numbers() throws {
        let cases: [(field: String, literal: String)] = [
            ("statusCode", "200.0"), ("statusCode", "2e2"), ("statusCode", "200.5"), ("statusCode", "-0"),
            ("statusCode", "1e30"), ("bodyLength", "9223372036854775807"), ("bodyLength", "9223372036854775808"),
            ("bodyCRC32", "4294967295"), ("bodyCRC32", "4294967296"), ("bodyCRC32", "-1"), ("bodyCRC32", "0"),
            ("requestSentAt", "1e400"), ("requestSentAt", "-1e400"), ("storedAt", "1e-400"), ("expiresAt", "1e400"),
            ("expiresAt", "0.1"), ("storedAt", "12"),
        ]
        for (field, literal) in cases {
            var changed = try payload()
            changed[field] = 0
            let placeholder = "\"\(field)\":0"
            let json = String(decoding: try text(changed), as: UTF8.self)
            #expect(json.contains(placeholder))
            _ = expectAgreement(Data(json.replacingOccurrences(of: placeholder, with: "\"\(field)\":\(literal)").utf8),
                                "\(field): \(literal)")
        }
    }

    @Test("duplicate keys (the first wins), unknown keys, and containers of the wrong shape")
    func shapes() throws {
        let complete = String(decoding: try text(try payload()), as: UTF8.self)
        let body = String(complete.dropFirst().dropLast())
        let variants: [String] = [
            "{\"key\":\"first\"," + body + "}",
            "{" + body + ",\"key\":\"last\"}",
            "{" + body + ",\"statusCode\":\"not a number\"}",
            "{\"statusCode\":\"not a number\"," + body + "}",
            "{" + body + ",\"unknown\":{\"deep\":[1,2,{}]}}",
            complete.replacingOccurrences(of: "\"headers\":[", with: "\"headers\":[[],[\"one\"],[\"a\",\"b\",\"c\"],"),
            complete.replacingOccurrences(of: "\"headers\":[", with: "\"headers\":[[\"a\",null],"),
            complete.replacingOccurrences(of: "\"headers\":[", with: "\"headers\":[\"flat\","),
            complete.replacingOccurrences(of: "\"varyValues\":{", with: "\"varyValues\":{\"n\":1,"),
            complete.replacingOccurrences(of: "\"varyValues\":{", with: "\"varyValues\":{\"n\":null,"),
            "[" + complete + "]", "null", "\"text\"", "{}", "",
        ]
        for variant in variants { _ = expectAgreement(Data(variant.utf8)) }
        #expect(expectAgreement(Data(("{\"key\":\"first\"," + body + "}").utf8))?.key == "first")
    }
}
