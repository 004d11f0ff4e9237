import FastJSON
import Foundation
import HTTPCore

extension JSONDecoding {
    /// The envelope's code and message at `codePath` and `messagePath`, in canonical form.
    ///
    /// With `.fast` the two paths are read from a `JSONValue` — one scan, no `Decodable`
    /// machinery — whenever that gives exactly what decoding ``EnvelopeHeader`` would. Anything
    /// else (converted keys, a missing or odd code, input that is not plain UTF-8 JSON) takes
    /// the decoder, so values and errors stay those of ``EnvelopeHeader`` with either backend.
    ///
    /// - Parameter scanned: the body already parsed by ``scannedRoot(of:)`` (`nil` when it
    ///   could not be, or with `.foundation`), so that several checks parse the body once.
    func envelopeHeader(of data: Data, scanned: JSONValue?, codePath: [String], messagePath: [String]) throws -> EnvelopeHeader {
        if let scanned, let header = Self.scannedHeader(in: scanned, codePath, messagePath) {
            return header
        }
        return try KeyPathContext.$codePath.withValue(codePath) {
            try KeyPathContext.$messagePath.withValue(messagePath) {
                try decodeDocument(EnvelopeHeader.self, from: data)
            }
        }
    }

    /// The body as a `JSONValue` when reading code paths from it gives exactly what the
    /// decoder would, else `nil`.
    func scannedRoot(of data: Data) -> JSONValue? {
        // Converted keys and strings standing for infinity/NaN change what the decoder reads.
        guard case .fast(let decoder) = base, Self.fastDecoderMatchesKeysAsWritten(decoder),
              case .throw = decoder.nonConformingFloatDecodingStrategy, Self.startsAsPlainUTF8(data) else { return nil }
        return try? JSONValue(parsing: data, maximumDepth: decoder.maximumDepth)
    }

    /// The header read from a parsed body, or `nil` when only the decoder can answer exactly.
    private static func scannedHeader(in root: JSONValue, _ codePath: [String], _ messagePath: [String]) -> EnvelopeHeader? {
        guard !codePath.isEmpty, let code = member(of: root, at: codePath).flatMap(canonicalScalar) else { return nil }
        // As in `EnvelopeHeader`: a missing or odd message is "" and never hides the code.
        let message = messagePath.isEmpty ? "" : member(of: root, at: messagePath).flatMap(canonicalScalar) ?? ""
        return EnvelopeHeader(code: code, message: message)
    }

    /// Whether `JSONValue` (`JSONSerialization`'s encoding detection) and the decoders (their
    /// own detection) both read `data` as BOM-less UTF-8: its first byte is ASCII and neither
    /// of the first two bytes is zero, which rules out every UTF-16/32 pattern of both.
    private static func startsAsPlainUTF8(_ data: Data) -> Bool {
        guard let first = data.first, first != 0, first < 0x80 else { return false }
        return data.count < 2 || data[data.index(after: data.startIndex)] != 0
    }

    /// The value at `path`, through objects only (as the decoder's nested keyed containers);
    /// the first of duplicate keys wins, as in the decoders.
    private static func member(of root: JSONValue, at path: [String]) -> JSONValue? {
        var current = root
        for key in path {
            guard current.kind == .object, let next = current[key] else { return nil }
            current = next
        }
        return current
    }

    /// What ``EnvelopeCode`` makes of a scalar — it tries `Int`, `Double`, `String`, `Bool` in
    /// that order — or `nil` where the decoder would fail (null, containers, a number no
    /// `Int` or finite non-underflowing `Double` holds).
    private static func canonicalScalar(_ value: JSONValue) -> String? {
        switch value.kind {
        case .number:
            if let int = value.intValue { return String(int) }
            // A true zero is an `Int` above, so a zero here is an underflow, which the decoders reject.
            guard let double = value.doubleValue, double.isFinite, double != 0 else { return nil }
            return EnvelopeCode.canonical(double)
        case .string:
            return value.stringValue.map(EnvelopeCode.canonical)
        case .bool:
            return value.boolValue.map { $0 ? "true" : "false" }
        case .null, .array, .object:
            return nil
        }
    }
}
