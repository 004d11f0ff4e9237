import HTTPCore

/// A field the server sends sometimes as a number and sometimes as text, kept with both
/// readings: the exact ``string`` and, when the text is a number, its ``int`` and ``double`` —
/// the counterpart of the `TStrInt` types of iOS code bases, which kept an `int` and a `string`.
///
/// Where ``Lenient`` fails on text that is not a number (u17's `"rankingType": "月票值"` for an
/// `Int`), this type keeps the text and reads the number when there is one:
///
/// ```swift
/// struct RankItem: Codable, Sendable {
///     var title: String
///     var argValue: StringNumber      // "23" → .string "23", .int 23
///     var rankingType: StringNumber   // "月票值" → .string "月票值", .int nil
/// }
/// ```
///
/// - A JSON string is kept as sent. A JSON number is kept as its shortest text (`23`, `1.5`,
///   `1e+20`): decoders hand over the value, not the characters, so `1.50` reads as `"1.5"`.
/// - A JSON Boolean is kept as `"true"` or `"false"`, with no number.
/// - A missing key or `null` gives the empty text (as ``Lenient`` gives `0`); declare the
///   property `StringNumber?` to tell them apart.
/// - An array or an object fails with `DecodingError.typeMismatch`.
/// - Encoding writes what came: a number as a JSON number, anything else as a JSON string, so a
///   value decodes again to an equal one.
/// - Two values are equal when their texts and kinds are: `"23"` and `23` differ. Compare
///   ``int`` to compare numbers.
public struct StringNumber: Sendable, Hashable, Codable, CustomStringConvertible,
                            ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// The exact text: the string as sent, or a number's shortest text.
    public let string: String
    /// Whether the JSON value was a number (encoding writes it back as one).
    public let isNumber: Bool

    /// Text, kept as it is; encodes as a JSON string.
    public init(_ string: String) {
        self.string = string
        self.isNumber = false
    }

    /// A whole number; encodes as a JSON number.
    public init(_ value: Int) {
        self.string = String(value)
        self.isNumber = true
    }

    /// A number; encodes as a JSON number. A NaN or an infinity, which JSON has no number for,
    /// is kept as text (`"nan"`, `"inf"`) and has no ``double``.
    public init(_ value: Double) {
        self.string = value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        self.isNumber = value.isFinite
    }

    /// Text from a literal (`"23"`).
    public init(stringLiteral value: String) { self.init(value) }

    /// A whole number from a literal (`23`).
    public init(integerLiteral value: Int) { self.init(value) }

    /// A number from a literal (`1.5`).
    public init(floatLiteral value: Double) { self.init(value) }

    /// The integer the text spells (`"23"`, `23`, `"23.0"`), or `nil` — also for a fraction
    /// (`"1.5"`) and for a number outside `Int`'s range.
    public var int: Int? {
        if let exact = Int(string) { return exact }
        guard let double, double == double.rounded(), let whole = Int(exactly: double) else { return nil }
        return whole
    }

    /// The number the text spells (`"23"`, `"1.5"`, `"-2e3"`), or `nil` for text that is not a
    /// decimal number (`"月票值"`, `""`, `"0x10"`, `"nan"`, `"inf"`).
    public var double: Double? {
        guard !string.isEmpty, string.utf8.allSatisfy(StringNumber.isNumberCharacter),
              let value = Double(string), value.isFinite else { return nil }
        return value
    }

    /// The text.
    public var description: String { string }

    /// Decodes a string, a number or a Boolean; `null` gives the empty text.
    /// - Throws: `DecodingError.typeMismatch` for an array or an object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self.init("")
            return
        }
        switch try LenientToken(from: container) {
        case .string(let text): self.init(text)
        case .bool(let flag): self.init(flag ? "true" : "false")
        case .integer(let value): self.init(text: String(value), isNumber: true)
        case .unsigned(let value): self.init(text: String(value), isNumber: true)
        case .double(let value): self.init(value)
        }
    }

    /// Encodes a number as a JSON number and anything else as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        guard isNumber else { return try container.encode(string) }
        if let integer = Int64(string) {
            try container.encode(integer)
        } else if let unsigned = UInt64(string) {
            try container.encode(unsigned)
        } else if let double {
            try container.encode(double)
        } else {
            try container.encode(string)
        }
    }

    private init(text: String, isNumber: Bool) {
        self.string = text
        self.isNumber = isNumber
    }

    private static func isNumberCharacter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }
}

extension KeyedDecodingContainer {
    /// Lets a missing key decode to an empty ``StringNumber``, as `null` does: synthesized
    /// `Decodable` conformances call `decode(_:forKey:)` for non-optional properties, which would
    /// otherwise throw `keyNotFound`.
    public func decode(_ type: StringNumber.Type, forKey key: Key) throws -> StringNumber {
        try decodeIfPresent(type, forKey: key) ?? StringNumber("")
    }
}
