import Foundation
import HTTPCore

/// A scalar that may arrive as a number, a string or a Boolean, kept in canonical string form.
struct EnvelopeCode: Decodable {
    let value: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let int = try? container.decode(Int.self) {
            value = String(int)
        } else if let double = try? container.decode(Double.self) {
            value = EnvelopeCode.canonical(double)
        } else if let string = try? container.decode(String.self) {
            value = EnvelopeCode.canonical(string)
        } else if let bool = try? container.decode(Bool.self) {
            value = bool ? "true" : "false"
        } else {
            throw DecodingError.typeMismatch(String.self, .init(codingPath: decoder.codingPath,
                                                                debugDescription: "expected a number, a string or a Boolean"))
        }
    }

    /// `" 0 "`, `"00"` and `"0.0"` are all `"0"`; anything not numeric is kept as trimmed.
    static func canonical(_ string: String) -> String {
        let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
        if let int = Int(trimmed) { return String(int) }
        if let double = Double(trimmed), double.isFinite { return canonical(double) }
        return trimmed
    }

    static func canonical(_ double: Double) -> String {
        if let int = Int(exactly: double) { return String(int) }
        return "\(double)"
    }
}
