import Foundation

/// A pure-Swift SHA-256 (FIPS 180-4), usable incrementally or through the static conveniences.
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(data: chunk)          // as many times as needed
/// let digest = hasher.finalize()      // 32 bytes
/// let hex = SHA256.hexDigest(data)    // one shot, lower-case hex
/// ```
///
/// It is a value type: copying a hasher forks the running state (a cheap way to take the
/// digest of a prefix and keep going). A fresh hasher has hashed no bytes.
public struct SHA256: Sendable {
    /// The length of a digest in bytes: 32.
    public static let byteCount = 32

    /// The size of one input block in bytes: 64.
    public static let blockByteCount = 64

    /// The eight working words H0…H7. Kept as stored properties rather than an array so the
    /// compression function works on registers, not on a heap buffer with bounds checks.
    private struct State: Sendable {
        var h0: UInt32 = 0x6a09_e667, h1: UInt32 = 0xbb67_ae85, h2: UInt32 = 0x3c6e_f372, h3: UInt32 = 0xa54f_f53a
        var h4: UInt32 = 0x510e_527f, h5: UInt32 = 0x9b05_688c, h6: UInt32 = 0x1f83_d9ab, h7: UInt32 = 0x5be0_cd19
    }

    private var state = State()
    /// Bytes that did not yet fill a whole block (always fewer than 64).
    private var pending: [UInt8] = []
    /// Total bytes hashed so far; SHA-256 appends it (in bits, modulo 2^64) to the padding.
    private var length: UInt64 = 0

    /// Creates a hasher that has hashed no bytes yet.
    public init() {
        pending.reserveCapacity(Self.blockByteCount)
    }

    /// Hashes `bytes`. The fast path: whole blocks are compressed straight from the buffer,
    /// only a partial block at either end is copied. An empty buffer is a no-op.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var base = bytes.baseAddress, !bytes.isEmpty else { return }
        var remaining = bytes.count
        length &+= UInt64(remaining)

