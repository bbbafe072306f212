/// How strictly a ``TestStore`` checks a feature.
public enum Exhaustivity: Sendable {
    /// Every state change must be asserted in full, every action an effect
    /// sends must be received, and no effect may still run at the end.
    case on
    /// Only what a test asserts is checked: a step's closure must describe
    /// the state truthfully, unasserted actions are skipped, and effects may
    /// outlive the test. For large features where a test cares about a part.
    ///
    /// A closure is given the state the step left, not the one before it,
    /// so it sets what it asserts (`$0.attempts = 2`): a closure that
    /// changes it relatively (`$0.attempts += 1`) describes a state the
    /// step did not leave, and fails.
    case off
}
