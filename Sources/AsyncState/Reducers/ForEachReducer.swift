extension Reducer {
    /// Runs `element` for the keyed children in `elements` — one child state per
    /// key, for example one loader per row ID — and then this reducer.
    ///
    /// Each key's state is independent: a load of row `7` never supersedes a load
    /// of row `8`. An action for a key that is no longer present is dropped and
    /// reported as stale.
    ///
    /// A child's effects are its own. Its cancel IDs are scoped to its key,
    /// so rows that debounce by one ID (`.debounced(id: "search", …)`) keep
    /// apart, and a parent's `.cancel(id:)` does not reach them. When an
    /// action removes a key, every effect of that child is cancelled — its
    /// load or stream, a debounced or delayed effect, a queued load — so
    /// nothing of it reaches a child added later under the same key. A key
    /// removed and added back within one action is the same child, and keeps
    /// its effects. The removal must be made where `forEach` sees it: by this
    /// reducer or the child, for an action that reaches it — not by a reducer
    /// combined beside it (see <doc:CompositionGuide>).
    ///
    /// The children live in ``KeyedStates``, in order, each found by its key
    /// in one hash (integer keys in a few instructions).
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
    public func forEach<Key: Hashable & Sendable, Element: Reducer>(
        _ elements: WritableKeyPath<State, KeyedStates<Key, Element.State>>,
        action embed: @escaping (Key, Element.Action) -> Action,
        extract: @escaping (Action) -> (Key, Element.Action)?,
        element: () -> Element
    ) -> ForEachReducer<Self, Key, Element> {
        ForEachReducer(parent: self, elements: elements, embed: embed, extract: extract, element: element())
    }
}

/// A parent reducer with keyed children; made by ``Reducer/forEach(_:action:extract:element:)``.
public struct ForEachReducer<Parent: Reducer, Key: Hashable & Sendable, Element: Reducer>: Reducer {
    public typealias Elements = KeyedStates<Key, Element.State>

    @usableFromInline let _parent: Parent
    @usableFromInline let _elements: Projection<Parent.State, Elements>
    @usableFromInline let _embed: (Key, Element.Action) -> Parent.Action
    @usableFromInline let _extract: (Parent.Action) -> (Key, Element.Action)?
    @usableFromInline let _element: Element

    @inlinable
    init(
        parent: Parent,
        elements: WritableKeyPath<Parent.State, Elements>,
        embed: @escaping (Key, Element.Action) -> Parent.Action,
        extract: @escaping (Parent.Action) -> (Key, Element.Action)?,
        element: Element
    ) {
        self._parent = parent
        self._elements = Projection(elements)
        self._embed = embed
        self._extract = extract
        self._element = element
    }

    /// Runs the keyed child an action is for, if it exists, then the parent;
    /// cancels the effects of children the action removed.
    @inlinable
    public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
        // The key set's stamp before and after: equal, no child was removed
        // — a load and a compare, where comparing keys would copy them.
        let stamp = _elements.read(&state) { $0._keySetStamp }
        let effect: Effect<Parent.Action>
        if let (key, elementAction) = _extract(action) {
            let elementEffect = _elements.modify(&state) { reduceElement(key, elementAction, in: &$0) }
            effect = elementEffect.merging(with: _parent.reduce(into: &state, action: action))
        } else {
            effect = _parent.reduce(into: &state, action: action)
        }
        if _elements.read(&state, { $0._keySetStamp }) == stamp { return effect }
        return effect.merging(with: cancelRemoved(in: &state))
    }

    /// Cancels the effects of every child that is not in `state`: run when
    /// an action changed the set of keys.
    @usableFromInline
    func cancelRemoved(in state: inout Parent.State) -> Effect<Parent.Action> {
        let elements = _elements.read(&state) { $0 }
        return Effect(
            .cancelRemoved(
                RemovedChildren(owner: _elements.keyPath) { key in
                    guard let key = key as? Key else { return true }
                    return elements.offset(forKey: key) == nil
                }))
    }

    /// Runs the element reducer on the child at `key` in place: no copy of the
    /// child, and no closure built unless the child returned an effect to wrap.
    @inlinable
    func reduceElement(
        _ key: Key,
        _ action: Element.Action,
        in elements: inout Elements
    ) -> Effect<Parent.Action> {
        let element = self._element
        guard let effect = elements.withMutableValue(forKey: key, { element.reduce(into: &$0, action: action) }) else {
            return Effect.dropped
        }
        if effect.isNone { return Effect(.none, isDropped: effect._isDropped) }
        let embed = self._embed
        return effect.inChild(ChildScope(owner: _elements.keyPath, key: key)).map { embed(key, $0) }
    }
}
