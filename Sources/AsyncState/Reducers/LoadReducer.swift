/// The built-in reducer for one ``Loadable``: applies each ``LoadAction`` with
/// ``Loadable/apply(_:)``, reports stale drops to the store, and cancels the
/// work of a load that a newer one supersedes.
///
/// Compose it with ``Scope`` or ``Reducer/forEach(_:action:extract:element:)``,
/// or call ``Loadable/reduce(_:)`` from your own `switch`:
///
/// ```swift
/// case .profile(let load):
///     return state.profile.reduce(load)
/// ```
public struct LoadReducer<Value: Equatable, Failure: Equatable>: Reducer {
    /// Creates the reducer.
    @inlinable
    public init() {}

    /// Applies `action` with ``Loadable/reduce(_:)``.
    @inlinable
    public func reduce(
        into state: inout Loadable<Value, Failure>,
        action: LoadAction<Value, Failure>
    ) -> Effect<LoadAction<Value, Failure>> {
        state.reduce(action)
    }
}

extension Loadable {
    /// Applies `action` as a reducer step: the effect it returns tells the
    /// store when the action was dropped as stale, and cancels the work of a
    /// superseded load (unless that load asked to keep running).
    @inlinable
    public mutating func reduce<Action>(_ action: LoadAction<Value, Failure>) -> Effect<Action> {
        let superseded = inFlightID
        switch apply(action) {
        case .dropped:
            return Effect.dropped
        case .applied:
            guard case .started(let newer) = action, let superseded else { return .none }
            return Effect(.cancelLoad(superseded, supersededBy: newer))
        }
    }
}
