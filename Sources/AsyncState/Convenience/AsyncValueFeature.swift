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

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .load(let overlap, let load):
            if state.isLoading, !overlap.startsWhileLoading { return .none }
            return load
        case .loaded(let load):
            return state.reduce(load)
        case .cancel:
            return .cancel(load: state.cancel())
        case .reset:
            return .cancel(load: state.reset())
        case .setValue(let value):
            state.setValue(value)
            return .none
        }
    }
}
