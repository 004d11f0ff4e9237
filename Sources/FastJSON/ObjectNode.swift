import Foundation

/// The state of a keyed container: where its object is and how to find a
/// member by name. Not generic, so the lookup code is compiled once.
///
/// With default keys and an object whose keys are all plain ASCII (the usual
/// case), a name is found by comparing bytes along the members, building
/// nothing. Otherwise (escaped or non-ASCII keys, a key conversion strategy,
/// very large objects) a table from converted key to value is built once,
/// keeping the first of duplicate keys as Foundation does.
final class ObjectNode: CodingPathNode {
    let impl: DecoderImpl
    let object: Int
    let end: Int
    /// The converted-key table, or `nil` when names are matched byte for byte:
    /// one optional reference keeps the common node small to make and free.
    private let table: KeyTable?

    /// A table from converted key to value index, with the keys in document order.
    private final class KeyTable {
        let indices: [String: Int]
        let names: [String]

        init(indices: [String: Int], names: [String]) {
            self.indices = indices
            self.names = names
        }
    }

    /// Above this many members a table beats scanning for every key.
    private static var scanLimit: Int { 32 }

    init(impl: DecoderImpl, parent: CodingPathNode?, key: PathKey, object: Int) throws {
        self.impl = impl
        self.object = object
        let entry = impl.tape[object]
        end = entry.end
        let options = impl.options
        if options.usesDefaultKeys, entry.has(TapeEntry.simpleKeys), entry.count <= Self.scanLimit {
            table = nil
            super.init(parent: parent, key: key)
            return
        }
        var table: [String: Int] = [:]
        table.reserveCapacity(entry.count)
        var keys: [String] = []
        keys.reserveCapacity(entry.count)
        var customPath: [any CodingKey] = []
        if case .custom = options.keyDecodingStrategy {
            customPath = CodingPathNode.path(parent, appending: key)
        }
        var member = object + 1
        while member < end {
            let raw = try impl.document.string(at: member)
            let name: String
            switch options.keyDecodingStrategy {
            case .useDefaultKeys:
                name = raw
            case .convertFromSnakeCase:
                if let converted = impl.snakeCaseKeys[raw] {
                    name = converted
                } else {
                    name = SnakeCaseKeyConverter.convert(raw)
                    impl.snakeCaseKeys[raw] = name
                }
            case .custom(let converter):
                name = converter(customPath + [JSONCodingKey(stringValue: raw)]).stringValue
            @unknown default:
                name = raw
            }
            if table[name] == nil {
                table[name] = member + 1
                keys.append(name)
            }
            member = impl.document.next(after: member + 1)
        }
        self.table = KeyTable(indices: table, names: keys)
        super.init(parent: parent, key: key)
    }

    /// Index of the value for `name` (first occurrence), or `nil`.
    @inline(__always)
    func valueIndex(named name: String) -> Int? {
        if let table { return table.indices[name] }
        var name = name
        if let found = name.withUTF8({ impl.document.memberValue(matching: $0, from: object + 1, to: end) }) {
            return found
        }
        // A non-ASCII name can still equal an ASCII key under String's
        // canonical equivalence (U+212A KELVIN SIGN is "K").
        return name.utf8.allSatisfy({ $0 < 0x80 }) ? nil : slowValueIndex(named: name)
    }

    private func slowValueIndex(named name: String) -> Int? {
        var member = object + 1
        while member < end {
            if let key = try? impl.document.string(at: member), key == name { return member + 1 }
            member = impl.document.next(after: member + 1)
        }
        return nil
    }

    /// Distinct key names in document order (first occurrences).
    var names: [String] {
        if let table { return table.names }
        var names: [String] = []
        var seen = Set<String>()
        var member = object + 1
        while member < end {
            // Simple ASCII keys: decoding cannot fail.
            if let name = try? impl.document.string(at: member), seen.insert(name).inserted {
                names.append(name)
            }
            member = impl.document.next(after: member + 1)
        }
        return names
    }
}
