import AsyncState

/// How the demo shows one feature: a short text for its state and actions,
/// and which actions are about loads, for the lane diagram.
struct Presenter<State, Action>: Sendable {
    var state: @Sendable (State) -> String
    var action: @Sendable (Action) -> String = { String(describing: $0) }
    var load: @Sendable (Action) -> LoadEvent?
}

/// One load action, stripped of its value: enough to draw a lane.
struct LoadEvent {
    enum Kind: Equatable {
        case started, finished, failed, cancelled
        /// An attempt failed; the next one follows after `wait`.
        case retrying(wait: Duration)
        /// A partial value arrived.
        case progress
    }

    var id: LoadID
    var kind: Kind
    /// What the load is for, when a feature has several (`save`, `delete`).
    var label: String?

    init<Value, Failure>(_ action: LoadAction<Value, Failure>, label: String? = nil) {
        id = action.id
        self.label = label
        kind =
            switch action {
            case .started: .started
            case .finished: .finished
            case .failed: .failed
            case .cancelled: .cancelled
            case .retrying(_, let retry): .retrying(wait: retry.wait)
            case .progress: .progress
            }
    }
}
