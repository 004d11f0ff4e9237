/// Decoded `name=value&…` pairs of a query string or an `application/x-www-form-urlencoded`
/// body, in order; repeated names are kept.
struct QueryItems {
    private(set) var items: [(name: String, value: String)] = []

    /// Parses `text` (without a leading `?`). `+` is a space; invalid percent escapes are kept literally.
    init(_ text: some StringProtocol) {
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            if let equals = pair.firstIndex(of: "=") {
                items.append((Self.decode(pair[..<equals]), Self.decode(pair[pair.index(after: equals)...])))
            } else {
                items.append((Self.decode(pair), ""))
            }
        }
    }

    /// The first value of `name`.
    subscript(name: String) -> String? {
        items.first { $0.name == name }?.value
    }

    /// `{name: value}` with a repeated name becoming an array of its values, in first-seen order.
    var json: JSONValue {
        var order: [String] = []
        var values: [String: [String]] = [:]
        for (name, value) in items {
            if values[name] == nil { order.append(name) }
            values[name, default: []].append(value)
        }
        return .object(order.map { name in
            let list = values[name] ?? []
            return (name, list.count == 1 ? .string(list[0]) : .array(list.map { .string($0) }))
        })
    }

    /// Percent-decodes form/query text; the result is read as UTF-8 with invalid sequences replaced.
    static func decode(_ text: some StringProtocol, plusIsSpace: Bool = true) -> String {
        let utf8 = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), index + 2 < utf8.count,
               let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2]) {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(plusIsSpace && byte == UInt8(ascii: "+") ? 0x20 : byte)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
