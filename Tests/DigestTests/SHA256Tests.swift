import Digest
import Foundation
import Testing

@Suite("SHA-256")
struct SHA256Tests {
    @Test("NIST short vectors", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func nistVectors(message: String, expected: String) {
        #expect(SHA256.hexDigest(message) == expected)
        #expect(SHA256.hexDigest(Data(message.utf8)) == expected)
        #expect(SHA256.hexDigest(Array(message.utf8)) == expected)
    }

    @Test("one million 'a' fed in uneven chunks")
    func millionA() {
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        var hasher = SHA256()
        var offset = 0
        var chunk = 1
        while offset < message.count {
            let end = min(offset + chunk, message.count)
            message[offset..<end].withUnsafeBytes { hasher.update($0) }
            offset = end
            chunk = (chunk * 7 + 3) % 1_000 + 1
        }
        #expect(SHA256.hexString(hasher.finalize()) == expected)
        #expect(SHA256.hexDigest(message) == expected)
    }

    @Test("padding boundaries", arguments: [
        (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
        (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
        (120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
        (127, "c57e9278af78fa3cab38667bef4ce29d783787a2f731d4e12200270f0c32320a"),
        (128, "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e"),
    ])
    func boundaries(count: Int, expected: String) {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: count)
        #expect(SHA256.hexDigest(message) == expected)
        // Byte by byte exercises the pending-block path at every offset.
        var hasher = SHA256()
        for byte in message { hasher.update(CollectionOfOne(byte)) }
        #expect(SHA256.hexString(hasher.finalize()) == expected)
    }

    @Test("non-contiguous sequences hash like their bytes")
    func nonContiguous() {
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let lazy = bytes.lazy.map { $0 }
        #expect(SHA256.hash(lazy) == SHA256.hash(bytes))
        #expect(SHA256.hash(Data(bytes)) == SHA256.hash(bytes))
    }

    @Test("finalize resets and copies fork the state")
    func resetAndFork() {
        var hasher = SHA256()
        hasher.update(Array("ab".utf8))
        var fork = hasher
        hasher.update(Array("c".utf8))
        #expect(SHA256.hexString(hasher.finalize()) == SHA256.hexDigest("abc"))
        #expect(SHA256.hexString(fork.finalize()) == SHA256.hexDigest("ab"))
        // After finalize the hasher starts over.
        #expect(SHA256.hexString(hasher.finalize()) == SHA256.hexDigest(""))
        #expect(hasher.finalize().count == SHA256.byteCount)
    }
}
