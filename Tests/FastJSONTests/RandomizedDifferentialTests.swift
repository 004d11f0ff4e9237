import FastJSON
import Foundation
import TestSupport
import Testing

/// Random shapes and random documents around them, decoded by both
/// decoders: outcomes must match. Seeded and bounded so a failure reproduces
/// and the suite stays within a couple of seconds.
@Suite("Randomized differential")
struct RandomizedDifferentialTests {
    @Test("Random documents against random shapes", arguments: [0x5EED_0001, 0x5EED_0002, 0x5EED_0003, 0x5EED_0004] as [UInt64])
    func randomDocuments(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let key = try #require(Shape.userInfoKey)
        var failures = 0
        var decodedBoth = 0
        for round in 0..<600 {
            let shape = Shape.random(depth: 3, using: &rng)
            let document = Data(RandomDocument.make(for: shape, using: &rng))
            var settings = Equivalence.Settings()
            settings.userInfo = [key: shape]
            if round % 5 == 0 { settings.keys = .convertFromSnakeCase }
            let (foundation, fast) = Equivalence.outcomes(ShapedRoot.self, document, settings)
            if !foundation.isFailure { decodedBoth += 1 }
            if foundation != fast {
                failures += 1
                if failures <= 5 {
                    Issue.record("""
                        seed \(seed) round \(round), shape \(shape)
                        document: \(String(decoding: document, as: UTF8.self))
                          Foundation: \(foundation)
                          FastJSON:   \(fast)
                        """)
                }
            }
        }
        #expect(failures == 0)
        // The generator must produce mostly decodable documents, or the test proves little.
        #expect(decodedBoth > 100)
    }

    @Test("Random doubles read exactly as Foundation reads them")
    func randomDoubles() {
        var rng = SplitMix64(seed: 0xD0_0B1E)
        var texts: [String] = []
        for _ in 0..<3000 {
            let value = Double(bitPattern: rng.next())
            guard value.isFinite else { continue }
            texts.append("\(value)")
            texts.append(String(format: "%.17g", value))
            texts.append(String(format: "%.25e", value))
            texts.append(String(format: "%.6g", value))
        }
        for _ in 0..<2000 {
            // Short decimals, the common case in real documents.
            texts.append(String(format: "%.\(Int.random(in: 0...6, using: &rng))f", Double.random(in: -1e7...1e7, using: &rng)))
            // Values of everyday magnitude with all their digits.
            let everyday = Double.random(in: -1e6...1e6, using: &rng) * Double(Int.random(in: 1...1000, using: &rng))
            texts.append("\(everyday)")
            texts.append(String(format: "%.17g", everyday))
            texts.append(String(format: "%.19g", everyday / 1e9))
            texts.append(String(format: "%.18e", everyday))
        }
        // Exact ties and near-ties between neighbouring doubles.
        for _ in 0..<1000 {
            let value = Double.random(in: 1...1e15, using: &rng)
            let tie = (Decimal(value) + Decimal(value.nextUp)) / 2
            texts.append("\(tie)")
            texts.append("\(UInt64(value) * 1000 + 500)e-3")
        }
        for chunk in stride(from: 0, to: texts.count, by: 50) {
            let json = "[" + texts[chunk..<min(chunk + 50, texts.count)].joined(separator: ",") + "]"
            Equivalence.expectSame(Fixtures.DoubleBits.self, json)
        }
        // Whole documents fail on the first unreadable value, so check singly too.
        for text in texts.prefix(2000) {
            Equivalence.expectSame(Double.self, text)
        }
    }

    @Test("Random floats read exactly as Foundation reads them")
    func randomFloats() {
        var rng = SplitMix64(seed: 0xF1_0A7)
        var texts: [String] = []
        for _ in 0..<3000 {
            let value = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
            guard value.isFinite else { continue }
            texts.append("\(value)")
            texts.append(String(format: "%.9g", Double(value)))
            texts.append(String(format: "%.20e", Double(value)))
            // Halfway-ish cases: a double text near a float.
            texts.append("\(Double(value).nextUp)")
        }
        for text in texts {
            Equivalence.expectSame(Float.self, text)
        }
    }
}
