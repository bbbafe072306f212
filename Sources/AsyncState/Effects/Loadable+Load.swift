extension Loadable {
    /// A load of this resource that honours `overlap`: the pure decision of a
    /// reducer that can see whether a load is already in flight.
    ///
    /// ```swift
    /// case .saveTapped:
    ///     let draft = state.draft   // the closure runs later: capture a copy, not `state`
    ///     return state.save.load(Action.save, overlap: .firstWins) { () async throws(SaveError) in
    ///         try await api.save(draft)
    ///     }
    /// ```
    ///
    /// While a load is in flight, ``OverlapPolicy/firstWins`` returns no work,
    /// ``OverlapPolicy/join`` returns an effect whose ``StoreTask`` waits
    /// for the load in flight, and ``OverlapPolicy/queue`` one that starts the
    /// load once the loads before it have ended; both latest-wins policies start a load that
    /// supersedes it. With nothing in flight every policy starts a load.
    ///
    /// - Parameters:
    ///   - embed: wraps each load action in the feature's action, usually an enum case.
    ///   - overlap: what to do if a load of this resource is in flight.
    ///   - timeout: ends the load with a failure of your choice if it takes too long.
    ///   - operation: the work; its typed error becomes the state's failure.
    @inlinable
    public func load<Action>(
        _ embed: @escaping (LoadAction<Value, Failure>) -> Action,
        overlap: OverlapPolicy,
        timeout: LoadTimeout<Failure>? = nil,
        operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) -> Effect<Action> where Value: SendableMetatype, Failure: Error {
        effect(overlapping: overlap) {
            Effect.makeLoad(embed, cancelsEarlier: overlap.cancelsEarlier, timeout, operation: operation)
        }
    }

    /// A load of this resource that honours `overlap`, for an operation that
    /// throws untyped errors; `mapError` turns each into the state's failure.
    ///
    /// - Parameters:
    ///   - embed: wraps each load action in the feature's action, usually an enum case.
    ///   - overlap: what to do if a load of this resource is in flight.
    ///   - timeout: ends the load with a failure of your choice if it takes too long.
    ///   - mapError: turns an error other than cancellation into the state's failure.
    ///   - operation: the work.
    @inlinable
    public func load<Action>(
        _ embed: @escaping (LoadAction<Value, Failure>) -> Action,
        overlap: OverlapPolicy,
        timeout: LoadTimeout<Failure>? = nil,
        mapError: @escaping (any Error) -> Failure,
        operation: @escaping @MainActor @Sendable () async throws -> Value
    ) -> Effect<Action> where Value: SendableMetatype, Failure: Sendable {
        let mapError = MainActorFunction(mapError)
        return effect(overlapping: overlap) {
            Effect.makeLoad(embed, cancelsEarlier: overlap.cancelsEarlier, timeout) { id in
                await LoadAction.outcome(of: id, operation, mapError: mapError.callAsFunction)
            }
        }
    }

    /// What a start under `overlap` does: `load`, or instead no work, a join
    /// of the load in flight, or `load` queued behind it.
    @inlinable
    func effect<Action>(overlapping overlap: OverlapPolicy, load: () -> Effect<Action>) -> Effect<Action> {
        guard let inFlightID, !overlap.startsWhileLoading else { return load() }
        switch overlap._kind {
        case .join: return Effect(.joinLoad(inFlightID))
        case .queue: return Effect(.queueLoad(inFlightID, load()))
        case .firstWins, .latestWins: return Effect.none
        }
    }
}
