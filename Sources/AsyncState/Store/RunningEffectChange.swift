/// An effect that began or stopped running, as a store tells a test tool
/// through `_onRunningEffectsChange`.
@usableFromInline
package struct RunningEffectChange: Sendable {
    /// The effect's key among the store's running effects.
    package let token: Int
    /// Whether the effect now runs: `false` when it has ended.
    package let isRunning: Bool
    /// The effect this one is a part of — a concatenation's next part, a
    /// queued load's turn — or `nil` when an action's reducer returned it.
    package let partOf: Int?
    /// How many effects run, this one counted if it runs.
    package let count: Int

    /// An effect that began running.
    @usableFromInline
    package init(token: Int, partOf: Int?, count: Int) {
        self.token = token
        self.isRunning = true
        self.partOf = partOf
        self.count = count
    }

    /// An effect that ended.
    @usableFromInline
    package init(endedToken token: Int, count: Int) {
        self.token = token
        self.isRunning = false
        self.partOf = nil
        self.count = count
    }
}
