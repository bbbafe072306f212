import Foundation
import Testing

/// Which sequences a randomized model check plays: a seed, and how many.
/// `ASYNCSTATE_SEED` replays a run (sequence `i` is seeded with seed + i, so
/// a failure's own seed replays it alone with `ASYNCSTATE_SEQUENCES=1`);
/// `ASYNCSTATE_SEQUENCES` sets the count. Without them, each run draws a new seed.
package struct RandomizedRun {
    package let seed: UInt64
    package let count: Int

    /// - Parameters:
    ///   - maximum: the most sequences `ASYNCSTATE_SEQUENCES` may ask for — for a check whose
    ///     steps are slow under the thread sanitizer, which CI runs with 10,000.
    ///   - sanitizedMaximum: the most sequences under the thread sanitizer (CI sets
    ///     `ASYNCSTATE_SANITIZED`), for a check whose steps are so slow there that its own count
    ///     alone would set the length of CI's sanitized run. The plain and optimized runs play
    ///     the full count; the sanitized one looks for races, which a few hundred sequences of
    ///     real tasks reach as well — and which a check of pure reducers on one thread cannot
    ///     have, so those play 1,000 there.
    package init(defaultCount: Int, maximum: Int = .max, sanitizedMaximum: Int = .max) {
        let environment = ProcessInfo.processInfo.environment
        seed = environment["ASYNCSTATE_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        let cap = environment["ASYNCSTATE_SANITIZED"] == nil ? maximum : min(maximum, sanitizedMaximum)
        count = min(environment["ASYNCSTATE_SEQUENCES"].flatMap(Int.init) ?? defaultCount, cap)
    }

    /// Whether CI runs this under the thread sanitizer (`ASYNCSTATE_SANITIZED`).
    package static var isSanitized: Bool { ProcessInfo.processInfo.environment["ASYNCSTATE_SANITIZED"] != nil }

    /// Plays sequences 0, 1, … of this run, each with its own seed, until
    /// `play` reports a problem; records it with how to replay that sequence
    /// alone, and stops. Gives the thread back every few milliseconds
    /// (``TimeSlice``) so that tests running alongside go on.
    ///
    /// - Returns: whether every sequence passed.
    @discardableResult
    package nonisolated(nonsending) func playSequences(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ play: (_ seed: UInt64) async -> String?
    ) async -> Bool {
        var slice = TimeSlice()
        for sequence in 0..<count {
            await slice.yieldIfSpent()
            let sequenceSeed = seed &+ UInt64(sequence)
            if let problem = await play(sequenceSeed) {
                Issue.record(
                    Comment(rawValue: "\(problem)\nReplay with ASYNCSTATE_SEED=\(sequenceSeed) ASYNCSTATE_SEQUENCES=1"),
                    sourceLocation: sourceLocation)
                return false
            }
        }
        return true
    }
}
