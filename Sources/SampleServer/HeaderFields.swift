/// Request header fields in arrival order, with case-insensitive lookup.
package struct HeaderFields: Sequence {
    /// The fields as received (names keep the client's spelling).
    package private(set) var fields: [(name: String, value: String)] = []

    mutating func append(name: String, value: String) {
        fields.append((name, value))
    }

    /// The first value of `name`, compared case-insensitively.
    package subscript(name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }

    /// Every value of `name`, in order.
    func values(_ name: String) -> [String] {
        let wanted = name.lowercased()
        return fields.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// The comma-separated list elements of every `name` field, trimmed and lower-cased
    /// (for Connection, Transfer-Encoding, Expect).
    func tokens(_ name: String) -> [String] {
        values(name).flatMap { $0.split(separator: ",") }
            .map { $0.trimmingOWS().lowercased() }
            .filter { !$0.isEmpty }
    }

    package func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (HTTP's "optional whitespace").
    func trimmingOWS() -> String {
        var scalars = Substring(self).unicodeScalars[...]
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
