/// What a load or operation does when it is started while an earlier one is
/// still in flight.
public enum OverlapPolicy: Hashable, Sendable {
    /// The new start supersedes the earlier one, whose task is cancelled and
    /// whose result can never appear. The default.
    case latestWins
    /// The new start is ignored while one is in flight — for example a
    /// double-tapped Save button.
    case firstWins
    /// The new caller waits for the one in flight instead of starting another
    /// request, deduplicating identical loads.
    case join
}
