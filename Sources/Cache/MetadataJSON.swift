import HTTPCore

/// The JSON of the cache's metadata files, written by the cache alone: the file format is the
/// cache's, so no change to how request parameters are encoded can ever change it.
///
/// The format (pinned byte for byte by `CacheMetadataTests`): UTF-8, no white space. Object
/// members in the order of their names as Swift's `String` comparison sorts them (the field
/// names of ``CacheMetadata`` and the keys of its `varyValues`); `nil` members left out.
/// Strings escape `"` and `\` with a backslash, line feed, carriage return and tab as `\n`,
/// `\r`, `\t`, every other byte below 0x20 as `\u00xx` (lower-case hex); all other bytes,
/// DEL and non-ASCII included, are written as they are. Integers in decimal. A double that is
/// a whole number of magnitude below 10^15 is written as an integer (`-0.0` as `0`), any
/// other in Swift's shortest round-trip form (`0.1`, `1e+16`). JSON has no NaN or infinity:
/// such a double is refused. This is what `JSONEncoder` with sorted keys reads, and what
/// earlier versions of the store wrote.
struct MetadataJSON {
    private(set) var bytes: [UInt8] = []
    /// How many members or elements each open object or array holds so far, innermost last.
    private var counts: [Int] = []
    /// Whether a member's name was just written, so its value takes no comma.
    private var afterName = false

    private static let hexDigits = Array("0123456789abcdef".utf8)

    init() { bytes.reserveCapacity(1024) }

    mutating func openObject() { open(UInt8(ascii: "{")) }
    mutating func closeObject() { close(UInt8(ascii: "}")) }
    mutating func openArray() { open(UInt8(ascii: "[")) }
    mutating func closeArray() { close(UInt8(ascii: "]")) }

    /// Starts an object member; members must come in the order of their names.
    mutating func name(_ name: String) {
        beginItem()
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
        afterName = true
    }

    mutating func string(_ value: String) {
        beginValue()
        writeString(value)
    }

    /// A string member; none when `value` is `nil`.
    mutating func member(_ name: String, _ value: String?) {
        guard let value else { return }
        self.name(name)
        string(value)
    }

    /// An integer member.
    mutating func member(_ name: String, _ value: Int64) {
        self.name(name)
        bytes.append(contentsOf: String(value).utf8)
        afterName = false
    }

    /// An unsigned 32-bit integer member (a checksum); none when `value` is `nil`.
    mutating func member(_ name: String, _ value: UInt32?) {
        guard let value else { return }
        member(name, Int64(value))
    }

    /// A number member; none when `value` is `nil`. Throws for NaN and infinity.
    mutating func member(_ name: String, _ value: Double?) throws(NetworkError) {
        guard let value else { return }
        guard value.isFinite else {
            throw NetworkError(.fileIO, "cache metadata field \(name) is \(value), which JSON cannot represent")
        }
        self.name(name)
        afterName = false
        if value == value.rounded(), abs(value) < 1e15 {
            bytes.append(contentsOf: String(Int64(value)).utf8)
        } else {
            bytes.append(contentsOf: "\(value)".utf8)
        }
    }

    /// An object of strings, its keys sorted.
    mutating func stringObject(_ object: [String: String]) {
        openObject()
        for (key, value) in object.sorted(by: { $0.key < $1.key }) {
            name(key)
            string(value)
        }
        closeObject()
    }

    private mutating func open(_ bracket: UInt8) {
        beginValue()
        bytes.append(bracket)
        counts.append(0)
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        counts.removeLast()
    }

    private mutating func beginValue() {
        if afterName {
            afterName = false
        } else {
            beginItem()
        }
    }

    /// A comma before every member or element but the first of its container.
    private mutating func beginItem() {
        guard let last = counts.indices.last else { return }
        if counts[last] > 0 { bytes.append(UInt8(ascii: ",")) }
        counts[last] += 1
    }

    private mutating func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          MetadataJSON.hexDigits[Int(byte >> 4)], MetadataJSON.hexDigits[Int(byte & 0x0F)]])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
