import Foundation
import HTTPCore

/// A JSON value that servers send sometimes as a number and sometimes as text (`23`, `"23"`,
/// `"月票值"`), kept as both: the text as sent and the number when the text is one — the
/// counterpart of the `TStrInt` types of iOS code bases. It decodes in strict mode; nothing
/// about the model's other properties changes.
///
/// ```swift
/// struct RankItem: Codable {
///     var title: String
///     var argValue: StringNumber     // "23" → .string "23", .int 23
///     var rankingType: StringNumber  // "月票值" → .string "月票值", .int nil
/// }
/// ```
///
/// - ``string``: a string exactly as sent; a number as its decimal text. Both backends read a
///   number through `Decimal`, so digits are exact (`12345678901234567890` stays whole) but the
///   form is normalized: `1.50` gives `"1.5"`, `1e3` gives `"1000"`, `-0` gives `"0"`. (The
///   decoders hand `Decodable` types no number text, so the literal itself is not available.)
///   A number beyond `Decimal`'s range is read as a `Double` and written in its shortest form.
/// - ``int`` and ``double``: the value of the text when it is numeric (`"12.0"` has `int` 12;
///   `"12.5"` has `int` `nil` and `double` 12.5; `"abc"` has both `nil`); surrounding spaces
///   are ignored.
/// - A missing key or `null` gives the empty value (`""`, no number), like ``Lenient`` gives
///   its default; declare the property `StringNumber?` to tell a missing value apart. A
///   Boolean, an array or an object throws `DecodingError.typeMismatch`.
/// - Encoding writes a number when the value came as one (or from an integer literal) and a
///   string otherwise, so a model round-trips as it was sent. Equality and hashing compare the
///   text and that form: `"23"` and `23` are different values with the same ``int``.
public struct StringNumber: Codable, Sendable, Hashable, CustomStringConvertible,
                            ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    /// The text as sent (a number as its decimal text); `""` for a missing value.
    public let string: String
    /// Whether the value was a JSON number (so it encodes as one).
    public let isNumber: Bool

    /// A value that was sent as text.
    public init(string: String) {
        self.init(text: string, isNumber: false)
    }

    private init(text: String, isNumber: Bool) {
        string = text
        self.isNumber = isNumber
    }

    /// A value that was sent as an integer.
    public init(_ int: Int) {
        self.init(text: String(int), isNumber: true)
    }

    /// A value that was sent as a number; its text is the shortest form that reads back as
    /// `double` (`12.5`, `12` for `12.0`). A non-finite `double` is kept as text (`"inf"`),
    /// which JSON has no number for.
    public init(_ double: Double) {
        guard double.isFinite else {
            self.init(string: String(double))
            return
        }
        self.init(text: EnvelopeCode.canonical(double), isNumber: true)
    }

    /// The empty value: `""`, no number.
    public static let empty = StringNumber(string: "")

    /// `"text"` as text.
    public init(stringLiteral value: String) {
        self.init(string: value)
    }

    /// `23` as a number.
    public init(integerLiteral value: Int) {
        self.init(value)
    }

    /// The text as an `Int` when it is an integer (`"23"`, `"23.0"`), else `nil`.
    public var int: Int? {
        if let int = Int(string.trimmingCharacters(in: .whitespaces)) { return int }
        guard let double, double.isFinite else { return nil }
        return Int(exactly: double)
    }

    /// The text as a `Double` when it is a finite number (`"1.5"`, `"23"`), else `nil` (also for
    /// `"1e400"`, which overflows).
    public var double: Double? {
        let text = string.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, let double = Double(text), double.isFinite,
              text.lowercased().allSatisfy({ !$0.isLetter || $0 == "e" }) else {
            return nil
        }
        return double
    }

    /// The text.
    public var description: String { string }

    /// Decodes a string or a number; `null` gives ``empty``.
    /// - Throws: `DecodingError.typeMismatch` for a Boolean, an array or an object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .empty
        } else if let text = try? container.decode(String.self) {
            self.init(string: text)
        } else if (try? container.decode(Bool.self)) == nil, let decimal = try? container.decode(Decimal.self) {
            self.init(text: decimal.description, isNumber: true)
        } else if (try? container.decode(Bool.self)) == nil, let double = try? container.decode(Double.self) {
            self.init(double)
        } else {
            throw DecodingError.typeMismatch(StringNumber.self, .init(codingPath: container.codingPath,
                                                                      debugDescription: "expected a string or a number"))
        }
    }

    /// Encodes a number when the value came as one, a string otherwise.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if isNumber, let decimal = Decimal(string: string) {
            try container.encode(decimal)
        } else {
            try container.encode(string)
        }
    }
}
