extension FreshLoadable {
    /// Applies `action` as a reducer step and starts the fresh load an
    /// invalidation asks for — at once if nothing is in flight, otherwise
    /// right after the overtaken load settles, whatever its outcome.
    ///
    /// ```swift
    /// case .user(let action):
    ///     return state.user.reduce(action) { state.user.load(Action.user, clock: clock, operation: api.user) }
    /// ```
    ///
    /// - Parameters:
    ///   - action: the load action or invalidation to apply.
    ///   - refetch: builds the load to start; called only when one is due.
    @inlinable
    public mutating func reduce<Action>(
        _ action: FreshAction<Value, Failure, Instant>,
        refetch: () -> Effect<Action>
    ) -> Effect<Action> {
        switch action {
        case .load(let load, let now):
            let superseded = inFlightID
            switch apply(load, at: now) {
            case .dropped:
                return Effect.dropped
            case .applied:
                if case .started(let newer) = load {
                    guard let superseded else { return .none }
                    return Effect(.cancelLoad(superseded, supersededBy: newer))
                }
                return needsRefetch ? refetch() : .none
            }
        case .invalidate:
            invalidate()
            return needsRefetch ? refetch() : .none
        }
    }

    /// Starts `refetch` if the value is stale for `maxAge` at `now` and no load
    /// is in flight — what a refetch trigger (the app became active, the
    /// network came back) does. A load in flight will bring a fresh value, or
    /// is overtaken and followed by one already.
    @inlinable
    public func refetchIfStale<Action>(
        maxAge: Instant.Duration,
        at now: Instant,
        refetch: () -> Effect<Action>
    ) -> Effect<Action> {
        guard !isLoading, isStale(maxAge: maxAge, at: now) else { return .none }
        return refetch()
    }

    /// The ID of the load in flight, if any.
    @inlinable
    public var inFlightID: LoadID? { _loadable.inFlightID }

    /// A load of this resource that honours `overlap` and stamps each of its
    /// actions with `clock.now` — read by the effect, never by the reducer.
    ///
    /// `firstWins` and `join` never hold on to a load that an invalidation has
    /// overtaken: its value is already known to be out of date, so they start
    /// a fresh load instead (which supersedes it).
    @inlinable
    public func load<Action, C: Clock>(
        _ embed: @escaping (FreshAction<Value, Failure, Instant>) -> Action,
        clock: C,
        overlap: OverlapPolicy = .latestWins,
        timeout: LoadTimeout<Failure>? = nil,
        operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) -> Effect<Action> where C.Instant == Instant, Value: SendableMetatype, Failure: Error {
        let start = {
            Effect.load(embed, clock: clock, cancelsEarlier: overlap.cancelsEarlier, timeout: timeout, operation: operation)
        }
        // A load an invalidation has overtaken is not one to join or yield to.
        if let inFlightID, !isOvertaken(inFlightID) { return _loadable.effect(overlapping: overlap, load: start) }
        return start()
    }
}

extension Effect {
    /// Loads a value like ``load(_:timeout:operation:)``, stamping each
    /// ``LoadAction`` with `clock.now` as it is sent, for a ``FreshLoadable``.
    /// Reading the clock here, in the effect, keeps the reducer pure.
    @inlinable
    public static func load<Value: SendableMetatype, Failure: Error & Equatable, C: Clock>(
        _ embed: @escaping (FreshAction<Value, Failure, C.Instant>) -> Action,
        clock: C,
        timeout: LoadTimeout<Failure>? = nil,
        operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) -> Effect {
        load(embed, clock: clock, cancelsEarlier: true, timeout: timeout, operation: operation)
    }

    @inlinable
    static func load<Value: SendableMetatype, Failure: Error & Equatable, C: Clock>(
        _ embed: @escaping (FreshAction<Value, Failure, C.Instant>) -> Action,
        clock: C,
        cancelsEarlier: Bool,
        timeout: LoadTimeout<Failure>?,
        operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) -> Effect {
        makeLoad({ embed(.load($0, at: clock.now)) }, cancelsEarlier: cancelsEarlier, timeout) { id in
            await LoadAction.outcome(of: id, operation)
        }
    }
}
