/// The coding keys this module puts in coding paths: object keys it reads by
/// name, array positions ("Index N", as Foundation spells them) and "super".
///
/// An index key keeps only its integer; its text is built on demand, because
/// most paths are never looked at.
struct JSONCodingKey: CodingKey, Sendable {
    private enum Storage: Sendable {
        case string(String)
        case int(Int)
        case index(Int)
    }

    private let storage: Storage

    init(stringValue: String) { storage = .string(stringValue) }

    init(intValue: Int) { storage = .int(intValue) }

    init(index: Int) { storage = .index(index) }

    static let `super` = JSONCodingKey(stringValue: "super")

    var stringValue: String {
        switch storage {
        case .string(let string): return string
        case .int(let int): return "\(int)"
        case .index(let index): return "Index \(index)"
        }
    }

    var intValue: Int? {
        switch storage {
        case .string: return nil
        case .int(let int), .index(let int): return int
        }
    }
}
