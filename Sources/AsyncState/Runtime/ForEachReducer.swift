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
    let parent: Parent
    let elements: WritableKeyPath<Parent.State, [Key: Element.State]>
    let embed: @Sendable (Key, Element.Action) -> Parent.Action
    let extract: (Parent.Action) -> (Key, Element.Action)?
    let element: Element

    public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
        guard let (key, elementAction) = extract(action) else {
            return parent.reduce(into: &state, action: action)
        }
        let elementEffect: Effect<Parent.Action>
        if state[keyPath: elements][key] != nil {
            let embed = self.embed
            elementEffect = element
                .reduce(into: &state[keyPath: elements][key]!, action: elementAction)
                .map { embed(key, $0) }
        } else {
            elementEffect = Effect.none.markedDropped()
        }
        return elementEffect.merging(with: parent.reduce(into: &state, action: action))
    }
}
