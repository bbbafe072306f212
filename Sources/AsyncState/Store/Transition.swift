/// One action processed by a ``Store``: the action, the state after it, and
/// whether it was dropped as stale.
///
/// Observe transitions with ``Store/observeTransitions(_:)`` to build logs,
/// timelines and snapshot tests.
public struct Transition<State, Action> {
    /// The action the store processed.
    public let action: Action
    /// The store's state right after the action.
    public let state: State
    /// Whether the action was ignored because it was about a superseded load
    /// (or a child that no longer exists).
    public let isDropped: Bool

    /// Creates a transition record.
    public init(action: Action, state: State, isDropped: Bool) {
        self.action = action
        self.state = state
        self.isDropped = isDropped
    }
}

extension Transition: Sendable where State: Sendable, Action: Sendable {}
extension Transition: Equatable where State: Equatable, Action: Equatable {}
