/// A reducer written as a closure, for small features and for glue between
/// composed reducers.
///
/// ```swift
/// let counter = Reduce<Int, Int> { count, delta in
///     count += delta
///     return .none
/// }
/// ```
public struct Reduce<State, Action>: Reducer {
    private let body: (inout State, Action) -> Effect<Action>

    /// Creates a reducer from `body`, which must be pure.
    public init(_ body: @escaping (inout State, Action) -> Effect<Action>) {
        self.body = body
    }

    /// Runs the closure.
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        body(&state, action)
    }
}
