/// The bytes `/bytes/{n}` serves: byte `i` of stream `seed` is byte `i % 8` (little-endian)
/// of a SplitMix64 hash of `(seed, i / 8)`. Random-looking, so compression and caching bugs
/// show, yet computable at any offset, which is what Range requests and resumed downloads need.
enum DeterministicBytes {
    /// Fills `buffer` with the bytes at `offset ..< offset + buffer.count` of stream `seed`
    /// (a negative offset counts as 0).
    static func fill(_ buffer: UnsafeMutableRawBufferPointer, seed: UInt64, offset: Int) {
        guard let base = buffer.baseAddress else { return }
        // UInt64 positions wrap instead of trapping, so even an absurd offset cannot crash.
        var absolute = UInt64(max(0, offset))
        var position = 0
        while position < buffer.count {
            let value = word(seed: seed, index: absolute / 8)
            let byteInWord = absolute % 8
            if byteInWord == 0 && buffer.count - position >= 8 {
                base.storeBytes(of: value.littleEndian, toByteOffset: position, as: UInt64.self)
                position += 8
                absolute &+= 8
            } else {
                base.storeBytes(of: UInt8(truncatingIfNeeded: value &>> (byteInWord * 8)), toByteOffset: position, as: UInt8.self)
                position += 1
                absolute &+= 1
            }
        }
    }

    /// `count` bytes starting at `offset`; none for a non-positive count.
    static func bytes(count: Int, seed: UInt64, offset: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            fill(UnsafeMutableRawBufferPointer(buffer), seed: seed, offset: offset)
            initialized = count
        }
    }

    /// SplitMix64's finalizer over a mix of seed and index: cheap and well distributed.
    private static func word(seed: UInt64, index: UInt64) -> UInt64 {
        var z = (seed &* 0xD1B5_4A32_D192_ED03) &+ (index &+ 1) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z &>> 31)
    }
}
