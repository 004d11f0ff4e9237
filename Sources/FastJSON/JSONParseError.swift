/// Why a JSON document could not be read, and where.
///
/// `FastJSONDecoder` reports it as the `underlyingError` of
/// `DecodingError.dataCorrupted` with an empty coding path and the debug
/// description "The given data was not valid JSON." (the case, path and text
/// Foundation's `JSONDecoder` uses); `JSONValue(parsing:)` throws it directly.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem.
    public enum Reason: Sendable, Equatable {
        /// The input ended inside a value.
        case unexpectedEndOfFile
        /// A byte that cannot appear here (its value is attached).
        case unexpectedCharacter(UInt8)
        /// More nested arrays and objects than the limit (attached; 512 by default).
        case tooManyNestedContainers(limit: Int)
        /// A string is not valid UTF-8.
        case invalidUTF8
        /// A backslash followed by a byte that is not a JSON escape.
        case invalidEscape(UInt8)
        /// `\u` not followed by four hexadecimal digits (the four bytes attached).
        case invalidUnicodeEscape(String)
        /// A high surrogate escape without a low surrogate escape after it.
        case missingLowSurrogate
        /// An escape that names no Unicode scalar, such as a lone low surrogate.
        case invalidUnicodeScalar(UInt32)
        /// A raw control character (below U+0020) inside a string.
        case unescapedControlCharacter(UInt8)
        /// A number that does not follow the JSON grammar (leading zero, `1.`, `-`, …).
        case invalidNumber
        /// A number that the requested type cannot hold (its text attached).
        case numberNotRepresentable(String)
        /// UTF-16 or UTF-32 input that could not be converted to UTF-8.
        case cannotConvertInputToUTF8
        /// A document of 4 GiB or more (offsets are kept in 32 bits).
        case documentTooLarge
    }

    /// The kind of problem.
    public let reason: Reason
    /// Byte offset into the UTF-8 text where the problem was found; `nil` when
    /// the problem has no single location.
    public let offset: Int?

    /// Creates an error; `offset` defaults to `nil` (no single location).
    public init(_ reason: Reason, offset: Int? = nil) {
        self.reason = reason
        self.offset = offset
    }

    /// A one-line description with the byte offset when there is one.
    public var description: String {
        let what: String
        switch reason {
        case .unexpectedEndOfFile: what = "Unexpected end of file"
        case .unexpectedCharacter(let byte): what = "Unexpected character \(Self.show(byte))"
        case .tooManyNestedContainers(let limit): what = "More than \(limit) nested arrays or objects"
        case .invalidUTF8: what = "Invalid UTF-8 in string"
        case .invalidEscape(let byte): what = "Invalid escape sequence '\\\(Self.show(byte))'"
        case .invalidUnicodeEscape(let text): what = "Invalid hex digits in unicode escape '\\u\(text)'"
        case .missingLowSurrogate: what = "Missing low surrogate after high surrogate escape"
        case .invalidUnicodeScalar(let value): what = "Invalid unicode scalar 0x\(String(value, radix: 16))"
        case .unescapedControlCharacter(let byte): what = "Unescaped control character 0x\(String(byte, radix: 16))"
        case .invalidNumber: what = "Invalid number"
        case .numberNotRepresentable(let text): what = "Number \(text) is not representable"
        case .cannotConvertInputToUTF8: what = "Input could not be converted to UTF-8"
        case .documentTooLarge: what = "Document too large (4 GiB or more)"
        }
        if let offset { return "\(what) at byte \(offset)." }
        return "\(what)."
    }

    private static func show(_ byte: UInt8) -> String {
        (0x20..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "0x\(String(byte, radix: 16))"
    }
}
