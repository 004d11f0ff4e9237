import Foundation

// Conversion to the objects `JSONSerialization.jsonObject(with:)` returns, so
// code written against `Any` (a `responseJSON`) can use this parser.
extension JSONValue {
    /// Parses `data` and returns what `JSONSerialization.jsonObject(with:
    /// options: .fragmentsAllowed)` returns for it.
    ///
    /// - Throws: `JSONParseError` where `JSONSerialization` throws, including
    ///   numbers beyond `Double`'s range.
    public static func jsonObject(with data: Data) throws -> Any {
        let value = try JSONValue(parsing: data)
        return try object(value.document, value.index, strict: true)
    }

    /// This value as `JSONSerialization` represents it: `NSNull`, `NSNumber`
    /// for booleans and numbers (`Int64`, `UInt64`, `Double` or
    /// `NSDecimalNumber` by `JSONSerialization`'s rules), `String`, `[Any]`,
    /// and `[String: Any]` (where the last of duplicate keys wins, as there).
    /// A number beyond `Double`'s range, which `jsonObject(with:)` rejects,
    /// becomes an infinite `Double`.
    public var foundationObject: Any {
        (try? Self.object(document, index, strict: false)) ?? NSNull()
    }

    private static func object(_ document: JSONDocument, _ index: Int, strict: Bool) throws -> Any {
        let entry = document.entry(index)
        switch entry.kind {
        case .null:
            return NSNull()
        case .true:
            return NSNumber(value: true)
        case .false:
            return NSNumber(value: false)
        case .string:
            return try document.string(at: index)
        case .number:
            let text = document.bytes + entry.offset
            if let number = JSONSerializationNumber.object(text, count: entry.length, flags: entry.header) { return number }
            if strict { throw JSONNumberParser.notRepresentable(text, count: entry.length) }
            return NSNumber(value: JSONNumberParser.rawDouble(text, count: entry.length))
        case .array:
            var array: [Any] = []
            array.reserveCapacity(entry.count)
            var element = index + 1
            while element < entry.end {
                array.append(try object(document, element, strict: strict))
                element = document.next(after: element)
            }
            return array
        case .object:
            var members: [Int] = []
            members.reserveCapacity(entry.count)
            var member = index + 1
            while member < entry.end {
                members.append(member)
                member = document.next(after: member + 1)
            }
            // Last of duplicate keys wins, and like JSONSerialization the
            // values it replaces are never converted.
            var dictionary: [String: Any] = [:]
            dictionary.reserveCapacity(entry.count)
            for member in members.reversed() {
                let key = try document.string(at: member)
                if dictionary[key] == nil {
                    dictionary[key] = try object(document, member + 1, strict: strict)
                }
            }
            return dictionary
        }
    }
}
