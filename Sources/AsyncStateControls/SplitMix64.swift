/// A small, fast random number generator that a seed replays exactly — for
/// randomized tests, simulations and demos that must be reproducible.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let latency = Int.random(in: 50...150, using: &random)   // the same on every run
/// ```
///
/// It is Sebastiano Vigna's SplitMix64: statistically good enough for tests
/// and simulations, and not for anything that needs secrecy.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose numbers are determined by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
