import Digest
import Foundation
import HTTPCore

/// The metadata file of an entry, and its framing on disk.
///
/// The file is `magic (8 bytes) | payload length (UInt64, little-endian) | payload (JSON as
/// ``MetadataJSON`` describes it) | checksum of everything before it`. The length must equal
/// the file's size minus the framing, and the checksum must match, so a truncated file, a
/// flipped byte or an absurd length field is detected before anything is decoded or allocated
/// from it.
///
/// Two framings are read: `CHAINC02` with a CRC-32 (4 bytes, little-endian), which this version
/// writes, and `CHAINC01` with a SHA-256 (32 bytes), which earlier versions wrote. The body's
/// checksum follows the same rule: `bodyCRC32` in what this version writes, `bodySHA256` in
/// older files. CRC-32 is enough because the checksum guards against accidents, not attackers:
/// the directory is private to its user, and anyone who can write in it can write a matching
/// SHA-256 as easily, since it is not keyed. Against accidents — a torn or truncated write, a
/// flipped bit, a foreign tool — CRC-32 detects every burst of up to 32 bits and any odd number
/// of flipped bits, and misses other damage with a chance of 2^-32, while lengths are checked
/// before it. A SHA-256 of both files would be the largest part of a read from disk.
struct CacheMetadata: Codable, Sendable, Equatable {
    /// How a metadata file is framed: which magic, and which checksum ends it.
    enum Framing: CaseIterable {
        /// `CHAINC02`, CRC-32: what this version writes.
        case crc32
        /// `CHAINC01`, SHA-256: what earlier versions wrote, still read.
        case sha256

        var magic: [UInt8] { self == .crc32 ? Array("CHAINC02".utf8) : Array("CHAINC01".utf8) }
        var checksumSize: Int { self == .crc32 ? 4 : 32 }

        func checksum(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
            switch self {
            case .crc32: withUnsafeBytes(of: CacheMetadata.crc32(bytes).littleEndian) { Array($0) }
            case .sha256: SHA256.hash(bytes)
            }
        }
    }

    static let headerSize = 16
    /// The smallest checksum of a framing.
    static let minimumChecksumSize = 4
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
    /// The body's CRC-32, in what this version writes.
    var bodyCRC32: UInt32?
    /// The body's SHA-256 (lower-case hex), in what earlier versions wrote.
    var bodySHA256: String?

    /// The metadata this version writes: the body checked by its CRC-32.
    init(entry: CacheEntry, bodyFile: String) {
        self.init(entry: entry, bodyFile: bodyFile, bodySHA256: nil)
        bodyCRC32 = CacheMetadata.crc32(entry.body)
    }

