/// The reducer behind ``AsyncValue``: a ``Loadable`` driven by requests that
/// carry their own load effect, so `AsyncValue` shares the runtime's single
/// code path for generations and stale drops.
///
/// Inlinable, like the store's runner, so ``AsyncValue`` builds its store in
/// client code with this reducer specialized.
@usableFromInline
struct AsyncValueFeature<Value: Equatable, Failure: Equatable>: Reducer {
    @usableFromInline typealias State = Loadable<Value, Failure>

    @usableFromInline
    enum Action {
        case load(OverlapPolicy, Effect<Action>)
        case loaded(LoadAction<Value, Failure>)
        case cancel
        /// Every caller of load `id` left: cancel it, and if it is the load in
        /// flight, return to the settled state now, as ``cancel`` does.
        case abandon(LoadID)
        case reset
        case setValue(Value)
        case clearError
    }

    /// Marks the loads waiting in a queue (``OverlapPolicy/queue``).
    @usableFromInline
    struct Queued: Hashable, Sendable {
        @inlinable init() {}
    }

    @inlinable init() {}

    @inlinable
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
        case .abandon(let id):
            // A superseded load no longer decides the state; only its work is left to stop.
            if id == state.inFlightID { _ = state.cancel() }
            return .cancel(load: id)
        case .reset:
            return .merge(.cancel(load: state.reset()), .cancel(id: Queued()))
        case .setValue(let value):
            state.setValue(value)
            return .none
        case .clearError:
            state.clearError()
            return .none
        }
    }
}

extension Loadable {
    /// Forgets the failure of the last settled load: the state it settled in
    /// becomes the last value's `.success`, or `.notLoaded` without one. A
    /// load in flight goes on, and cancelling it now returns to that state
    /// instead of the failure.
    ///
    /// - Returns: the failure forgotten, or `nil` if the settled state was not
    ///   a failure (nothing changes then).
    @inlinable
    @discardableResult
    package mutating func clearError() -> Failure? {
        guard case .error(let failure) = _settledState else { return nil }
        let cleared: AsyncState<Value, Failure> = _value.map { .success(value: $0) } ?? .notLoaded
        _settledState = cleared
        if _inFlightID == nil { _state = cleared }
        return failure
    }
}
