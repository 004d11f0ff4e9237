import Foundation

/// A parsed JSON document, or one value inside it, read on demand.
///
/// Parsing builds a compact index of the document once; reading a member,
/// element, string or number decodes only that value, and sub-values share
/// the parsed document (no copying). It is an immutable `Sendable` value.
///
/// `JSONValue(parsing:)` accepts what `JSONSerialization` accepts on Linux
/// (with fragments allowed): UTF-8/16/32 input, trailing commas, at most 512
/// nested containers by default; every string and number is checked. The one
/// difference: a number beyond `Double`'s range is valid JSON and parses;
/// `jsonObject(with:)` rejects it, as `JSONSerialization` does. Lookup by key
/// follows `JSONDecoder`: the first of duplicate keys wins.
public struct JSONValue: Sendable, CustomStringConvertible {
    let document: JSONDocument
    let index: Int

    /// The JSON type of a value.
    public enum Kind: Sendable, Equatable {
        /// `null`
        case null
        /// `true` or `false`
        case bool
        /// A number.
        case number
        /// A string.
        case string
        /// An array.
        case array
        /// An object.
        case object
    }

    init(document: JSONDocument, index: Int) {
        self.document = document
        self.index = index
    }

    /// Parses a JSON document; `maximumDepth` (default 512) limits nesting.
    ///
    /// - Throws: `JSONParseError` for malformed JSON (anything
    ///   `JSONSerialization` rejects, other than out-of-range numbers).
    public init(parsing data: Data, maximumDepth: Int = 512) throws {
        document = try JSONDocument.parse(data, maximumDepth: maximumDepth, strict: true)
        index = 0
    }

    /// Parses JSON text; `maximumDepth` (default 512) limits nesting.
    ///
    /// - Throws: `JSONParseError` for malformed JSON, as `init(parsing:)` with data.
    public init(parsing text: String, maximumDepth: Int = 512) throws {
        try self.init(parsing: Data(text.utf8), maximumDepth: maximumDepth)
    }

    private var entry: TapeEntry { document.entry(index) }

    /// The JSON type of this value.
    public var kind: Kind {
        switch entry.kind {
        case .null: return .null
        case .true, .false: return .bool
        case .number: return .number
        case .string: return .string
        case .array: return .array
        case .object: return .object
        }
    }

    /// Whether this is `null`.
    public var isNull: Bool { entry.kind == .null }

    /// The value of `true` or `false`; `nil` for any other kind.
    public var boolValue: Bool? {
        switch entry.kind {
        case .true: return true
        case .false: return false
        default: return nil
        }
    }

    /// The text of a string (escapes decoded); `nil` for any other kind.
    public var stringValue: String? {
        guard entry.kind == .string else { return nil }
        return try? document.string(at: index)
    }

    /// A number as `Int` under `JSONDecoder`'s rules: `12`, `12.0` and `1.2e1`
    /// give 12; `nil` for `12.5`, numbers out of range, and other kinds.
    public var intValue: Int? {
        let entry = self.entry
        guard entry.kind == .number else { return nil }
        return try? JSONNumberParser.integer(
            Int.self, document.bytes + entry.offset, count: entry.length, flags: entry.header, offset: entry.offset)
    }

    /// A number as the nearest `Double` (0 for an underflowing literal,
    /// ±infinity beyond `Double`'s range); `nil` for other kinds.
    public var doubleValue: Double? {
        let entry = self.entry
        guard entry.kind == .number else { return nil }
        return JSONNumberParser.rawDouble(document.bytes + entry.offset, count: entry.length)
    }

    /// A number as `Double` under `JSONDecoder`'s rules: `nil` for a literal beyond `Double`'s
    /// range or one that underflows to zero (`1e-400`), and for other kinds.
    package var representableDoubleValue: Double? {
        let entry = self.entry
        guard entry.kind == .number else { return nil }
        return try? JSONNumberParser.double(document.bytes + entry.offset, count: entry.length, flags: entry.header, offset: entry.offset)
    }

    /// A number's literal text as written (e.g. for `Decimal(string:)` or
    /// integers wider than 64 bits); `nil` for other kinds.
    public var numberText: String? {
        let entry = self.entry
        guard entry.kind == .number else { return nil }
        return String(decoding: UnsafeBufferPointer(start: document.bytes + entry.offset, count: entry.length), as: UTF8.self)
    }

    /// Number of elements of an array or members of an object (duplicates
    /// included); 0 for other kinds.
    public var count: Int {
        entry.isContainer ? entry.count : 0
    }

    /// The value of the first member named `key` of an object; `nil` if
    /// there is none or this is not an object.
    public subscript(key: String) -> JSONValue? {
        guard entry.kind == .object, let found = try? document.member(named: key, inObject: index) else { return nil }
        return JSONValue(document: document, index: found)
    }

    /// The value of the last member named `key` of an object, the one
    /// `JSONSerialization` keeps; `nil` if there is none or this is not an object.
    package func lastMember(named key: String) -> JSONValue? {
        guard entry.kind == .object, let found = try? document.lastMember(named: key, inObject: index) else { return nil }
        return JSONValue(document: document, index: found)
    }

    /// Element `position` of an array; `nil` if out of range or not an array.
    public subscript(position: Int) -> JSONValue? {
        guard entry.kind == .array, let found = document.element(position, inArray: index) else { return nil }
        return JSONValue(document: document, index: found)
    }

    /// The value at a dotted key path such as `data.returnData.rankinglist`
    /// (a component that is an integer also indexes arrays; empty means this
    /// value); `nil` if any step is missing.
    public func value(atKeyPath keyPath: String) -> JSONValue? {
        guard !keyPath.isEmpty else { return self }
        var current = self
        for component in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
            let name = String(component)
            switch current.entry.kind {
            case .object:
                guard let next = current[name] else { return nil }
                current = next
            case .array:
                guard let position = Int(name), let next = current[position] else { return nil }
                current = next
            default:
                return nil
            }
        }
        return current
    }

    /// The keys of an object in document order (duplicates included); empty
    /// for other kinds.
    public var keys: [String] {
        members.map(\.key)
    }

    /// The members of an object in document order (duplicates included);
    /// empty for other kinds.
    public var members: [(key: String, value: JSONValue)] {
        let entry = self.entry
        guard entry.kind == .object else { return [] }
        var result: [(key: String, value: JSONValue)] = []
        result.reserveCapacity(entry.count)
        var member = index + 1
        while member < entry.end {
            // Keys were validated when the document was parsed.
            let key = (try? document.string(at: member)) ?? ""
            result.append((key, JSONValue(document: document, index: member + 1)))
            member = document.next(after: member + 1)
        }
        return result
    }

    /// The elements of an array in order; empty for other kinds.
    public var elements: [JSONValue] {
        let entry = self.entry
        guard entry.kind == .array else { return [] }
        var result: [JSONValue] = []
        result.reserveCapacity(entry.count)
        var element = index + 1
        while element < entry.end {
            result.append(JSONValue(document: document, index: element))
            element = document.next(after: element)
        }
        return result
    }

    /// The exact UTF-8 source text of this value.
    public var rawData: Data {
        Data(buffer: document.rawBytes(at: index))
    }

    /// The JSON source text of this value, as written.
    public var description: String {
        String(decoding: document.rawBytes(at: index), as: UTF8.self)
    }
}
