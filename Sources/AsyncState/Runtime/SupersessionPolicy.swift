/// What happens to a load's work when a newer load of the same resource starts.
public enum SupersessionPolicy: Hashable, Sendable {
    /// Cancel the older load's task: its result could never be shown anyway.
    case cancel
    /// Let the older load run to the end; its result is dropped as stale.
    /// Useful when the work has side effects that must complete.
    case keepRunning
}
