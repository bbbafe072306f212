/// The reducer of a shared keyed cache: one entry and one load in flight per
/// key, shared by every user of that key, kept while anyone uses it and
/// collected some time after the last user leaves — or after the edit of it
/// still in flight then settles. The cache learns that an edit settled from
/// the edit's actions, so route them through ``CacheAction/entry(_:_:)``, as
/// ``CacheState/update(_:_:)`` shows.
///
/// Every entry is a ``Loadable`` — of any shape: a paged list caches its
/// pages, at most `window:` of them if the reducer is made with one — so the
/// cache keeps each promise of a single ``Loadable`` per key
/// and every layer works on an entry: freshness, edits, retries, streams.
/// Time comes from `clock`, read only by the effects this reducer returns and
/// by whoever sends the actions.
///
/// ```swift
/// Scope(state: \.users, action: Action.users, extract: { if case .users(let action) = $0 { action } else { nil } }) {
///     CacheReducer(clock: clock, staleAfter: .seconds(30)) { id in
///         LoadRequest { () async throws(APIError) in try await api.user(id) }
///     }
/// }
/// ```
///
/// | what | TanStack Query | here |
/// |---|---|---|
/// | how long a value counts as fresh | `staleTime` | `staleAfter` |
/// | how long an unused entry stays | `gcTime` | `collectAfter` |
/// | mark stale and reload | `invalidateQueries` | ``CacheAction/invalidate(_:)``, ``CacheAction/invalidateAll(where:)`` |
/// | refetch on focus / reconnect | `refetchOnWindowFocus` | ``CacheAction/refetchStale(at:)`` from ``Effect/triggers(id:_:clock:action:)`` |
/// | prefetch | `prefetchQuery` | ``CacheAction/prefetch(_:at:)`` |
/// | the most pages an infinite list keeps | `maxPages` | `window:`, for a cache of ``Pages`` |
/// | write one entry | `setQueryData`, `onMutate` | ``CacheState/update(_:_:)`` with `setValue(_:at:)` or `edit` |
public struct CacheReducer<Key: Hashable & Sendable, Value: Equatable, Failure: Error & Equatable>: Reducer {
    public typealias State = CacheState<Key, Value, Failure>
    public typealias Action = CacheAction<Key, Value, Failure>

    let clock: LoadClock
    let staleAfter: Duration
    let collectAfter: Duration
    let capacity: Int
    let request: (Key) -> LoadRequest<Value, Failure>
    /// What a new entry starts as: empty, or a paged list with its window.
    var newEntry: () -> Loadable<Value, Failure> = { Loadable() }

    /// Creates the reducer.
    ///
    /// - Parameters:
    ///   - clock: the clock effects read, stamp and sleep on; a test clock in tests.
    ///   - staleAfter: how long a value counts as fresh. Zero or less: every
    ///     value is stale, so each new user and each trigger reloads it.
    ///   - collectAfter: how long an entry stays after its last user leaves.
    ///     Zero or less: it is removed at once (its load, if any, cancelled).
    ///   - capacity: at most this many entries are kept; beyond it, the entry
    ///     unused the longest is evicted first. Entries in use are never
    ///     evicted, so the cache can exceed it while more keys are in use.
    ///   - request: the load of one key; stamped by `clock` unless it has a
    ///     clock of its own.
    public init(
        clock: LoadClock,
        staleAfter: Duration,
        collectAfter: Duration = .seconds(300),
        capacity: Int = .max,
        request: @escaping (Key) -> LoadRequest<Value, Failure>
    ) {
        self.clock = clock
        self.staleAfter = staleAfter
        self.collectAfter = collectAfter
        self.capacity = max(0, capacity)
        self.request = request
    }

