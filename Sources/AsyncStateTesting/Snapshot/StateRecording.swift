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
public final class StateRecording<State, Action> {
    private var lines: [String]
    private var previous: FieldList
    private var stepCount = 0

    /// Starts a recording from `initialState`; feed it with ``record(_:)``.
    public init(initialState: State) {
        previous = FieldList(initialState)
        lines = [snapshotHeader, "initial:"]
        lines += String(dumping: initialState).split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
    }

    /// Starts recording every transition of `store` from now on.
    public convenience init(of store: Store<State, Action>) {
        self.init(initialState: store.state)
        store.observeTransitions { [weak self] in self?.record($0) }
    }

    /// Adds one processed action.
    public func record(_ transition: Transition<State, Action>) {
        stepCount += 1
        let action = ValueDump.renderOneLine(transition.action)
        let current = FieldList(transition.state)
        lines.append("")
        if transition.isDropped {
            lines.append("\(stepCount). dropped as stale: \(action)")
        } else {
            lines.append("\(stepCount). \(action)")
        }
        let changes = current.changes(from: previous)
        if changes.isEmpty {
            if !transition.isDropped { lines.append("   (no change)") }
        } else {
            lines.append(contentsOf: changes.map { "   " + $0 })
        }
        previous = current
    }

    /// How many actions were recorded.
    public var count: Int { stepCount }

    /// The recording as text, ending with a newline.
    public var text: String { lines.joined(separator: "\n") + "\n" }
}

/// The first line of every recording; a file without it is not a snapshot.
let snapshotHeader = "# AsyncState state sequence"
