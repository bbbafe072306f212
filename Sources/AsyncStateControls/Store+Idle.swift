import AsyncState

extension Store {
    /// Whether every effect this store runs is asleep on `clock` or waiting
    /// for another of its effects that is still running — so that only
    /// advancing `clock` can make progress. Assumes nothing else sleeps on
    /// `clock`, and that each effect sleeps on it at most once at a time: a
    /// load with a `LoadTimeout` on the same clock sleeps twice (its
    /// operation and its timer), so the store never looks idle — give the
    /// timeout another clock.
    public func isIdle(on clock: TestClock) -> Bool {
        clock.sleeperCount + waitingEffectCount == runningEffectCount
    }

    /// Lets this store's effects run until only advancing `clock` can make
    /// progress, for simulations that step a ``TestClock`` from one deadline to
    /// the next.
    ///
    /// ```swift
    /// while true {
    ///     guard await store.waitUntilIdle(on: clock), let next = clock.nextDeadline else { break }
    ///     clock.advance(to: next)
    /// }
    /// ```
    ///
    /// It waits until ``isIdle(on:)`` holds and then until several rounds of
    /// `Task.yield()` change nothing, so that work already queued on the main
    /// actor runs too. Checking idleness explicitly matters: an effect that
    /// calls `clock.sleep` leaves the main actor to get there, which yielding
    /// alone cannot observe.
    ///
    /// - Parameters:
    ///   - clock: the clock every sleeping effect of this store waits on.
    ///   - maximumRounds: how many yields to allow before giving up; at least
    ///     8, the quiet rounds it counts before it answers `true` — a bound
    ///     below that answers `false`, even for a store that is idle.
    /// - Returns: `false` if the store never became idle within
    ///   `maximumRounds` — an effect is waiting on something other than
    ///   `clock`, such as real time or a network.
    @discardableResult
    public func waitUntilIdle(on clock: TestClock, maximumRounds: Int = 10_000_000) async -> Bool {
        await yieldUntilSettled(
            quietRounds: 8, maximumRounds: maximumRounds,
            fingerprint: { [clock.sleeperCount, self.runningEffectCount, self.waitingEffectCount] },
            isSettled: { self.isIdle(on: clock) })
    }
}

/// Yields until `isSettled` holds after `quietRounds` yields in a row that
/// changed no part of `fingerprint` — so work already queued on the main
/// actor runs too; `false` if that does not happen within `maximumRounds`.
/// The one settling loop of a simulation (`waitUntilIdle`) and of an
/// exploration (after each of its choices).
@MainActor
func yieldUntilSettled(
    quietRounds needed: Int, maximumRounds: Int, fingerprint: () -> [Int], isSettled: () -> Bool
) async -> Bool {
    var last = fingerprint()
    var quietRounds = 0
    // A bound below one allows no round: `false`.
    for _ in 0..<max(0, maximumRounds) {
        if quietRounds >= needed, isSettled() { return true }
        await Task.yield()
        let current = fingerprint()
        if current == last {
            quietRounds += 1
        } else {
            quietRounds = 0
            last = current
        }
    }
    // The last round may be the one that made the quiet rounds enough.
    return maximumRounds > 0 && quietRounds >= needed && isSettled()
}
