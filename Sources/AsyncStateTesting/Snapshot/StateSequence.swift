import AsyncState

/// A run of a feature written down step by step — each action, what it
/// changed in the state field by field, and each stale drop — as stable,
/// review-friendly text for snapshot tests.
///
/// ```text
/// # AsyncState state sequence
/// initial:
///   State(profile: …)
///
/// 1. .refresh
///    (no change)
/// 2. .profile(.started(#1))
///    profile.state: .notLoaded → .loading
///    profile.inFlightID: nil → #1
/// 3. dropped as stale: .profile(.finished(#1, 1))
/// ```
@MainActor
public final class StateSequence<State, Action> {
    private var lines: [String]
    private var describer: TransitionDescriber
    private var stepCount = 0

    /// Starts a sequence from `initialState`; feed it with ``append(_:)``.
    public init(initialState: State) {
        describer = TransitionDescriber(initialState: initialState)
        lines = [snapshotHeader, "initial:"]
        lines += String(dumping: initialState).split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
    }

    /// Starts writing down every transition of `store` from now on.
    public convenience init(of store: Store<State, Action>) {
        self.init(initialState: store.state)
        store.observeTransitions { [weak self] in self?.append($0) }
    }

    /// Adds one processed action.
    public func append(_ transition: Transition<State, Action>) {
        stepCount += 1
        let described = describer.describe(transition)
        lines.append("")
        lines.append("\(stepCount). " + described[0])
        lines += described.dropFirst().map { " " + $0 }
    }

    /// How many actions were written down.
    public var count: Int { stepCount }

    /// The sequence as text, ending with a newline.
    public var text: String { lines.joined(separator: "\n") + "\n" }
}

/// The first line of every state sequence; a file without it is not a snapshot.
let snapshotHeader = "# AsyncState state sequence"
