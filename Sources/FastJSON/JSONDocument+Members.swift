import Foundation

// Finding members and elements by name or position, matching keys as
// `JSONDecoder` does with default keys: the first of duplicate keys wins and
// names compare as Swift strings.
extension JSONDocument {
    /// Index of the value of the first member from `firstMember` (a key's tape
    /// index) up to `end` whose key is exactly the ASCII bytes `name`, in an
    /// object whose keys are all simple ASCII.
    @inline(__always)
    func memberValue(matching name: UnsafeBufferPointer<UInt8>, from firstMember: Int, to end: Int) -> Int? {
        let length = name.count
        var member = firstMember
        while member < end {
            let key = tape[member]
            if key.length == length, Self.equal(bytes + key.offset, name) { return member + 1 }
            let value = tape[member + 1]
            member = value.isContainer ? value.end : member + 2
        }
        return nil
    }

    /// Whether the `name.count` bytes at `text` are `name`'s: eight bytes at a
    /// time, then byte by byte, inline (keys are short; a call to memcmp for
    /// each candidate cost more than the comparison).
    @inline(__always)
    private static func equal(_ text: UnsafePointer<UInt8>, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = name.baseAddress else { return true }
        let length = name.count
        var k = 0
        while k &+ 8 <= length {
            guard UnsafeRawPointer(text + k).loadUnaligned(as: UInt64.self) == UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self)
            else { return false }
            k &+= 8
        }
        while k < length {
            guard text[k] == base[k] else { return false }
            k &+= 1
        }
        return true
    }

    /// Index of the value of the first member named `name` in the object at
    /// `object`; throws if a key has to be decoded and is malformed.
    func member(named name: String, inObject object: Int) throws -> Int? {
        let entry = tape[object]
        var name = name
        if entry.has(TapeEntry.simpleKeys) {
            if let found = name.withUTF8({ memberValue(matching: $0, from: object + 1, to: entry.end) }) { return found }
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

    /// Index of the value of the last member named `name` in the object at
    /// `object`, as `JSONSerialization` keeps it; throws as `member(named:inObject:)`.
    func lastMember(named name: String, inObject object: Int) throws -> Int? {
        let entry = tape[object]
        var name = name
        if entry.has(TapeEntry.simpleKeys) {
            let found = name.withUTF8 { bytes -> Int? in
                var last: Int?
                var from = object + 1
                while let value = memberValue(matching: bytes, from: from, to: entry.end) {
                    last = value
                    from = next(after: value)
                }
                return last
            }
            if found != nil || name.utf8.allSatisfy({ $0 < 0x80 }) { return found }
        }
        var last: Int?
        var member = object + 1
        while member < entry.end {
            if try string(at: member) == name { last = member + 1 }
            member = next(after: member + 1)
        }
        return last
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
