extension Reducer {
    /// Runs `child` while the optional state at `childState` is present, and
    /// then this reducer.
    ///
    /// An action for the child while its state is `nil` (a sheet already
    /// dismissed, say) is dropped and reported as stale.
    ///
    /// A child's effects are its own: its cancel IDs are scoped to it, and
    /// when an action sets its state to `nil`, every effect of the child is
    /// cancelled — its load, a debounced or delayed effect — so nothing of it
    /// reaches a child presented later in its place. An action that replaces
    /// the child's state with another keeps the effects: to the reducer, the
    /// child is still there. The dismissal must be made where `ifLet` sees it:
    /// by this reducer or the child, for an action that reaches it — not by an
    /// ancestor writing into this state (see <doc:CompositionGuide>).
    @inlinable
    public func ifLet<Child: Reducer>(
        _ childState: WritableKeyPath<State, Child.State?>,
        action embed: @escaping (Child.Action) -> Action,
        extract: @escaping (Action) -> Child.Action?,
        then child: () -> Child
    ) -> IfLetReducer<Self, Child> {
        IfLetReducer(parent: self, childState: childState, embed: embed, extract: extract, child: child())
    }
}

/// A parent reducer with an optional child; made by ``Reducer/ifLet(_:action:extract:then:)``.
public struct IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
    @usableFromInline let _parent: Parent
    @usableFromInline let _childState: Projection<Parent.State, Child.State?>
    @usableFromInline let _embed: (Child.Action) -> Parent.Action
    @usableFromInline let _extract: (Parent.Action) -> Child.Action?
    @usableFromInline let _child: Child

    @inlinable
    init(
        parent: Parent,
        childState: WritableKeyPath<Parent.State, Child.State?>,
        embed: @escaping (Child.Action) -> Parent.Action,
        extract: @escaping (Parent.Action) -> Child.Action?,
        child: Child
    ) {
        self._parent = parent
        self._childState = Projection(childState)
        self._embed = embed
        self._extract = extract
        self._child = child
    }

    /// Runs the child for its actions while its state exists, then the
    /// parent; cancels the child's effects if the action dismissed it.
    @inlinable
    public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
        let wasPresent = _childState.read(&state) { $0 != nil }
        let effect: Effect<Parent.Action>
        if let childAction = _extract(action) {
            let childEffect: Effect<Parent.Action> = _childState.modify(&state) { optional in
                guard optional != nil else { return Effect.dropped }
                let effect = _child.reduce(into: &optional!, action: childAction)
                if effect.isNone { return Effect(.none, isDropped: effect._isDropped) }
                return effect.inChild(ChildScope(owner: _childState.keyPath, key: nil)).map(_embed)
            }
            effect = childEffect.merging(with: _parent.reduce(into: &state, action: action))
        } else {
            effect = _parent.reduce(into: &state, action: action)
        }
        guard wasPresent, _childState.read(&state, { $0 == nil }) else { return effect }
        return effect.merging(with: Effect(.cancelRemoved(RemovedChildren(owner: _childState.keyPath) { _ in true })))
    }
}
