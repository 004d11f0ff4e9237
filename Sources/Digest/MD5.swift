/// A pure-Swift MD5 (RFC 1321), usable incrementally or through the static conveniences.
///
/// ```swift
/// var hasher = MD5()
/// hasher.update(chunk)                // as many times as needed
/// let digest = hasher.finalize()      // 16 bytes
/// let hex = MD5.hexDigest("abc")      // one shot, lower-case hex
/// ```
///
/// MD5 is broken for collision resistance; it is here because HTTP Digest authentication
/// (RFC 7616's default algorithm) and NTLMv2's HMAC-MD5 are defined with it, not for new
/// integrity checks (use `SHA256`). A value type: copying a hasher forks the running state.
public struct MD5: Sendable {
    /// The length of a digest in bytes: 16.
    public static let byteCount = 16

    /// The size of one input block in bytes: 64.
    public static let blockByteCount = 64

    /// The four chaining words A, B, C, D with RFC 1321's initial values.
    private var a: UInt32 = 0x6745_2301, b: UInt32 = 0xefcd_ab89, c: UInt32 = 0x98ba_dcfe, d: UInt32 = 0x1032_5476
    /// Bytes that did not yet fill a whole block (always fewer than 64).
    private var pending: [UInt8] = []
    /// Total bytes hashed so far; the padding ends with it in bits, modulo 2^64, little-endian.
    private var length: UInt64 = 0

    /// Creates a hasher that has hashed no bytes yet.
    public init() {
        pending.reserveCapacity(Self.blockByteCount)
    }

    /// Hashes any sequence of bytes; whole blocks are compressed as soon as they are complete.
    public mutating func update(_ data: some Sequence<UInt8>) {
        for byte in data {
            length &+= 1
            pending.append(byte)
            if pending.count == Self.blockByteCount {
                compress(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Pads the message, returns the 16-byte digest and resets the hasher to its initial
    /// state, so the same variable can hash a new message afterwards.
    public mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % Self.blockByteCount != Self.blockByteCount - 8 { tail.append(0) }
        for shift in stride(from: 0, through: 56, by: 8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength &>> UInt64(shift)))
        }
        var offset = 0
        while offset < tail.count {
            compress(Array(tail[offset..<offset + Self.blockByteCount]))
            offset += Self.blockByteCount
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(Self.byteCount)
        for word in [a, b, c, d] {
            for shift in stride(from: 0, through: 24, by: 8) { digest.append(UInt8(truncatingIfNeeded: word &>> UInt32(shift))) }
        }
        self = MD5()
        return digest
    }

    /// The 16-byte MD5 digest of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = MD5()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The MD5 digest of `bytes` as 32 lower-case hex characters.
    public static func hexDigest(_ bytes: some Sequence<UInt8>) -> String {
        SHA256.hexString(hash(bytes))
    }

    /// The MD5 digest of the UTF-8 bytes of `string` as 32 lower-case hex characters.
    public static func hexDigest(_ string: String) -> String {
        SHA256.hexString(hash(Array(string.utf8)))
    }

    /// HMAC-MD5 (RFC 2104) of `message` under `key`: 16 bytes. NTLMv2 is built on it.
    public static func authenticationCode(for message: some Sequence<UInt8>, key: some Sequence<UInt8>) -> [UInt8] {
        var keyBlock = Array(key)
        if keyBlock.count > blockByteCount { keyBlock = hash(keyBlock) }
        keyBlock += [UInt8](repeating: 0, count: blockByteCount - keyBlock.count)
        var inner = MD5()
        inner.update(keyBlock.map { $0 ^ 0x36 })
        inner.update(Array(message))
        var outer = MD5()
        outer.update(keyBlock.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
    }

    /// Per-round left-rotation amounts (RFC 1321 §3.4).
    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]

    /// The sine table T[i] = floor(2^32 × |sin(i + 1)|).
    private static let sines: [UInt32] = [
        0xd76a_a478, 0xe8c7_b756, 0x2420_70db, 0xc1bd_ceee, 0xf57c_0faf, 0x4787_c62a, 0xa830_4613, 0xfd46_9501,
        0x6980_98d8, 0x8b44_f7af, 0xffff_5bb1, 0x895c_d7be, 0x6b90_1122, 0xfd98_7193, 0xa679_438e, 0x49b4_0821,
        0xf61e_2562, 0xc040_b340, 0x265e_5a51, 0xe9b6_c7aa, 0xd62f_105d, 0x0244_1453, 0xd8a1_e681, 0xe7d3_fbc8,
        0x21e1_cde6, 0xc337_07d6, 0xf4d5_0d87, 0x455a_14ed, 0xa9e3_e905, 0xfcef_a3f8, 0x676f_02d9, 0x8d2a_4c8a,
        0xfffa_3942, 0x8771_f681, 0x6d9d_6122, 0xfde5_380c, 0xa4be_ea44, 0x4bde_cfa9, 0xf6bb_4b60, 0xbebf_bc70,
        0x289b_7ec6, 0xeaa1_27fa, 0xd4ef_3085, 0x0488_1d05, 0xd9d4_d039, 0xe6db_99e5, 0x1fa2_7cf8, 0xc4ac_5665,
        0xf429_2244, 0x432a_ff97, 0xab94_23a7, 0xfc93_a039, 0x655b_59c3, 0x8f0c_cc92, 0xffef_f47d, 0x8584_5dd1,
        0x6fa8_7e4f, 0xfe2c_e6e0, 0xa301_4314, 0x4e08_11a1, 0xf753_7e82, 0xbd3a_f235, 0x2ad7_d2bb, 0xeb86_d391,
    ]

    /// Runs the four rounds over one 64-byte block.
    private mutating func compress(_ block: [UInt8]) {
        var words = [UInt32](repeating: 0, count: 16)
        for index in 0..<16 {
            let base = index * 4
            words[index] = UInt32(block[base]) | UInt32(block[base + 1]) << 8
                | UInt32(block[base + 2]) << 16 | UInt32(block[base + 3]) << 24
        }
        var aa = a, bb = b, cc = c, dd = d
        for step in 0..<64 {
            let mixed: UInt32
            let wordIndex: Int
            switch step {
            case 0..<16: mixed = (bb & cc) | (~bb & dd); wordIndex = step
            case 16..<32: mixed = (dd & bb) | (~dd & cc); wordIndex = (5 * step + 1) % 16
            case 32..<48: mixed = bb ^ cc ^ dd; wordIndex = (3 * step + 5) % 16
            default: mixed = cc ^ (bb | ~dd); wordIndex = (7 * step) % 16
            }
            let sum = aa &+ mixed &+ Self.sines[step] &+ words[wordIndex]
            let shift = Self.shifts[step]
            aa = dd
            dd = cc
            cc = bb
            bb = bb &+ (sum &<< shift | sum &>> (32 - shift))
        }
        a &+= aa; b &+= bb; c &+= cc; d &+= dd
    }
}
