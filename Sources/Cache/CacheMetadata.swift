import Digest
import FastJSON
import Foundation
import HTTPCore

/// The metadata file of an entry, and its framing on disk.
///
/// The file is `magic (8 bytes) | payload length (UInt64, little-endian) | payload (JSON as
/// ``MetadataJSON`` describes it) | SHA-256 of everything before it (32 bytes)`. The length
/// must equal the file's size minus the framing, and the digest must match, so a truncated
/// file, a flipped byte or an absurd length field is detected before anything is decoded or
/// allocated from it.
struct CacheMetadata: Codable, Sendable, Equatable {
    static let magic = Array("CHAINC01".utf8)
    static let headerSize = 16
    static let digestSize = 32
    /// Metadata is headers and a few numbers; anything larger is not ours.
    static let maximumFileSize: Int64 = 1 << 20

    var key: String
    var url: String
    var statusCode: Int
    var httpVersion: String
    var headers: [[String]]
    var requestSentAt: Double
    var storedAt: Double
    var etag: String?
    var lastModified: String?
    var expiresAt: Double?
    var varyValues: [String: String]
    var bodyFile: String
    var bodyLength: Int64
    var bodySHA256: String

    init(entry: CacheEntry, bodyFile: String, bodySHA256: String) {
        key = entry.key.rawValue
        url = entry.url.absoluteString
        statusCode = entry.statusCode
        httpVersion = entry.httpVersion.rawValue
        headers = entry.headers.fields.map { [$0.name, $0.value] }
        requestSentAt = entry.requestSentAt.timeIntervalSince1970
        storedAt = entry.storedAt.timeIntervalSince1970
        etag = entry.etag
        lastModified = entry.lastModified
        expiresAt = entry.expiresAt?.timeIntervalSince1970
        varyValues = entry.varyValues
        self.bodyFile = bodyFile
        bodyLength = Int64(entry.body.count)
        self.bodySHA256 = bodySHA256
    }

    /// The framed file contents, in the cache's own JSON (``MetadataJSON``): what `JSONEncoder`
    /// with sorted keys writes for this type, `nil` validators left out, at a fraction of its
    /// cost. Throws for a non-finite time.
    func encoded() throws(NetworkError) -> Data {
        var json = MetadataJSON()
        json.openObject()
        // In the order of the names, as the format requires.
        json.member("bodyFile", bodyFile)
        json.member("bodyLength", bodyLength)
        json.member("bodySHA256", bodySHA256)
        json.member("etag", etag)
        try json.member("expiresAt", expiresAt)
        json.name("headers")
        json.openArray()
        for field in headers {
            json.openArray()
            for part in field { json.string(part) }
            json.closeArray()
        }
        json.closeArray()
        json.member("httpVersion", httpVersion)
        json.member("key", key)
        json.member("lastModified", lastModified)
        try json.member("requestSentAt", requestSentAt)
        json.member("statusCode", Int64(statusCode))
        try json.member("storedAt", storedAt)
        json.member("url", url)
        json.name("varyValues")
        json.stringObject(varyValues)
        json.closeObject()
        return CacheMetadata.frame(Data(json.bytes))
    }

    /// Frames a payload (also used by tests to forge well-framed but invalid metadata).
    static func frame(_ payload: Data, declaredLength: UInt64? = nil) -> Data {
        var bytes = magic
        let length = declaredLength ?? UInt64(payload.count)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: length >> UInt64(shift))) }
        bytes.append(contentsOf: payload)
        bytes.append(contentsOf: SHA256.hash(bytes))
        return Data(bytes)
    }

    /// Unframes and decodes a metadata file; the error text says what was wrong.
    static func decode(_ data: Data) -> Result<CacheMetadata, CorruptionError> {
        guard data.count >= headerSize + digestSize else { return .failure(CorruptionError("metadata is truncated (\(data.count) bytes)")) }
        let bytes = [UInt8](data)
        guard Array(bytes[0..<8]) == magic else { return .failure(CorruptionError("metadata has no valid header")) }
        var length: UInt64 = 0
        for index in 0..<8 { length |= UInt64(bytes[8 + index]) << UInt64(8 * index) }
        let available = UInt64(bytes.count - headerSize - digestSize)
        guard length == available else {
            return .failure(CorruptionError("metadata length field says \(length) bytes, the file holds \(available)"))
        }
        let digestStart = bytes.count - digestSize
        guard SHA256.hash(bytes[0..<digestStart]) == Array(bytes[digestStart...]) else {
            return .failure(CorruptionError("metadata checksum mismatch"))
        }
        do {
            // FastJSON reads the same JSON as Foundation's decoder at a quarter of the cost, and
            // this decode is most of a cache hit's work.
            let metadata = try FastJSONDecoder().decode(CacheMetadata.self, from: Data(bytes[headerSize..<digestStart]))
            return .success(metadata)
        } catch {
            return .failure(CorruptionError("metadata does not decode: \(error)"))
        }
    }

    /// Checks the fields a reader relies on; a well-framed file written by a buggy or
    /// hostile writer must still not lead to a huge allocation or a path outside the store.
    func validationProblem(fileName: String, maximumBodyLength: Int64) -> String? {
        guard (100...599).contains(statusCode) else { return "status \(statusCode) is not an HTTP status" }
        guard bodyLength >= 0, bodyLength <= maximumBodyLength else {
            return "body length \(bodyLength) is outside 0...\(maximumBodyLength)"
        }
        guard DiskCache.isBodyFileName(bodyFile, of: fileName) else { return "body file name \"\(bodyFile)\" is not valid" }
        guard bodySHA256.count == 64, bodySHA256.utf8.allSatisfy(DiskCache.isLowerHex) else { return "body checksum is malformed" }
        guard headers.allSatisfy({ $0.count == 2 }) else { return "a header is malformed" }
        guard URL(string: url) != nil else { return "the URL is malformed" }
        guard requestSentAt.isFinite, storedAt.isFinite else { return "a time is not finite" }
        return nil
    }

    /// The entry, given its verified body.
    func entry(body: Data) -> CacheEntry? {
        guard let url = URL(string: url) else { return nil }
        return CacheEntry(key: CacheKey(rawValue: key), url: url, statusCode: statusCode,
                          headers: HTTPHeaders(headers.map { HTTPHeaders.Field(name: $0[0], value: $0[1]) }),
                          httpVersion: HTTPVersion(rawValue: httpVersion) ?? .unknown, body: body,
                          requestSentAt: Date(timeIntervalSince1970: requestSentAt),
                          storedAt: Date(timeIntervalSince1970: storedAt), varyValues: varyValues)
    }
}
