import FastJSON
import Foundation

/// Reading the metadata payload straight from FastJSON's parsed value, field by field.
///
/// It accepts and refuses what the synthesized `Decodable` conformance does with `JSONDecoder`
/// (a test compares the two on hostile payloads): every required field present and of its type,
/// `null` or a missing key for an optional one, the first of duplicate keys, unknown keys
/// ignored, numbers under `JSONDecoder`'s rules (`200.0` is an `Int`; `1e400` and `1e-400` are no
/// `Double`). It
/// exists because on a read from disk the `Decodable` path was half the instructions.
extension CacheMetadata {
    /// The metadata in `payload` (the JSON between the frame's header and checksum).
    init(reading payload: Data) throws(CorruptionError) {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: payload)
        } catch {
            throw CorruptionError("metadata does not decode: \(error)")
        }
        guard root.kind == .object else { throw CorruptionError("metadata does not decode: not an object") }

        var key: JSONValue?, url: JSONValue?, statusCode: JSONValue?, httpVersion: JSONValue?
        var headers: JSONValue?, requestSentAt: JSONValue?, storedAt: JSONValue?, etag: JSONValue?
        var lastModified: JSONValue?, expiresAt: JSONValue?, varyValues: JSONValue?, bodyFile: JSONValue?
        var bodyLength: JSONValue?, bodyCRC32: JSONValue?, bodySHA256: JSONValue?
        for (name, value) in root.members {
            // The first of duplicate keys, as the decoder's keyed container keeps.
            func keep(_ slot: inout JSONValue?) { if slot == nil { slot = value } }
            switch name {
            case "key": keep(&key)
            case "url": keep(&url)
            case "statusCode": keep(&statusCode)
            case "httpVersion": keep(&httpVersion)
            case "headers": keep(&headers)
            case "requestSentAt": keep(&requestSentAt)
            case "storedAt": keep(&storedAt)
            case "etag": keep(&etag)
            case "lastModified": keep(&lastModified)
            case "expiresAt": keep(&expiresAt)
            case "varyValues": keep(&varyValues)
            case "bodyFile": keep(&bodyFile)
            case "bodyLength": keep(&bodyLength)
            case "bodyCRC32": keep(&bodyCRC32)
            case "bodySHA256": keep(&bodySHA256)
            default: break
            }
        }

        self.key = try Self.string(key, "key")
        self.url = try Self.string(url, "url")
        self.statusCode = try Self.integer(statusCode, "statusCode")
        self.httpVersion = try Self.string(httpVersion, "httpVersion")
        self.headers = try Self.headerPairs(headers)
        self.requestSentAt = try Self.double(requestSentAt, "requestSentAt")
        self.storedAt = try Self.double(storedAt, "storedAt")
        self.etag = try Self.present(etag).map { value throws(CorruptionError) in try Self.string(value, "etag") }
        self.lastModified = try Self.present(lastModified).map { value throws(CorruptionError) in
            try Self.string(value, "lastModified")
        }
        self.expiresAt = try Self.present(expiresAt).map { value throws(CorruptionError) in try Self.double(value, "expiresAt") }
        self.varyValues = try Self.stringDictionary(varyValues)
        self.bodyFile = try Self.string(bodyFile, "bodyFile")
        self.bodyLength = Int64(try Self.integer(bodyLength, "bodyLength"))
        self.bodyCRC32 = try Self.present(bodyCRC32).map { value throws(CorruptionError) in
            guard let crc = UInt32(exactly: try Self.integer(value, "bodyCRC32")) else {
                throw CorruptionError("metadata does not decode: bodyCRC32 is out of range")
            }
            return crc
        }
        self.bodySHA256 = try Self.present(bodySHA256).map { value throws(CorruptionError) in
            try Self.string(value, "bodySHA256")
        }
    }

    /// An optional field's value: `nil` when the key is missing or its value is `null`.
    private static func present(_ value: JSONValue?) -> JSONValue? {
        guard let value, !value.isNull else { return nil }
        return value
    }

    private static func missing(_ name: String, _ value: JSONValue?) -> CorruptionError {
        CorruptionError("metadata does not decode: \(name) is \(value == nil ? "missing" : "not of its type")")
    }

    private static func string(_ value: JSONValue?, _ name: String) throws(CorruptionError) -> String {
        guard let text = value?.stringValue else { throw missing(name, value) }
        return text
    }

    private static func integer(_ value: JSONValue?, _ name: String) throws(CorruptionError) -> Int {
        guard let number = value?.intValue else { throw missing(name, value) }
        return number
    }

    private static func double(_ value: JSONValue?, _ name: String) throws(CorruptionError) -> Double {
        guard let number = value?.representableDoubleValue else { throw missing(name, value) }
        return number
    }

    private static func headerPairs(_ value: JSONValue?) throws(CorruptionError) -> [[String]] {
        guard let value, value.kind == .array else { throw missing("headers", value) }
        var pairs: [[String]] = []
        pairs.reserveCapacity(value.count)
        for field in value.elements {
            guard field.kind == .array else { throw missing("headers", field) }
            var parts: [String] = []
            parts.reserveCapacity(field.count)
            for part in field.elements { parts.append(try string(part, "headers")) }
            pairs.append(parts)
        }
        return pairs
    }

    private static func stringDictionary(_ value: JSONValue?) throws(CorruptionError) -> [String: String] {
        guard let value, value.kind == .object else { throw missing("varyValues", value) }
        var dictionary: [String: String] = [:]
        dictionary.reserveCapacity(value.count)
        for (name, member) in value.members where dictionary[name] == nil {
            dictionary[name] = try string(member, "varyValues")
        }
        return dictionary
    }
}