    /// The metadata earlier versions wrote (kept to make such files in tests).
    init(entry: CacheEntry, bodyFile: String, bodySHA256: String?) {
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
        json.member("bodyCRC32", bodyCRC32)
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

    /// Frames a payload (also used by tests to forge well-framed but invalid metadata, or files
    /// of the earlier framing).
    static func frame(_ payload: Data, declaredLength: UInt64? = nil, framing: Framing = .crc32) -> Data {
        var bytes = framing.magic
        bytes.reserveCapacity(headerSize + payload.count + framing.checksumSize)
        let length = declaredLength ?? UInt64(payload.count)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: length >> UInt64(shift))) }
        bytes.append(contentsOf: payload)
        let checksum = bytes.withUnsafeBytes { framing.checksum($0) }
        bytes.append(contentsOf: checksum)
        return Data(bytes)
    }

    /// Unframes and decodes a metadata file; the error text says what was wrong.
    static func decode(_ data: Data) -> Result<CacheMetadata, CorruptionError> {
        guard data.count >= headerSize + minimumChecksumSize else {
            return .failure(CorruptionError("metadata is truncated (\(data.count) bytes)"))
        }
        let unframed: Result<Range<Int>, CorruptionError> = data.withUnsafeBytes { file in
            guard let framing = Framing.allCases.first(where: { file.prefix(8).elementsEqual($0.magic) }) else {
                return .failure(CorruptionError("metadata has no valid header"))
            }
            guard file.count >= headerSize + framing.checksumSize else {
                return .failure(CorruptionError("metadata is truncated (\(file.count) bytes)"))
            }
            var length: UInt64 = 0
            for index in 0..<8 { length |= UInt64(file[8 + index]) << UInt64(8 * index) }
            let checksumStart = file.count - framing.checksumSize
            let available = UInt64(checksumStart - headerSize)
            guard length == available else {
                return .failure(CorruptionError("metadata length field says \(length) bytes, the file holds \(available)"))
            }
            let expected = framing.checksum(UnsafeRawBufferPointer(rebasing: file[..<checksumStart]))
            guard file[checksumStart...].elementsEqual(expected) else {
                return .failure(CorruptionError("metadata checksum mismatch"))
            }
            return .success(headerSize..<checksumStart)
        }
        let payload: Range<Int>
        switch unframed {
        case .failure(let error): return .failure(error)
        case .success(let range): payload = range
        }
        let json = Data(data[(data.startIndex + payload.lowerBound)..<(data.startIndex + payload.upperBound)])
        do throws(CorruptionError) {
            return .success(try CacheMetadata(reading: json))
        } catch {
            return .failure(error)
        }
    }

    /// The CRC-32 (the one of zlib, gzip and PNG: reflected polynomial 0xEDB88320) of `bytes`,
    /// eight bytes a step ("slicing-by-8"). In Swift rather than zlib's so that the module's
    /// users need no zlib module map to import it.
    static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return 0 }
        var crc = UInt32.max
        var offset = 0
        crcTables.withUnsafeBufferPointer { table in
            while bytes.count - offset >= 8 {
                let low = base.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian ^ crc
                let high = base.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self).littleEndian
                crc = table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ table[256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
                offset += 8
            }
            while offset < bytes.count {
                crc = table[Int((crc ^ UInt32(bytes[offset])) & 0xFF)] ^ (crc >> 8)
                offset += 1
            }
        }
        return ~crc
    }

    /// Eight tables of 256 entries: the first is the byte-at-a-time table, table `k` advances
    /// an entry of table `k - 1` by one more zero byte.
    private static let crcTables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
            tables[index] = value
        }
        for slice in 1..<8 {
            for index in 0..<256 {
                let previous = tables[(slice - 1) * 256 + index]
                tables[slice * 256 + index] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    /// The CRC-32 of `data`.
    static func crc32(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { crc32($0) }
    }

    /// Whether `body` is the body this metadata describes: its length and checksum (CRC-32 for
    /// what this version writes, SHA-256 for older files).
    func describesBody(_ body: Data) -> Bool {
        guard Int64(body.count) == bodyLength else { return false }
        if let bodyCRC32 { return CacheMetadata.crc32(body) == bodyCRC32 }
        if let bodySHA256 { return SHA256.hexDigest(body) == bodySHA256 }
        return false
    }

    /// Checks the fields a reader relies on; a well-framed file written by a buggy or
    /// hostile writer must still not lead to a huge allocation or a path outside the store.
    func validationProblem(fileName: String, maximumBodyLength: Int64) -> String? {
        guard (100...599).contains(statusCode) else { return "status \(statusCode) is not an HTTP status" }
        guard bodyLength >= 0, bodyLength <= maximumBodyLength else {
            return "body length \(bodyLength) is outside 0...\(maximumBodyLength)"
        }
        guard DiskCache.isBodyFileName(bodyFile, of: fileName) else { return "body file name \"\(bodyFile)\" is not valid" }
        if let bodySHA256 {
            guard bodySHA256.utf8.count == 64, bodySHA256.utf8.allSatisfy(DiskCache.isLowerHex) else { return "body checksum is malformed" }
        } else if bodyCRC32 == nil {
            return "body checksum is missing"
        }
        guard headers.allSatisfy({ $0.count == 2 }) else { return "a header is malformed" }
        guard URL(string: url) != nil else { return "the URL is malformed" }
        guard requestSentAt.isFinite, storedAt.isFinite else { return "a time is not finite" }
        return nil
    }

    /// The entry, given its verified body and the key it was read for (equal to ``key``, checked
    /// by the caller; passing it saves hashing the key text again).
    func entry(body: Data, key readKey: CacheKey) -> CacheEntry? {
        guard readKey.rawValue == key, let url = URL(string: url) else { return nil }
        return CacheEntry(key: readKey, url: url, statusCode: statusCode,
                          headers: HTTPHeaders(headers.map { HTTPHeaders.Field(name: $0[0], value: $0[1]) }),
                          httpVersion: HTTPVersion(rawValue: httpVersion) ?? .unknown, body: body,
                          requestSentAt: Date(timeIntervalSince1970: requestSentAt),
                          storedAt: Date(timeIntervalSince1970: storedAt), varyValues: varyValues)
    }
}