        if !pending.isEmpty {
            let take = Swift.min(Self.blockByteCount - pending.count, remaining)
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: take))
            base += take
            remaining -= take
            if pending.count == Self.blockByteCount {
                let block = pending
                block.withUnsafeBytes { raw in
                    if let start = raw.baseAddress { Self.compress(&state, start, blocks: 1) }
                }
                pending.removeAll(keepingCapacity: true)
            }
        }

        let blocks = remaining / Self.blockByteCount
        if blocks > 0 {
            Self.compress(&state, base, blocks: blocks)
            base += blocks * Self.blockByteCount
            remaining -= blocks * Self.blockByteCount
        }
        if remaining > 0 {
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: remaining))
        }
    }

    /// Hashes the bytes of `data` (contiguous, so this takes the fast path).
    public mutating func update(data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// Hashes the bytes of `data` (contiguous, so this takes the fast path).
    public mutating func update(_ data: Data) {
        update(data: data)
    }

    /// Hashes any sequence of bytes. Contiguous collections (`[UInt8]`, `ArraySlice`, …) take
    /// the fast path; other sequences are copied through a small staging buffer.
    public mutating func update(_ data: some Sequence<UInt8>) {
        let handled: Void? = data.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if handled != nil { return }
        let stagingSize = 4096
        var staging: [UInt8] = []
        staging.reserveCapacity(stagingSize)
        for byte in data {
            staging.append(byte)
            if staging.count == stagingSize {
                staging.withUnsafeBytes { update($0) }
                staging.removeAll(keepingCapacity: true)
            }
        }
        staging.withUnsafeBytes { update($0) }
    }

    /// Pads the message, returns the 32-byte digest and resets the hasher to its initial
    /// state, so the same variable can hash a new message afterwards.
    public mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % Self.blockByteCount != Self.blockByteCount - 8 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength &>> UInt64(shift)))
        }
        tail.withUnsafeBytes { raw in
            if let start = raw.baseAddress { Self.compress(&state, start, blocks: raw.count / Self.blockByteCount) }
        }

        var digest: [UInt8] = []
        digest.reserveCapacity(Self.byteCount)
        for word in [state.h0, state.h1, state.h2, state.h3, state.h4, state.h5, state.h6, state.h7] {
            digest.append(UInt8(truncatingIfNeeded: word &>> 24))
            digest.append(UInt8(truncatingIfNeeded: word &>> 16))
            digest.append(UInt8(truncatingIfNeeded: word &>> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        self = SHA256()
        return digest
    }

    /// The 32-byte SHA-256 digest of `data`.
    public static func hash(_ data: Data) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: data)
        return hasher.finalize()
    }

    /// The 32-byte SHA-256 digest of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The SHA-256 digest of `data` as 64 lower-case hex characters.
    public static func hexDigest(_ data: Data) -> String {
        hexString(hash(data))
    }

    /// The SHA-256 digest of `bytes` as 64 lower-case hex characters.
    public static func hexDigest(_ bytes: some Sequence<UInt8>) -> String {
        hexString(hash(bytes))
    }

    /// The SHA-256 digest of the UTF-8 bytes of `string` as 64 lower-case hex characters.
    public static func hexDigest(_ string: String) -> String {
        hexString(hash(Array(string.utf8)))
    }

    /// `bytes` as lower-case hex, two characters per byte (e.g. a digest from `finalize()`).
    public static func hexString(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(hexDigit(byte >> 4))
            out.append(hexDigit(byte & 0x0f))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The lower-case hex digit of a nibble (0–15), computed: a digit table would be an array
    /// allocated on every call.
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// The 64 round constants: the first 32 bits of the fractional parts of the cube roots of
    /// the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// Runs the compression function over `blocks` consecutive 64-byte blocks at `input`.
    /// Unsafe pointers, wrapping arithmetic, `while` loops and hand-inlined rotations keep it
    /// fast even in debug builds (where a helper or a range loop is a real call per round),
    /// which is how the test suites and the sample server under them run it.
    private static func compress(_ state: inout State, _ input: UnsafeRawPointer, blocks: Int) {
        var h0 = state.h0, h1 = state.h1, h2 = state.h2, h3 = state.h3
        var h4 = state.h4, h5 = state.h5, h6 = state.h6, h7 = state.h7
        roundConstants.withUnsafeBufferPointer { constants in
            guard let k = constants.baseAddress else { return }
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
                guard let w = schedule.baseAddress else { return }
                var block = input
                var remaining = blocks
                while remaining > 0 {
                    var t = 0
                    while t < 16 {
                        w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t &* 4, as: UInt32.self))
                        t &+= 1
                    }
                    while t < 64 {
                        let x = w[t &- 15], y = w[t &- 2]
                        let s0 = (x &>> 7 | x &<< 25) ^ (x &>> 18 | x &<< 14) ^ (x &>> 3)
                        let s1 = (y &>> 17 | y &<< 15) ^ (y &>> 19 | y &<< 13) ^ (y &>> 10)
                        w[t] = w[t &- 16] &+ s0 &+ w[t &- 7] &+ s1
                        t &+= 1
                    }
                    var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
                    // Eight rounds per pass, written out with the variables' roles rotated, so
                    // no round shuffles eight values along; Ch and Maj in their short forms.
                    var t1: UInt32 = 0
                    t = 0
                    while t < 64 {
                        t1 = h &+ ((e &>> 6 | e &<< 26) ^ (e &>> 11 | e &<< 21) ^ (e &>> 25 | e &<< 7))
                            &+ (g ^ (e & (f ^ g))) &+ k[t] &+ w[t]
                        d &+= t1
                        h = t1 &+ ((a &>> 2 | a &<< 30) ^ (a &>> 13 | a &<< 19) ^ (a &>> 22 | a &<< 10))
                            &+ ((a & b) | (c & (a | b)))
                        t1 = g &+ ((d &>> 6 | d &<< 26) ^ (d &>> 11 | d &<< 21) ^ (d &>> 25 | d &<< 7))
                            &+ (f ^ (d & (e ^ f))) &+ k[t &+ 1] &+ w[t &+ 1]
                        c &+= t1
                        g = t1 &+ ((h &>> 2 | h &<< 30) ^ (h &>> 13 | h &<< 19) ^ (h &>> 22 | h &<< 10))
                            &+ ((h & a) | (b & (h | a)))
                        t1 = f &+ ((c &>> 6 | c &<< 26) ^ (c &>> 11 | c &<< 21) ^ (c &>> 25 | c &<< 7))
                            &+ (e ^ (c & (d ^ e))) &+ k[t &+ 2] &+ w[t &+ 2]
                        b &+= t1
                        f = t1 &+ ((g &>> 2 | g &<< 30) ^ (g &>> 13 | g &<< 19) ^ (g &>> 22 | g &<< 10))
                            &+ ((g & h) | (a & (g | h)))
                        t1 = e &+ ((b &>> 6 | b &<< 26) ^ (b &>> 11 | b &<< 21) ^ (b &>> 25 | b &<< 7))
                            &+ (d ^ (b & (c ^ d))) &+ k[t &+ 3] &+ w[t &+ 3]
                        a &+= t1
                        e = t1 &+ ((f &>> 2 | f &<< 30) ^ (f &>> 13 | f &<< 19) ^ (f &>> 22 | f &<< 10))
                            &+ ((f & g) | (h & (f | g)))
                        t1 = d &+ ((a &>> 6 | a &<< 26) ^ (a &>> 11 | a &<< 21) ^ (a &>> 25 | a &<< 7))
                            &+ (c ^ (a & (b ^ c))) &+ k[t &+ 4] &+ w[t &+ 4]
                        h &+= t1
                        d = t1 &+ ((e &>> 2 | e &<< 30) ^ (e &>> 13 | e &<< 19) ^ (e &>> 22 | e &<< 10))
                            &+ ((e & f) | (g & (e | f)))
                        t1 = c &+ ((h &>> 6 | h &<< 26) ^ (h &>> 11 | h &<< 21) ^ (h &>> 25 | h &<< 7))
                            &+ (b ^ (h & (a ^ b))) &+ k[t &+ 5] &+ w[t &+ 5]
                        g &+= t1
                        c = t1 &+ ((d &>> 2 | d &<< 30) ^ (d &>> 13 | d &<< 19) ^ (d &>> 22 | d &<< 10))
                            &+ ((d & e) | (f & (d | e)))
                        t1 = b &+ ((g &>> 6 | g &<< 26) ^ (g &>> 11 | g &<< 21) ^ (g &>> 25 | g &<< 7))
                            &+ (a ^ (g & (h ^ a))) &+ k[t &+ 6] &+ w[t &+ 6]
                        f &+= t1
                        b = t1 &+ ((c &>> 2 | c &<< 30) ^ (c &>> 13 | c &<< 19) ^ (c &>> 22 | c &<< 10))
                            &+ ((c & d) | (e & (c | d)))
                        t1 = a &+ ((f &>> 6 | f &<< 26) ^ (f &>> 11 | f &<< 21) ^ (f &>> 25 | f &<< 7))
                            &+ (h ^ (f & (g ^ h))) &+ k[t &+ 7] &+ w[t &+ 7]
                        e &+= t1
                        a = t1 &+ ((b &>> 2 | b &<< 30) ^ (b &>> 13 | b &<< 19) ^ (b &>> 22 | b &<< 10))
                            &+ ((b & c) | (d & (b | c)))
                        t &+= 8
                    }
                    h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d
                    h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
                    block += 64
                    remaining &-= 1
                }
            }
        }
        state = State(h0: h0, h1: h1, h2: h2, h3: h3, h4: h4, h5: h5, h6: h6, h7: h7)
    }
}
