import Foundation

/// A drop-in replacement for Foundation's `JSONDecoder`, several times faster
/// on Linux, with the same results and the same `DecodingError`s.
///
/// It uses Foundation's own strategy enums, so code configured for
/// `JSONDecoder` switches by changing the type name. It is a `Sendable` value:
/// keep one in a configuration and copy it freely; each `decode` call is
/// independent and may run on any thread.
///
/// Equivalence with `JSONDecoder` covers results, error cases and coding
/// paths; `debugDescription` texts match for decoding errors, and invalid JSON
/// is `dataCorrupted` with an empty path and "The given data was not valid
/// JSON." — with a `JSONParseError` as `underlyingError` where Foundation on
/// Linux gives none. `allKeys` lists keys in document order (Foundation's
/// order is unspecified). Not supported: `allowsJSON5`,
/// `assumesTopLevelDictionary`, `DecodableWithConfiguration`.
public struct FastJSONDecoder: Sendable {
    /// How JSON keys are matched to coding keys. Defaults to `.useDefaultKeys`.
    public var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
    /// How `Date` values are read. Defaults to `.deferredToDate` (seconds since
    /// 2001-01-01, as `Date(from:)` reads them).
    public var dateDecodingStrategy: JSONDecoder.DateDecodingStrategy = .deferredToDate
    /// How `Data` values are read. Defaults to `.base64`.
    public var dataDecodingStrategy: JSONDecoder.DataDecodingStrategy = .base64
    /// Whether strings stand for infinity and NaN. Defaults to `.throw` (they don't).
    public var nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy = .throw
    /// Values handed to `init(from:)` as `decoder.userInfo`. Defaults to empty.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// Nesting limit for arrays and objects; deeper input is rejected as
    /// invalid JSON instead of exhausting the stack. Defaults to 512, Foundation's limit.
    public var maximumDepth: Int = 512

    /// Creates a decoder with the defaults listed on each property.
    public init() {}

    /// Creates a decoder with the strategies and `userInfo` of `decoder`.
    public init(configuredLike decoder: JSONDecoder) {
        keyDecodingStrategy = decoder.keyDecodingStrategy
        dateDecodingStrategy = decoder.dateDecodingStrategy
        dataDecodingStrategy = decoder.dataDecodingStrategy
        nonConformingFloatDecodingStrategy = decoder.nonConformingFloatDecodingStrategy
        userInfo = decoder.userInfo
    }

    /// Decodes a value of `type` from a JSON document, as `JSONDecoder.decode(_:from:)` does.
    ///
    /// - Throws: `DecodingError`, with the case and coding path `JSONDecoder`
    ///   gives for the same input, or any error thrown by `init(from:)`.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try Self.reportingInvalidJSON {
            let document = try JSONDocument.parse(data, maximumDepth: maximumDepth, strict: false)
            let impl = DecoderImpl(document: document, options: options, valueIndex: 0, pathParent: nil, pathKey: .none)
            return try impl.unwrap(T.self, at: 0, parent: nil, key: .none)
        }
    }

    /// Decodes a value of `type` from an already parsed `JSONValue` (a whole
    /// document or a value inside one); coding paths start at `value`.
    ///
    /// - Throws: `DecodingError`, as `decode(_:from:)` does.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try Self.reportingInvalidJSON {
            let impl = DecoderImpl(document: value.document, options: options, valueIndex: value.index, pathParent: nil, pathKey: .none)
            return try impl.unwrap(T.self, at: value.index, parent: nil, key: .none)
        }
    }

    var options: DecodingOptions {
        DecodingOptions(
            keyDecodingStrategy: keyDecodingStrategy,
            dateDecodingStrategy: dateDecodingStrategy,
            dataDecodingStrategy: dataDecodingStrategy,
            nonConformingFloatDecodingStrategy: nonConformingFloatDecodingStrategy,
            userInfo: userInfo)
    }

    /// Reports malformed input the way Foundation does, keeping the details
    /// as the underlying error.
    static func reportingInvalidJSON<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as JSONParseError {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: [], debugDescription: "The given data was not valid JSON.", underlyingError: error))
        }
    }
}
