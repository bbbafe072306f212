/// The reducer behind ``AsyncValue``: a ``Loadable`` driven by the same
/// reducer API a feature uses — `load`, `loadMore`, `edit`, `reduce` — so
/// the host has no rule of its own: every overlap decision, gate and layer is
/// the state's.
///
/// Inlinable, like the store's runner, so ``AsyncValue`` builds its store in
/// client code with this reducer specialized.
@usableFromInline
struct AsyncValueFeature<Value: Equatable, Failure: Error & Equatable>: Reducer {
    @usableFromInline typealias State = Loadable<Value, Failure>

    @usableFromInline
    enum Action {
        /// A start — a load, a "load more", an edit — decided and built from
        /// the state by the reducer API. A closure rather than a case per
        /// lane: a case that carried a request made the compiler copy and
        /// destroy every action of this type through value witnesses
        /// (BENCHMARKS.md, step 19), and the closure's context costs less.
        case start((inout State) -> Effect<Action>)
        /// A load of the value lane.
        case load(LoadRequest<Value, Failure>, OverlapPolicy)
        /// A load's action, routed back to the state.
        case loaded(LoadAction<Value, Failure>)
        /// Cancels the load in flight, the loads queued behind it, the "load
        /// more" in flight, and of the loads in `running` — every load whose
        /// work runs — those a newer one superseded but let finish
        /// (``OverlapPolicy/latestWins(cancellingEarlier:)``): all but the
        /// pending edits.
        case cancel(running: [LoadID])
        /// Every caller of load `id` left: cancel it, and if it is the load in
        /// flight, return to the settled state now, as ``cancel`` does.
        case abandon(LoadID)
        /// Returns to `.notLoaded` and stops every lane's work, and of the
        /// loads in `running` those a newer one superseded but let finish.
        case reset(running: [LoadID])
        case setValue(Value, at: LoadClock.Instant?)
        case invalidate
        case clearError
    }

    /// The `embed` of every load the value starts.
    @usableFromInline let _loaded: (consuming LoadAction<Value, Failure>) -> Action
    /// The clock the value stamps its loads with.
    @usableFromInline let _clock: LoadClock?

    @inlinable
    init(loaded: @escaping (consuming LoadAction<Value, Failure>) -> Action, clock: LoadClock?) {
        _loaded = loaded
        _clock = clock
    }

    @inlinable
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .start(let start):
            return start(&state)
        case .load(let request, let overlap):
            return state.load(_loaded, request, overlap: overlap, stampedBy: _clock)
        case .loaded(let load):
            return state.reduce(load)
        case .cancel(let running):
            // The queued loads leave the queue now, not when their runs wake.
            let queued = state.queuedIDs.compactMap { state.cancel(load: $0) }
            // The state knows no superseded load; the store still runs its
            // work. Cancelling a load twice does nothing more.
            let superseded = running.filter { !state.isPending(edit: $0) }
            return .merge(
                [.cancel(load: state.cancel()), .cancel(load: state.cancelMore())] + (queued + superseded).map { .cancel(load: $0) })
        case .abandon(let id):
            // A superseded load no longer decides the state; only its work is
            // left to stop. Any other leaves its lane now — a queued one too,
            // so its caller is no longer counted once it has left.
            _ = state.cancel(load: id)
            return .cancel(load: id)
        case .reset(let running):
            // Every lane's work stops: the loads queued, the "load more", the
            // edits — whose requests, left running, would confirm edits the
            // reset forgot — and the superseded loads the state no longer
            // knows. Cancelling a load twice does nothing more.
            let queued = state.queuedIDs.compactMap { state.cancel(load: $0) }
            let edits = state.pendingEditIDs.compactMap { state.cancel(edit: $0) }
            let more = state.cancelMore()
            let abandoned = [state.reset(), more] + queued + edits + running
            return .merge(abandoned.map { .cancel(load: $0) })
        case .setValue(let value, let now):
            if let now { state.setValue(value, at: now) } else { state.setValue(value) }
            return .none
        case .invalidate:
            state.invalidate()
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
        guard case .failure(let failure) = _settled else { return nil }
        _settled = _value.isSome ? .success : .notLoaded
        return failure
    }
}
