import FastJSON
import Foundation
import Testing

/// Runs Foundation's `JSONDecoder` and `FastJSONDecoder` on the same input
/// with the same settings and expects the same outcome.
enum Equivalence {
    /// Settings applied identically to both decoders.
    struct Settings: Sendable {
        var keys: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
        var dates: JSONDecoder.DateDecodingStrategy = .deferredToDate
        var data: JSONDecoder.DataDecodingStrategy = .base64
        var floats: JSONDecoder.NonConformingFloatDecodingStrategy = .throw
        var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    }

    static func foundationDecoder(_ settings: Settings) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = settings.keys
        decoder.dateDecodingStrategy = settings.dates
        decoder.dataDecodingStrategy = settings.data
        decoder.nonConformingFloatDecodingStrategy = settings.floats
        decoder.userInfo = settings.userInfo
        return decoder
    }

    static func fastDecoder(_ settings: Settings) -> FastJSONDecoder {
        var decoder = FastJSONDecoder()
        decoder.keyDecodingStrategy = settings.keys
        decoder.dateDecodingStrategy = settings.dates
        decoder.dataDecodingStrategy = settings.data
        decoder.nonConformingFloatDecodingStrategy = settings.floats
        decoder.userInfo = settings.userInfo
        return decoder
    }

    /// Both outcomes for `data` decoded as `T`.
    static func outcomes<T: Decodable & Equatable>(
        _ type: T.Type, _ data: Data, _ settings: Settings = Settings()
    ) -> (foundation: DecodingOutcome<T>, fast: DecodingOutcome<T>) {
        let foundation = DecodingOutcome { try foundationDecoder(settings).decode(T.self, from: data) }
        let fast = DecodingOutcome { try fastDecoder(settings).decode(T.self, from: data) }
        return (foundation, fast)
    }

    /// Expects equal outcomes; returns Foundation's, for further checks.
    @discardableResult
    static func expectSame<T: Decodable & Equatable>(
        _ type: T.Type, _ json: String, _ settings: Settings = Settings(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> DecodingOutcome<T> {
        expectSame(type, Data(json.utf8), settings, label: json, sourceLocation: sourceLocation)
    }

    /// Expects equal outcomes for raw bytes; returns Foundation's.
    @discardableResult
    static func expectSame<T: Decodable & Equatable>(
        _ type: T.Type, _ data: Data, _ settings: Settings = Settings(), label: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> DecodingOutcome<T> {
        let (foundation, fast) = outcomes(type, data, settings)
        #expect(
            fast == foundation,
            "\(T.self) from \(label ?? String(decoding: data, as: UTF8.self)):\n  Foundation: \(foundation)\n  FastJSON:   \(fast)",
            sourceLocation: sourceLocation)
        return foundation
    }
}
