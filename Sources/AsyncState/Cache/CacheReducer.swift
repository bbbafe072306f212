/// The reducer of a shared keyed cache: one entry and one load in flight per
/// key, shared by every user of that key, kept while anyone uses it and
/// collected some time after the last user leaves.
///
/// Every entry is a ``FreshLoadable``, so the cache keeps each promise of a
/// single ``Loadable`` per key — last started wins, cancellation is not
/// failure, the value is kept through reloads and failures — and adds
/// staleness and invalidation. Time comes from `clock`, read only by the
/// effects this reducer returns and by whoever sends the actions.
///
/// ```swift
/// struct App: Reducer {
///     var body: some Reducer<State, Action> {
///         Scope(state: \.users, action: \.users) {
///             CacheReducer(clock: clock, staleAfter: .seconds(30)) { id in try await api.user(id) }
///         }
///     }
/// }
/// ```
///
/// | what | TanStack Query | here |
/// |---|---|---|
/// | how long a value counts as fresh | `staleTime` | `staleAfter` |
/// | how long an unused entry stays | `gcTime` | `collectAfter` |
/// | mark stale and reload | `invalidateQueries` | ``CacheAction/entry(_:_:)`` with `.invalidate`, ``CacheAction/invalidateAll(where:)`` |
/// | refetch on focus / reconnect | `refetchOnWindowFocus` | ``CacheAction/refetchStale(at:)`` from ``Effect/triggers(_:clock:action:)`` |
public struct CacheReducer<Key: Hashable & Sendable, Value: Equatable & SendableMetatype, Failure: Error & Equatable, C: Clock>: Reducer {
    public typealias State = CacheState<Key, Value, Failure, C.Instant>
    public typealias Action = CacheAction<Key, Value, Failure, C.Instant>

    let clock: C
    let staleAfter: C.Duration
    let collectAfter: C.Duration
    let capacity: Int
    let operation: @MainActor @Sendable (Key) async throws(Failure) -> Value

    /// Creates the reducer.
    ///
    /// - Parameters:
    ///   - clock: the clock effects read and sleep on; a test clock in tests.
    ///   - staleAfter: how long a value counts as fresh. Zero or less: every
    ///     value is stale, so each new user and each trigger reloads it.
    ///   - collectAfter: how long an entry stays after its last user leaves.
    ///     Zero or less: it is removed at once (its load, if any, cancelled).
    ///   - capacity: at most this many entries are kept; beyond it, the entry
    ///     unused the longest is evicted first. Entries in use are never
    ///     evicted, so the cache can exceed it while more keys are in use.
    ///   - operation: loads the value of one key.
    public init(
        clock: C,
        staleAfter: C.Duration,
        collectAfter: C.Duration,
        capacity: Int = .max,
        operation: @escaping @MainActor @Sendable (Key) async throws(Failure) -> Value
    ) {
        self.clock = clock
        self.staleAfter = staleAfter
        self.collectAfter = collectAfter
        self.capacity = max(0, capacity)
        self.operation = operation
    }

    /// The identity of one key's collection timer.
    struct CollectTimer: Hashable, Sendable {
        let key: Key
    }

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .subscribe(let key, let now):
            let isNew = state.addUser(key)
            let evicted = isNew ? state.evict(toFit: capacity) : []
            // A read, not an `update`: subscribing changes no loadable, so
            // observers of this key are not told.
            let start: Effect<Action> =
                state[key].map { entry in
                    let fresh = entry.fresh
                    if let id = fresh.inFlightID, !fresh.isOvertaken(id) { return Effect<Action>(.joinLoad(id)) }
                    return fresh.isStale(maxAge: staleAfter, at: now) ? load(key) : .none
                } ?? .none
            return .merge([.cancel(id: CollectTimer(key: key)), start] + evicted.map { .cancel(load: $0.fresh.inFlightID) })
        case .unsubscribe(let key):
            guard let removal = state.removeUser(key) else { return Effect.dropped }
            guard removal.isIdle else { return .none }
            guard collectAfter > .zero else {
                return .cancel(load: state.collect(key, token: removal.token)?.fresh.inFlightID)
            }
            // Over capacity, the entries unused the longest go first — maybe this one.
            var effects = state.evict(toFit: capacity).map { Effect<Action>.cancel(load: $0.fresh.inFlightID) }
            if state[key]?._idleToken == removal.token {
                let (clock, delay, token) = (clock, collectAfter, removal.token)
                let timer = Effect<Action>.run { send in
                    try await clock.sleep(for: delay)
                    send(.collect(key, token: token))
                }
                effects.append(timer.cancellable(id: CollectTimer(key: key), cancelInFlight: true))
            }
            return .merge(effects)
        case .entry(let key, let action):
            return state.update(key) { fresh, users in
                fresh.reduce(action) { users > 0 ? load(key) : .none }
            } ?? Effect.dropped
        case .invalidateAll(let isIncluded):
            let keys = state.keys.filter(isIncluded)
            return .merge(keys.map { reduce(into: &state, action: .entry($0, .invalidate)) })
        case .refetchStale(let now):
            // Reads: a refetch changes nothing until its load starts.
            let effects = state.entries.map { key, entry in
                entry.users > 0 ? entry.fresh.refetchIfStale(maxAge: staleAfter, at: now) { load(key) } : .none
            }
            return .merge(effects)
        case .refetch(let key):
            guard let entry = state[key], entry.users > 0 else { return Effect.dropped }
            if let id = entry.fresh.inFlightID, !entry.fresh.isOvertaken(id) { return .none }
            return load(key)
        case .collect(let key, let token):
            guard let entry = state.collect(key, token: token) else { return Effect.dropped }
            return .cancel(load: entry.fresh.inFlightID)
        }
    }

    /// A load of `key` whose actions are stamped with the clock's time.
    func load(_ key: Key) -> Effect<Action> {
        let operation = operation
        return Effect.load({ Action.entry(key, $0) }, clock: clock) { () async throws(Failure) -> Value in
            try await operation(key)
        }
    }
}
