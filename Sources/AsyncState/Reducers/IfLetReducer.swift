extension Reducer {
    /// Runs `child` while the optional state at `childState` is present, and
    /// then this reducer.
    ///
    /// An action for the child while its state is `nil` (a sheet already
    /// dismissed, say) is dropped and reported as stale. The child's effects
    /// run on after it is dismissed, and what they send reaches a child
    /// presented again in its place: a load's result is dropped as stale,
    /// but a load a `debounced` or `delayed` effect starts later is the new
    /// child's. Cancel such work by ID when you dismiss the child.
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

    /// Runs the child for its actions while its state exists, then the parent.
    @inlinable
    public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
        guard let childAction = _extract(action) else {
            return _parent.reduce(into: &state, action: action)
        }
        let childEffect: Effect<Parent.Action> = _childState.modify(&state) { optional in
            guard optional != nil else { return Effect.dropped }
            return _child.reduce(into: &optional!, action: childAction).map(_embed)
        }
        return childEffect.merging(with: _parent.reduce(into: &state, action: action))
    }
}
