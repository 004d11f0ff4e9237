/// A pure-Swift MD4 (RFC 1320), one shot.
///
/// MD4 is thoroughly broken; it is here only because NTLM derives its password hash from it
/// (the NT hash is MD4 of the UTF-16LE password), which the sample server's NTLM route needs.
public enum MD4 {
    /// The length of a digest in bytes: 16.
    public static let byteCount = 16

    /// The 16-byte MD4 digest of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var message = Array(bytes)
        let bitLength = UInt64(message.count) &* 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 0, through: 56, by: 8) {
            message.append(UInt8(truncatingIfNeeded: bitLength &>> UInt64(shift)))
        }
        var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476)
        var offset = 0
        while offset < message.count {
            compress(&state, message[offset..<offset + 64])
            offset += 64
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(byteCount)
        for word in [state.0, state.1, state.2, state.3] {
            for shift in stride(from: 0, through: 24, by: 8) { digest.append(UInt8(truncatingIfNeeded: word &>> UInt32(shift))) }
        }
        return digest
    }

    /// The word order of rounds 2 and 3 (round 1 reads the words in order).
    private static let round2Order = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15]
    private static let round3Order = [0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15]
    private static let shifts: [[UInt32]] = [[3, 7, 11, 19], [3, 5, 9, 13], [3, 9, 11, 15]]

    /// The three rounds over one 64-byte block. Each step updates one word from the other
    /// three; rotating the roles after every step makes the next word the updated one.
    private static func compress(_ state: inout (UInt32, UInt32, UInt32, UInt32), _ block: ArraySlice<UInt8>) {
        var words = [UInt32](repeating: 0, count: 16)
        let base = block.startIndex
        for index in 0..<16 {
            let at = base + index * 4
            words[index] = UInt32(block[at]) | UInt32(block[at + 1]) << 8 | UInt32(block[at + 2]) << 16 | UInt32(block[at + 3]) << 24
        }
        var (a, b, c, d) = state
        for step in 0..<48 {
            let round = step / 16, position = step % 16
            let mixed: UInt32, wordIndex: Int, constant: UInt32
            switch round {
            case 0: mixed = (b & c) | (~b & d); wordIndex = position; constant = 0
            case 1: mixed = (b & c) | (b & d) | (c & d); wordIndex = round2Order[position]; constant = 0x5a82_7999
            default: mixed = b ^ c ^ d; wordIndex = round3Order[position]; constant = 0x6ed9_eba1
            }
            let sum = a &+ mixed &+ words[wordIndex] &+ constant
            let shift = shifts[round][position % 4]
            (a, b, c, d) = (d, sum &<< shift | sum &>> (32 - shift), b, c)
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
}
