/// An ordered list of HTTP header fields with case-insensitive names.
///
/// Order and duplicates are kept exactly as given (`Set-Cookie` may appear several times);
/// lookups ignore the case of the name. Names and values are checked for CR, LF and NUL
/// before a request is sent, so a header can never inject another one.
public struct HTTPHeaders: Sendable, Hashable, ExpressibleByDictionaryLiteral, Sequence, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The name as given; compare with ``HTTPHeaders`` lookups, which ignore case.
        public var name: String
        /// The value, without surrounding white space.
        public var value: String

        /// Makes a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in order.
    public private(set) var fields: [Field]

    /// Makes an empty list.
    public init() { fields = [] }

    /// Makes a list from fields, keeping their order.
    public init(_ fields: [Field]) { self.fields = fields }

    /// Makes a list from a dictionary; the keys are sorted so the order is deterministic.
    public init(_ dictionary: [String: String]) {
        fields = dictionary.sorted { $0.key < $1.key }.map { Field(name: $0.key, value: $0.value) }
    }

    /// Makes a list from a literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The value of the first field with this name (any case), or `nil`.
    /// Setting replaces every field with this name by one field at the first one's place
    /// (or appends it); setting `nil` removes them all.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            guard let newValue else {
                remove(name: name)
                return
            }
            if let index = fields.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) {
                fields[index].value = newValue
                var i = fields.index(after: index)
                while i < fields.endIndex {
                    if fields[i].name.caseInsensitiveEquals(name) { fields.remove(at: i) } else { i += 1 }
                }
            } else {
                fields.append(Field(name: name, value: newValue))
            }
        }
    }

    /// Every value of the fields with this name, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Whether a field with this name exists.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.caseInsensitiveEquals(name) }
    }

    /// Makes room for `count` fields, so a parser adding them one by one does not regrow the array.
    package mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Appends a field, keeping any existing ones of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field with this name.
    public mutating func remove(name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    /// This list with `other`'s fields set on top (each name in `other` replaces this list's).
    public func merging(_ other: HTTPHeaders) -> HTTPHeaders {
        // Most calls merge with an empty side (no per-request headers, or no defaults).
        if other.isEmpty { return self }
        if isEmpty { return other }
        var result = self
        for name in other.names { result.remove(name: name) }
        result.fields.append(contentsOf: other.fields)
        return result
    }

    /// The distinct names, in order of first appearance, as first spelled.
    public var names: [String] {
        var seen: Set<String> = []
        return fields.compactMap { seen.insert($0.name.lowercased()).inserted ? $0.name : nil }
    }

    /// The fields as a dictionary with lower-cased names; repeated fields are joined with
    /// `", "` (RFC 9110 §5.3), except `Set-Cookie`, whose last value wins.
    public var dictionary: [String: String] {
        var result: [String: String] = [:]
        for field in fields {
            let key = field.name.lowercased()
            if let existing = result[key], key != "set-cookie" {
                result[key] = existing + ", " + field.value
            } else {
                result[key] = field.value
            }
        }
        return result
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// The first field whose name or value could break the request framing: an empty or
    /// non-token name, or CR, LF or NUL in a value. `nil` when every field is safe.
    package func firstUnsafeField() -> Field? {
        fields.first { field in
            field.name.isEmpty
                || !field.name.utf8.allSatisfy(HTTPHeaders.isTokenCharacter)
                || field.value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
        }
    }

    /// RFC 9110 `tchar`: the characters allowed in header names and method tokens.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

extension String {
    /// ASCII case-insensitive comparison, enough for header names (which are tokens). Runs
    /// for every header lookup, so it compares the UTF-8 buffers directly when they are
    /// contiguous (native strings are) instead of zipping two UTF-8 views.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let contiguous = utf8.withContiguousStorageIfAvailable { a in
            other.utf8.withContiguousStorageIfAvailable { b in
                for index in 0..<a.count where !String.asciiCaseInsensitiveEqual(a[index], b[index]) { return false }
                return true
            }
        }
        if let contiguous = contiguous ?? nil { return contiguous }
        return zip(utf8, other.utf8).allSatisfy(String.asciiCaseInsensitiveEqual)
    }

    private static func asciiCaseInsensitiveEqual(_ x: UInt8, _ y: UInt8) -> Bool {
        x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= UInt8(ascii: "a") && (x | 0x20) <= UInt8(ascii: "z"))
    }
}