    /// The identity of one key's collection timer.
    struct CollectTimer: Hashable, Sendable {
        let key: Key
    }

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .subscribe(let key, let now):
            // A key not equal to itself (a NaN) could never be found again,
            // to unsubscribe or collect it: dropped (see `Cache.subscribe`).
            guard key == key else { return Effect.dropped }
            return carryOut(state._book.subscribe(key, capacity: capacity, make: newEntry), on: &state, at: now)
        case .prefetch(let key, let now):
            guard key == key else { return Effect.dropped }
            let commands = state._book.prefetch(key, capacity: capacity, collectAfter: collectAfter, make: newEntry)
            return carryOut(commands, on: &state, at: now)
        case .unsubscribe(let key):
            guard let commands = state._book.unsubscribe(key, capacity: capacity, collectAfter: collectAfter) else {
                return Effect.dropped
            }
            return carryOut(commands, on: &state, at: nil)
        case .entry(let key, let action):
            let settlesEdit: Bool = if case .edit = action { true } else { false }
            guard let effect: Effect<Action> = state.update(key, { $0.reduce(action) }) else { return Effect.dropped }
            // An edit's last action may leave an entry that only the edit kept.
            guard settlesEdit else { return effect }
            let commands = state._book.editsSettled(key, capacity: capacity, collectAfter: collectAfter)
            guard !commands.isEmpty else { return effect }
            // The entry went idle: a change, even when the edit's end came
            // after a rollback (`cancel(edit:)`) and was stale, so not
            // reported as dropped. A dropped end carries no work.
            return .merge(effect.isDropped ? .none : effect, carryOut(commands, on: &state, at: nil))
        case .invalidate(let key):
            guard state.update(key, { $0.invalidate() }) != nil else { return Effect.dropped }
            return carryOut(state._book.invalidated(key), on: &state, at: nil)
        case .invalidateAll(let isIncluded):
            return .merge(state.keys.filter(isIncluded).map { reduce(into: &state, action: .invalidate($0)) })
        case .refetchStale(let now):
            return carryOut(state._book.refetchStale(), on: &state, at: now, joins: false)
        case .refetch(let key):
            guard state.users(of: key) > 0 else { return Effect.dropped }
            return state.update(key) { loadable in
                guard loadable.isDueForPollTick else { return Effect.dropped }
                return loadable.load(embed(key), stamped(key))
            } ?? .none
        case .collect(let key, let token):
            guard state._book.idleToken(of: key) == token else { return Effect.dropped }
            // Kept, out of its idle spell, while an edit of it is in flight.
            guard let loadable = state._book.collect(key, token: token) else { return .none }
            return release(loadable)
        }
    }

    /// The effects of `commands`, which the book returned for the state.
    /// `joins`: whether a load in flight is joined, as a subscriber's
    /// `send` waits for it, or only left alone, as a trigger does.
    func carryOut(
        _ commands: [CacheCommand<Key, Loadable<Value, Failure>>], on state: inout State, at now: LoadClock.Instant?,
        joins: Bool = true
    ) -> Effect<Action> {
        .merge(
            commands.map { command in
                switch command {
                case .loadIfNeeded(let key):
                    let effect = state.update(key) { $0.loadIfNeeded(embed(key), stamped(key), maxAge: staleAfter, at: now) } ?? .none
                    return joins ? effect : dropJoin(effect)
                case .reload(let key):
                    return state.update(key) { $0.load(embed(key), stamped(key)) } ?? .none
                case .startTimer(let key, let token):
                    let (clock, delay) = (clock, collectAfter)
                    let timer = Effect<Action>.run { send in
                        try await clock.sleep(for: delay)
                        send(.collect(key, token: token))
                    }
                    return timer.cancellable(id: CollectTimer(key: key), cancelInFlight: true)
                case .cancelTimer(let key):
                    return .cancel(id: CollectTimer(key: key))
                case .release(let loadable):
                    return release(loadable)
                }
            })
    }

    /// Stops the loads of an entry that left the cache.
    func release(_ loadable: Loadable<Value, Failure>) -> Effect<Action> {
        .merge([.cancel(load: loadable.inFlightID), .cancel(load: loadable.moreID)] + loadable.queuedIDs.map { .cancel(load: $0) })
    }

    /// A trigger or poll never waits for a load it did not start.
    func dropJoin(_ effect: Effect<Action>) -> Effect<Action> {
        if case .joinLoad = effect.operation { return .none }
        return effect
    }

    /// How `key`'s load actions reach the cache.
    func embed(_ key: Key) -> (consuming LoadAction<Value, Failure>) -> Action {
        { .entry(key, $0) }
    }

    /// The request of `key`, stamped by the cache's clock unless it has its own.
    func stamped(_ key: Key) -> LoadRequest<Value, Failure> {
        let request = request(key)
        return request.clock == nil ? request.stamped(by: clock) : request
    }
}
