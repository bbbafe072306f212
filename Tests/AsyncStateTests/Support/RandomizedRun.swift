import Foundation

/// Which sequences a randomized model check plays: a seed, and how many.
/// `ASYNCSTATE_SEED` replays a run (sequence `i` is seeded with seed + i, so
/// a failure's own seed replays it alone with `ASYNCSTATE_SEQUENCES=1`);
/// `ASYNCSTATE_SEQUENCES` sets the count. Without them, each run draws a new seed.
struct RandomizedRun {
    let seed: UInt64
    let count: Int

    init(defaultCount: Int) {
        let environment = ProcessInfo.processInfo.environment
        seed = environment["ASYNCSTATE_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        count = environment["ASYNCSTATE_SEQUENCES"].flatMap(Int.init) ?? defaultCount
    }
}
