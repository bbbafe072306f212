/// A feature's logic: a pure function from the current state and an action to
/// the new state and the async work to start.
///
/// Features are plain structs. Async work is never done inside `reduce`; it is
/// returned as an ``Effect`` and its results come back as actions.
///
/// ```swift
/// struct Counter: Reducer {
///     func reduce(into state: inout Int, action: Bool) -> Effect<Bool> {
///         state += action ? 1 : -1
///         return .none
///     }
/// }
/// ```
public protocol Reducer<State, Action> {
    /// The state this reducer evolves.
    associatedtype State
    /// The actions this reducer handles.
    associatedtype Action

    /// Applies `action` to `state` and returns the work to run next.
    ///
    /// Must be pure: the same state and action always give the same new state
    /// and effects, with no side effects of its own.
    func reduce(into state: inout State, action: Action) -> Effect<Action>
}

extension Reducer {
    /// A reducer that runs this one, then `other`, on the same state, and
    /// merges their effects.
    @inlinable
    public func combined<Other: Reducer>(with other: Other) -> CombinedReducer<Self, Other>
    where Other.State == State, Other.Action == Action {
        CombinedReducer(first: self, second: other)
    }
}
