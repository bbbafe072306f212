/// Runs a child reducer on one part of a parent's state, for the actions that
/// belong to it.
///
/// No case-path library is needed: give the enum case that embeds a child
/// action and a closure that extracts it.
///
/// A scoped child is part of its parent for good, so its cancel IDs are the
/// parent's: the parent's `.cancel(id:)` reaches them. The children it keeps
/// in turn (`forEach`, `ifLet`) have IDs of their own, scoped to them.
///
/// ```swift
/// Scope(
///     state: \.settings, action: Action.settings,
///     extract: { if case .settings(let action) = $0 { action } else { nil } }
/// ) {
///     Settings()
/// }
/// ```
public struct Scope<State, Action, Child: Reducer>: Reducer {
    @usableFromInline let _toChildState: Projection<State, Child.State>
    @usableFromInline let _embed: (Child.Action) -> Action
    @usableFromInline let _extract: (Action) -> Child.Action?
    @usableFromInline let _child: Child

    /// Creates a scope that hands the actions `extract` recognises to `child`,
    /// along with the state at `state`; the child's effects are wrapped by `embed`.
    @inlinable
    public init(
        state: WritableKeyPath<State, Child.State>,
        action embed: @escaping (Child.Action) -> Action,
        extract: @escaping (Action) -> Child.Action?,
        child: () -> Child
    ) {
        self._toChildState = Projection(state)
        self._embed = embed
        self._extract = extract
        self._child = child()
    }

    /// Runs the child for actions `extract` recognises; ignores the rest.
    @inlinable
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        guard let childAction = _extract(action) else { return .none }
        let effect = _toChildState.modify(&state) { _child.reduce(into: &$0, action: childAction) }
        if effect.isNone { return Effect(.none, isDropped: effect._isDropped) }
        return effect.throughScope(ChildScope(owner: _toChildState.keyPath, key: nil)).map(_embed)
    }
}
