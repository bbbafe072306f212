/// The reducer behind ``AsyncValue``: a ``Loadable`` driven by requests that
/// carry their own load effect, so `AsyncValue` shares the runtime's single
/// code path for generations and stale drops.
struct AsyncValueFeature<Value: Equatable, Failure: Equatable>: Reducer {
    typealias State = Loadable<Value, Failure>

    enum Action {
        case load(OverlapPolicy, Effect<Action>)
        case loaded(LoadAction<Value, Failure>)
        case cancel
        case reset
        case setValue(Value)
    }

    /// Marks the loads waiting in a queue.
    struct Queued: Hashable, Sendable {}

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .load(let overlap, let load):
            guard let inFlightID = state.inFlightID, !overlap.startsWhileLoading else { return load }
            // Queued loads carry an ID of their own so cancelling the value
            // removes them before they start.
            return overlap == .queue ? Effect(.queueLoad(inFlightID, load.cancellable(id: Queued()))) : .none
        case .loaded(let load):
            return state.reduce(load)
        case .cancel:
            return .merge(.cancel(load: state.cancel()), .cancel(id: Queued()))
        case .reset:
            return .merge(.cancel(load: state.reset()), .cancel(id: Queued()))
        case .setValue(let value):
            state.setValue(value)
            return .none
        }
    }
}
