/// Checks UTF-8 the way `String(validating:)` does (no overlong forms, no
/// surrogates, nothing above U+10FFFF), without building a string.
enum UTF8Validator {
    /// Whether `count` bytes at `start` are well-formed UTF-8.
    static func isValid(_ start: UnsafePointer<UInt8>, count: Int) -> Bool {
        var i = 0
        while i < count {
            // ASCII runs eight bytes at a time.
            while i &+ 8 <= count {
                let word = UnsafeRawPointer(start + i).loadUnaligned(as: UInt64.self)
                guard word & 0x8080_8080_8080_8080 == 0 else { break }
                i &+= 8
            }
            guard i < count else { return true }
            let lead = start[i]
            if lead < 0x80 {
                i &+= 1
                continue
            }
            let width: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF  // allowed range of the second byte
            switch lead {
            case 0xC2...0xDF: width = 2
            case 0xE0: width = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: width = 3
            case 0xED: width = 3; high = 0x9F
            case 0xF0: width = 4; low = 0x90
            case 0xF1...0xF3: width = 4
            case 0xF4: width = 4; high = 0x8F
            default: return false
            }
            guard i + width <= count else { return false }
            let second = start[i + 1]
            guard second >= low, second <= high else { return false }
            var k = 2
            while k < width {
                guard start[i + k] & 0xC0 == 0x80 else { return false }
                k += 1
            }
            i += width
        }
        return true
    }
}
