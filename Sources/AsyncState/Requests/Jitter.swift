/// Randomness added to each backoff wait, so that many clients that failed
/// together do not retry together.
///
/// The random numbers come from a generator you pass in: a seeded one in
/// tests and demos makes every wait reproducible. The draw happens in the
/// load's effect, not in the reducer, so a reducer that starts a load with
/// jitter stays pure (a `TestStore` with `checksPurity` passes).
///
/// ```swift
/// let policy = RetryPolicy<FeedError>(
///     attempts: 4, backoff: .exponential(initial: .seconds(1), maximum: .seconds(20)),
///     jitter: .proportional(0.5, using: SystemRandomNumberGenerator()))
/// ```
public struct Jitter: Sendable, CustomStringConvertible {
    @usableFromInline let _fraction: Double
    let source: RandomSource?

    /// No randomness: every wait is the backoff's.
    public static var none: Jitter { Jitter(_fraction: 0, source: nil) }

    /// Shortens each wait by a random share of up to `fraction` of it: a wait
    /// `w` becomes one between `w × (1 − fraction)` and `w` (to the
    /// millisecond), so jitter never
    /// waits past the backoff's maximum. `fraction` is clamped to `0...1`
    /// (not a number counts as 0).
    public static func proportional(_ fraction: Double, using generator: some RandomNumberGenerator & Sendable) -> Jitter {
        let fraction = fraction > 0 ? min(fraction, 1) : 0
        return Jitter(_fraction: fraction, source: fraction > 0 ? RandomSource(generator) : nil)
    }

    /// `wait`, shortened by a random share and rounded to the millisecond,
    /// so waits read well in logs and timelines.
    @usableFromInline
    @MainActor
    func apply(to wait: Duration) -> Duration {
        guard let source else { return wait }
        let milliseconds = wait.seconds * (1 - _fraction * source.nextUnit()) * 1_000
        // Past 2^53 ms (285,000 years) a double no longer holds whole
        // milliseconds, and an `Int64` conversion further up would trap.
        guard milliseconds < 0x1p53 else { return wait }
        // Rounded up, 1.5 ms would wait 2: never past the wait itself.
        return min(.milliseconds(Int64(milliseconds.rounded())), wait)
    }

    /// `none` or `proportional(0.5)`.
    public var description: String { source == nil ? "none" : "proportional(\(_fraction))" }
}

/// A random number generator shared by every load that uses one policy,
/// drawn from on the main actor, where load effects run.
@MainActor
final class RandomSource: Sendable {
    private var generator: any RandomNumberGenerator & Sendable

    nonisolated init(_ generator: some RandomNumberGenerator & Sendable) {
        self.generator = generator
    }

    /// A number in `0..<1`, from the generator's top 53 bits.
    func nextUnit() -> Double {
        Double(generator.next() >> 11) * 0x1p-53
    }
}
