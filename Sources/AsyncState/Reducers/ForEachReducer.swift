extension Reducer {
    /// Runs `element` for the keyed children in `elements` — one child state per
    /// key, for example one loader per row ID — and then this reducer.
    ///
    /// Each key's state is independent: a load of row `7` never supersedes a load
    /// of row `8`. An action for a key that is no longer present is dropped and
    /// reported as stale.
    ///
    /// Cancel IDs are the store's, not a key's: a child that cancels by ID —
    /// `cancellable(id:)`, `debounced(id:for:clock:)` — puts its key in the
    /// ID (`.debounced(id: Search(row: id), …)`), or row `8`'s start cancels
    /// row `7`'s. And a child's effects run on after its key is removed:
    /// what they send is dropped while the key is missing, but reaches a
    /// child added again under the same key — so the reducer that removes a
    /// child cancels its deferred work (a `debounced` or `delayed` load, a
    /// queued one) by ID.
    ///
    /// Store the children in ``KeyedStates`` when they have an order or actions
    /// to them are frequent (integer keys are found in a few instructions), or
    /// in a `Dictionary`.
    ///
    /// ```swift
    /// Rows().forEach(
    ///     \.avatars, action: Action.avatar,
    ///     extract: { if case .avatar(let id, let load) = $0 { (id, load) } else { nil } }
    /// ) {
    ///     LoadReducer<Image, ImageError>()
    /// }
    /// ```
    @inlinable
    public func forEach<Elements: KeyedStorage, Element: Reducer>(
        _ elements: WritableKeyPath<State, Elements>,
        action embed: @escaping (Elements.Key, Element.Action) -> Action,
        extract: @escaping (Action) -> (Elements.Key, Element.Action)?,
        element: () -> Element
    ) -> ForEachReducer<Self, Elements, Element> {
        ForEachReducer(parent: self, elements: elements, embed: embed, extract: extract, element: element())
    }
}

/// A parent reducer with keyed children; made by ``Reducer/forEach(_:action:extract:element:)``.
public struct ForEachReducer<Parent: Reducer, Elements: KeyedStorage, Element: Reducer>: Reducer
where Elements.Key: Sendable, Elements.Value == Element.State {
    @usableFromInline let _parent: Parent
    @usableFromInline let _elements: Projection<Parent.State, Elements>
    @usableFromInline let _embed: (Elements.Key, Element.Action) -> Parent.Action
    @usableFromInline let _extract: (Parent.Action) -> (Elements.Key, Element.Action)?
    @usableFromInline let _element: Element

    @inlinable
    init(
        parent: Parent,
        elements: WritableKeyPath<Parent.State, Elements>,
        embed: @escaping (Elements.Key, Element.Action) -> Parent.Action,
        extract: @escaping (Parent.Action) -> (Elements.Key, Element.Action)?,
        element: Element
    ) {
        self._parent = parent
        self._elements = Projection(elements)
        self._embed = embed
        self._extract = extract
        self._element = element
    }

    /// Runs the keyed child an action is for, if it exists, then the parent.
    @inlinable
    public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
        guard let (key, elementAction) = _extract(action) else {
            return _parent.reduce(into: &state, action: action)
        }
        let elementEffect = _elements.modify(&state) { reduceElement(key, elementAction, in: &$0) }
        return elementEffect.merging(with: _parent.reduce(into: &state, action: action))
    }

    /// Runs the element reducer on the child at `key` in place: no copy of the
    /// child, and no closure built unless the child returned an effect to wrap.
    @inlinable
    func reduceElement(
        _ key: Elements.Key,
        _ action: Element.Action,
        in elements: inout Elements
    ) -> Effect<Parent.Action> {
        let element = self._element
        guard let effect = elements.withMutableValue(forKey: key, { element.reduce(into: &$0, action: action) }) else {
            return Effect.dropped
        }
        if effect.isNone { return Effect(.none, isDropped: effect._isDropped) }
        let embed = self._embed
        return effect.map { embed(key, $0) }
    }
}
