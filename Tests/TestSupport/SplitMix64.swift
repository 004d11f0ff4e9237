/// A small seeded generator so randomized tests are reproducible.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (with the slight modulo bias a test can live with).
    public mutating func next(below bound: UInt64) -> UInt64 {
        next() % bound
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < p
    }

    /// One of `options`, which must not be empty.
    public mutating func pick<T>(_ options: [T]) -> T {
        options[Int.random(in: 0..<options.count, using: &self)]
    }
}
