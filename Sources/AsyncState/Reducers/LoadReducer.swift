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
    /// store when the action was dropped as stale, and cancels the work a
    /// start supersedes — the load in flight (unless it asked to keep
    /// running), the loads queued before it, and a paged list's "load more".
    @inlinable
    public mutating func reduce<Action>(_ action: LoadAction<Value, Failure>) -> Effect<Action> {
        let superseded = _inFlightID
        guard _layers == nil else { return reduceWithLayers(action) }
        switch apply(action) {
        case .dropped:
            return Effect.dropped
        case .applied:
            guard case .started(let newer) = action, let superseded, superseded != newer else { return .none }
            return Effect(.cancelLoad(superseded, supersededBy: newer))
        }
    }

    /// ``reduce(_:)`` once a layer is in use: a start may also supersede
    /// queued loads and a "load more", or a "load more" the one before it.
    @inlinable
    @inline(never)
    mutating func reduceWithLayers<Action>(_ action: LoadAction<Value, Failure>) -> Effect<Action> {
        let superseded = _inFlightID
        let queued = queuedIDs
        let more = moreID
        guard apply(action) == .applied else { return Effect.dropped }
        switch action {
        case .started(let newer):
            // Built in a loop, and merged only when not empty: the everyday
            // start supersedes nothing, and then allocates nothing.
            var cancels: [Effect<Action>] = []
            // A queued load's turn: it starts from the value shown now.
            if queued.contains(newer) { cancels.append(Effect(.startFrom(newer, _value as Any))) }
            if let superseded, superseded != newer { cancels.append(Effect(.cancelLoad(superseded, supersededBy: newer))) }
            for id in queued where id < newer && !queuedIDs.contains(id) {
                cancels.append(Effect(.cancelLoad(id, supersededBy: newer)))
            }
            if let more, moreID == nil { cancels.append(Effect(.cancelLoad(more, supersededBy: newer))) }
            return cancels.isEmpty ? .none : .merge(cancels)
        case .more(_, .started(let newer)):
            guard let more, more != newer else { return .none }
            return Effect(.cancelLoad(more, supersededBy: newer))
        default:
            return .none
        }
    }
}
