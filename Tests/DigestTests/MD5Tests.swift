import Digest
import Testing

@Suite("MD5, MD4 and HMAC-MD5")
struct MD5Tests {
    /// RFC 1321 appendix A.5.
    @Test("RFC 1321 test suite", arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        ("12345678901234567890123456789012345678901234567890123456789012345678901234567890",
         "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func rfc1321(message: String, expected: String) {
        #expect(MD5.hexDigest(message) == expected)
        // Byte by byte crosses every block boundary through the pending buffer.
        var hasher = MD5()
        for byte in message.utf8 { hasher.update(CollectionOfOne(byte)) }
        #expect(SHA256.hexString(hasher.finalize()) == expected)
    }

    @Test("padding boundaries agree with one-shot and chunked hashing", arguments: [55, 56, 63, 64, 65, 119, 120, 128])
    func boundaries(count: Int) {
        let message = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var hasher = MD5()
        hasher.update(message.prefix(count / 3))
        hasher.update(message.dropFirst(count / 3))
        #expect(hasher.finalize() == MD5.hash(message))
        // A finalized hasher starts over.
        hasher.update(Array("abc".utf8))
        #expect(SHA256.hexString(hasher.finalize()) == "900150983cd24fb0d6963f7d28e17f72")
    }

    /// RFC 1320 appendix A.5.
    @Test("RFC 1320 MD4 test suite", arguments: [
        ("", "31d6cfe0d16ae931b73c59d7e0c089c0"),
        ("a", "bde52cb31de33e46245e05fbdbd6fb24"),
        ("abc", "a448017aaf21d8525fc10ae87aa6729d"),
        ("message digest", "d9130a8164549fe818874806e1c7014b"),
        ("abcdefghijklmnopqrstuvwxyz", "d79e1c308aa5bbcdeea8ed63df412da9"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "043f8582f241db351ce627e153e7f0e4"),
        ("12345678901234567890123456789012345678901234567890123456789012345678901234567890",
         "e33b4ddc9c38f2199c3e7b164fcc0536"),
    ])
    func rfc1320(message: String, expected: String) {
        #expect(SHA256.hexString(MD4.hash(Array(message.utf8))) == expected)
    }

    /// RFC 2202 §2, test cases 1, 2 and 6 (a key longer than a block is hashed first).
    @Test("RFC 2202 HMAC-MD5 vectors")
    func hmac() {
        #expect(SHA256.hexString(MD5.authenticationCode(for: Array("Hi There".utf8), key: [UInt8](repeating: 0x0b, count: 16)))
            == "9294727a3638bb1c13f48ef8158bfc9d")
        #expect(SHA256.hexString(MD5.authenticationCode(for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8)))
            == "750c783e6ab0b503eaa86e310a5db738")
        #expect(SHA256.hexString(MD5.authenticationCode(
            for: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8), key: [UInt8](repeating: 0xaa, count: 80)))
            == "6b1ab7fe4bd7bf8f0b62e6ce61b9d0cd")
    }
}
