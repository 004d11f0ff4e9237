// The flat representation of a parsed document: one entry per JSON value.

/// One value of a parsed document in the flat tape built by `JSONScanner`.
///
/// Two words per value keep the tape dense, let a container skip all of its
/// descendants in O(1), and let strings and numbers stay unparsed until a
/// caller asks for them (the same laziness Foundation's decoder has, which is
/// also what makes its error behaviour reproducible).
struct TapeEntry {
    /// `kind` (bits 0-2) | flags (bits 3-7) | payload (bits 8-63): the byte
    /// offset of a scalar's text or of a container's opening bracket.
    var header: UInt64
    /// A scalar's byte length. For a container: element count (high 32 bits)
    /// and the tape index just past its last descendant (low 32 bits; while
    /// scanning, the parent's index plus one).
    var extra: UInt64

    /// The JSON type of an entry. Containers sort last so `isContainer` is one compare.
    enum Kind: UInt8 {
        case null = 0, `false`, `true`, number, string, array, object
    }

    // String flags.
    /// No backslash and no control character: the bytes are the value.
    static let simpleString: UInt64 = 1 << 3
    /// No byte at or above 0x80.
    static let asciiString: UInt64 = 1 << 4
    // Number flags.
    /// The text follows the JSON number grammar (checked when scanned, reported when read).
    static let validNumber: UInt64 = 1 << 3
    /// The text has no fraction and no exponent.
    static let integerNumber: UInt64 = 1 << 4
    // Object flags.
    /// Every key is a simple ASCII string, so keys can be matched byte for byte.
    static let simpleKeys: UInt64 = 1 << 3

    @inline(__always)
    init(header: UInt64, extra: UInt64) {
        self.header = header
        self.extra = extra
    }

    @inline(__always)
    init(kind: Kind, flags: UInt64 = 0, payload: Int, extra: Int) {
        header = UInt64(kind.rawValue) | flags | (UInt64(truncatingIfNeeded: payload) << 8)
        self.extra = UInt64(truncatingIfNeeded: extra)
    }

    @inline(__always)
    var kind: Kind {
        // The scanner only ever stores the seven raw values above.
        Kind(rawValue: UInt8(truncatingIfNeeded: header & 7)) ?? .null
    }

    @inline(__always)
    var rawKind: UInt64 { header & 7 }

    @inline(__always)
    var isContainer: Bool { header & 7 >= UInt64(Kind.array.rawValue) }

    @inline(__always)
    func has(_ flag: UInt64) -> Bool { header & flag != 0 }

    /// Byte offset of a scalar's text (after the opening quote for strings) or
    /// of a container's opening bracket.
    @inline(__always)
    var offset: Int { Int(truncatingIfNeeded: header >> 8) }

    /// Element count of an array, member count of an object.
    @inline(__always)
    var count: Int { Int(truncatingIfNeeded: extra >> 32) }

    /// Byte length of a scalar's text (without quotes for strings).
    @inline(__always)
    var length: Int { Int(truncatingIfNeeded: extra) }

    /// Tape index just past a container's last descendant.
    @inline(__always)
    var end: Int { Int(truncatingIfNeeded: extra & 0xFFFF_FFFF) }
}
