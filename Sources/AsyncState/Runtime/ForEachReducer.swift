extension Reducer {
    /// Runs `element` for the keyed children in a dictionary, one child state per
    /// key — for example one loader per row ID — and then this reducer.
    ///
    /// Each key's state is independent: a load of row `7` never supersedes a load
    /// of row `8`. An action for a key that is no longer present is dropped and
    /// reported as stale.
    ///
    /// ```swift
    /// Rows().forEach(\.avatars, action: Action.avatar,
    ///     extract: { if case .avatar(let id, let load) = $0 { (id, load) } else { nil } }) {
    ///     LoadReducer<Image, ImageError>()
    /// }
    /// ```
    @inlinable
    public func forEach<Key: Hashable & Sendable, Element: Reducer>(
        _ elements: WritableKeyPath<State, [Key: Element.State]>,
        action embed: @escaping @Sendable (Key, Element.Action) -> Action,
        extract: @escaping (Action) -> (Key, Element.Action)?,
        element: () -> Element
    ) -> ForEachReducer<Self, Key, Element> {
        ForEachReducer(parent: self, elements: elements, embed: embed, extract: extract, element: element())
    }
}

/// A parent reducer with keyed children; made by ``Reducer/forEach(_:action:extract:element:)``.
public struct ForEachReducer<Parent: Reducer, Key: Hashable & Sendable, Element: Reducer>: Reducer {
    @usableFromInline let parent: Parent
    @usableFromInline let elements: Projection<Parent.State, [Key: Element.State]>
    @usableFromInline let embed: @Sendable (Key, Element.Action) -> Parent.Action
    @usableFromInline let extract: (Parent.Action) -> (Key, Element.Action)?
    @usableFromInline let element: Element

    @inlinable
    init(
        parent: Parent,
        elements: WritableKeyPath<Parent.State, [Key: Element.State]>,
        embed: @escaping @Sendable (Key, Element.Action) -> Parent.Action,
        extract: @escaping (Parent.Action) -> (Key, Element.Action)?,
        element: Element
    ) {
        self.parent = parent
        self.elements = Projection(elements)
        self.embed = embed
        self.extract = extract
        self.element = element
    }

    /// Runs the keyed child an action is for, if it exists, then the parent.
    @inlinable
    public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
        guard let (key, elementAction) = extract(action) else {
            return parent.reduce(into: &state, action: action)
        }
        let elementEffect = elements.modify(&state) { reduceElement(key, elementAction, in: &$0) }
        return elementEffect.merging(with: parent.reduce(into: &state, action: action))
    }

    /// Runs the element reducer on the child at `key` in place: no copy of the
    /// child, and no closure built unless the child returned an effect to wrap.
    @inlinable
    func reduceElement(
        _ key: Key,
        _ action: Element.Action,
        in elements: inout [Key: Element.State]
    ) -> Effect<Parent.Action> {
        // One hash lookup; the child is then mutated in place through the
        // dictionary's `values` view, without being copied out.
        guard let index = elements.index(forKey: key) else {
            return Effect.none.markedDropped()
        }
        let effect = element.reduce(into: &elements.values[index], action: action)
        if effect.isNone { return Effect(.none, isDropped: effect.isDroppedMarker) }
        let embed = self.embed
        return effect.map { embed(key, $0) }
    }
}

