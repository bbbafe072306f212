/// Two reducers run one after the other over one state; made by
/// ``Reducer/combined(with:)``.
public struct CombinedReducer<First: Reducer, Second: Reducer>: Reducer
where First.State == Second.State, First.Action == Second.Action {
    @usableFromInline let _first: First
    @usableFromInline let _second: Second

    @inlinable
    init(first: First, second: Second) {
        self._first = first
        self._second = second
    }

    /// Runs the first reducer, then the second, and merges their effects.
    @inlinable
    public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
        let firstEffect = _first.reduce(into: &state, action: action)
        let secondEffect = _second.reduce(into: &state, action: action)
        return firstEffect.merging(with: secondEffect)
    }
}
