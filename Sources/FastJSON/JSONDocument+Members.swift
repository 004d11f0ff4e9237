import Foundation

// Finding members and elements by name or position, matching keys as
// `JSONDecoder` does with default keys: the first of duplicate keys wins and
// names compare as Swift strings.
extension JSONDocument {
    /// Index of the value of the first member whose key is exactly the ASCII
    /// bytes `name`, in an object whose keys are all simple ASCII.
    @inline(__always)
    func memberValue(matching name: UnsafeBufferPointer<UInt8>, object: Int, end: Int) -> Int? {
        let length = name.count
        let base = name.baseAddress
        var member = object + 1
        while member < end {
            let key = tape[member]
            if key.length == length {
                if length == 0 { return member + 1 }
                if let base, memcmp(bytes + key.offset, base, length) == 0 { return member + 1 }
            }
            let value = tape[member + 1]
            member = value.isContainer ? value.end : member + 2
        }
        return nil
    }

    /// Index of the value of the first member named `name` in the object at
    /// `object`; throws if a key has to be decoded and is malformed.
    func member(named name: String, inObject object: Int) throws -> Int? {
        let entry = tape[object]
        var name = name
        if entry.has(TapeEntry.simpleKeys) {
            if let found = name.withUTF8({ memberValue(matching: $0, object: object, end: entry.end) }) { return found }
            // Only a non-ASCII name can still equal an ASCII key (canonical equivalence).
            if name.utf8.allSatisfy({ $0 < 0x80 }) { return nil }
        }
        var member = object + 1
        while member < entry.end {
            if try string(at: member) == name { return member + 1 }
            member = next(after: member + 1)
        }
        return nil
    }

    /// Index of element `position` of the array at `array`, if it has one.
    func element(_ position: Int, inArray array: Int) -> Int? {
        let entry = tape[array]
        guard position >= 0, position < entry.count else { return nil }
        var element = array + 1
        for _ in 0..<position { element = next(after: element) }
        return element
    }
}
