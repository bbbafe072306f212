import Observation

/// A shared keyed cache for code that does not write reducers: screens that
/// ask for the same key share one entry and one load in flight, and see the
/// same value.
///
/// ```swift
/// let users = Cache<Int, User, APIError>(clock: ContinuousClock(), staleAfter: .seconds(30)) { id in
///     try await api.user(id)
/// }
/// let subscription = users.subscribe(7)   // loads user 7, or shares the load in flight
/// users[7]?.value                         // observable: SwiftUI re-renders when it settles
/// users.invalidate(7)                     // marks it stale and reloads it
/// subscription.cancel()                   // or let it go; collected `collectAfter` later
/// ```
///
/// It runs a ``CacheReducer`` on a ``Store``, so it is main-actor, observable,
/// and keeps every promise of a ``Loadable`` per key. An entry lives while
/// any ``Subscription`` to it is active and is collected `collectAfter` on
/// `clock` after the last one ends; releasing the cache cancels its loads,
/// timers and triggers.
@MainActor
public final class Cache<Key: Hashable & Sendable, Value: Equatable & Sendable, Failure: Error & Equatable>: Observable {
    @usableFromInline typealias Inner = CacheReducer<Key, Value, Failure, ElapsedClock>
    @usableFromInline typealias State = Inner.State

    @usableFromInline
    enum Action {
        case cache(Inner.Action)
        /// Runs an effect in the store, so the store owns it and ends it on release.
        case run(Effect<Action>)
    }

    @usableFromInline
    struct Feature: Reducer {
        let cache: Inner

        @usableFromInline
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            state.beginChanges()
            return switch action {
            case .cache(let action): cache.reduce(into: &state, action: action).map(Action.cache)
            case .run(let effect): effect
            }
        }
    }

    // Inlinable, with the read path below, so a cache hit is specialized
    // for the key and value types in client code: unspecialized, every read
    // went through generic metadata and cost about a microsecond.
    @usableFromInline let _store: Store<State, Action>
    private let clock: ElapsedClock
    private let staleAfter: Duration

    // Observation per key: a read of `cache[7]` registers the key path of
    // 7's position in the state (positions stay put while a key is cached),
    // and after each action the positions it changed are announced, so a
    // change to 8 does not re-render a view showing 7. The store's own
    // whole-state observation still covers `count`, `users(of:)` and the rest.
    @usableFromInline let _registrar = ObservationRegistrar()
    /// One key path per position, built when a key there is first read and
    /// never replaced. Unretained, so a read does not retain and release
    /// one: `keyPathOwners` holds each as long as the cache lives. No dynamic
    /// exclusivity check, a run-time call on every read otherwise: the cache
    /// is `@MainActor`, and each access is a single read or write that calls
    /// out to nothing while it is open.
    @exclusivity(unchecked) @usableFromInline var _keyPaths: [Unmanaged<KeyPath<Cache, Void>>?] = []
    private var keyPathOwners: [KeyPath<Cache, Void>] = []
    /// What a read of a key that is not cached registers: told when any key is added.
    @usableFromInline let _addedKeyPath: KeyPath<Cache, Void>

    /// Creates an empty cache that loads each key with `operation`.
    ///
    /// - Parameters:
    ///   - clock: measures staleness and collection; a test clock in tests.
    ///   - staleAfter: how long a value counts as fresh (TanStack Query's
    ///     `staleTime`). Zero or less: every value is stale, so each new
    ///     subscriber and each trigger reloads it.
    ///   - collectAfter: how long an unused entry stays (`gcTime`). Zero or
    ///     less: it goes as its last subscriber leaves.
    ///   - capacity: the most entries kept; the entry unused the longest is
    ///     evicted first, and entries in use never are.
    ///   - operation: loads one key's value.
    public init<C: Clock>(
        clock: C,
        staleAfter: Duration,
        collectAfter: Duration = .seconds(300),
        capacity: Int = .max,
        operation: @escaping @MainActor @Sendable (Key) async throws(Failure) -> Value
    ) where C.Duration == Duration {
        let clock = ElapsedClock(clock)
        self.clock = clock
        self.staleAfter = staleAfter
        let reducer = Inner(
            clock: clock, staleAfter: staleAfter, collectAfter: collectAfter, capacity: capacity, operation: operation)
        var state = State()
        state._changes = CacheChanges()
        _store = Store(initialState: state, reducer: Feature(cache: reducer))
        _addedKeyPath = \Cache.addedKey
        _store.observeTransitions { [weak self] transition in
            if let changes = transition.state._changes { self?.announce(changes) }
        }
    }

    /// The loadable cached for `key`, or `nil` if nothing is. Reading it
    /// registers an observation dependency on `key` alone: it is told when
    /// an action changes that key's entry, adds it or removes it, and not
    /// when it changes another key's — told once the action has run, so an
    /// observer already reads the new value. A read of a key that is not
    /// cached is told when any key is added.
    @inlinable
    public subscript(key: Key) -> Loadable<Value, Failure>? {
        // One probe of the state's index, then the loadable read in place:
        // no copy of the cache state or of the entry.
        guard let position = _store._currentState.position(of: key) else {
            _registrar.access(self, keyPath: _addedKeyPath)
            return nil
        }
        if position < _keyPaths.count, let keyPath = _keyPaths[position] {
            Cache._access(keyPath, of: self, in: _registrar)
        } else {
            _registrar.access(self, keyPath: makeKeyPath(at: position))
        }
        return _store._currentState._values[position].fresh._loadable
    }

    /// Registers a read of `keyPath` without retaining it. Nonisolated so
    /// that the closure is too: a main-actor closure handed to the standard
    /// library gets a run-time executor check that cost more than the read.
    @inlinable
    nonisolated static func _access(
        _ keyPath: Unmanaged<KeyPath<Cache, Void>>, of cache: Cache, in registrar: ObservationRegistrar
    ) {
        keyPath._withUnsafeGuaranteedRef { registrar.access(cache, keyPath: $0) }
    }

    /// Builds and keeps the key path of `position`: once per position, as
    /// building a generic class's key path costs far more than a read.
    @usableFromInline
    func makeKeyPath(at position: Int) -> KeyPath<Cache, Void> {
        if position >= _keyPaths.count {
            _keyPaths.append(contentsOf: repeatElement(nil, count: position + 1 - _keyPaths.count))
        }
        let keyPath = \Cache.[observing: position]
        keyPathOwners.append(keyPath)
        _keyPaths[position] = Unmanaged.passUnretained(keyPath)
        return keyPath
    }

    /// What the per-key key paths point at; only their identity matters.
    subscript(observing position: Int) -> Void { () }
    var addedKey: Void { () }

    /// Tells the observers of every position the last action changed. After
    /// the change, not before: which keys an action changes is known only
    /// once the reducer has run. A position no key path was built for has
    /// never been read, so nobody observes it.
    private func announce(_ changes: CacheChanges) {
        if changes._addedKey {
            _registrar.willSet(self, keyPath: _addedKeyPath)
            _registrar.didSet(self, keyPath: _addedKeyPath)
        }
        for position in changes._positions where position < _keyPaths.count {
            guard let keyPath = _keyPaths[position]?.takeUnretainedValue() else { continue }
            _registrar.willSet(self, keyPath: keyPath)
            _registrar.didSet(self, keyPath: keyPath)
        }
    }

    /// How many keys are cached.
    public var count: Int { _store.state.count }

    /// How many subscriptions to `key` are active.
    public func users(of key: Key) -> Int { _store.state[key]?.users ?? 0 }

    /// Whether `key`'s value is missing, invalidated, or older than `staleAfter`.
    public func isStale(_ key: Key) -> Bool {
        _store.state[key]?.fresh.isStale(maxAge: staleAfter, at: clock.now) ?? true
    }

    /// Whether `key` was invalidated and has not loaded successfully since.
    public func isInvalidated(_ key: Key) -> Bool { _store.state[key]?.fresh.isInvalidated ?? false }

    /// Starts using `key`: creates its entry if needed, loads it if its value
    /// is missing or stale, or shares the load in flight. The entry lives
    /// until the subscription is cancelled or released.
    public func subscribe(_ key: Key) -> Subscription {
        Subscription(key: key, cache: self, task: _store.send(.cache(.subscribe(key, at: clock.now))))
    }

    /// Marks `key` stale: reloads it if it is in use — after the load in
    /// flight, if one started before now. Returns `false`, changing nothing,
    /// if `key` is not cached.
    @discardableResult
    public func invalidate(_ key: Key) -> Bool {
        guard _store.state[key] != nil else { return false }
        _store.send(.cache(.entry(key, .invalidate)))
        return true
    }

    /// Invalidates every cached key for which `isIncluded` is true, and
    /// returns how many there were.
    @discardableResult
    public func invalidate(where isIncluded: @escaping @Sendable (Key) -> Bool) -> Int {
        let count = _store.state.keys.filter(isIncluded).count
        _store.send(.cache(.invalidateAll(where: isIncluded)))
        return count
    }

    /// Reloads every entry in use whose value is stale.
    public func refetchStale() {
        _store.send(.cache(.refetchStale(at: clock.now)))
    }

    /// Reloads stale entries in use on every element of `triggers` (the app
    /// became active, the network came back) until the sequence ends or the
    /// cache is released. A sequence that throws stops the triggers and is
    /// reported through ``onIssue``.
    public func refetchStale<Triggers: AsyncSequence & Sendable>(on triggers: Triggers) {
        _store.send(.run(.triggers(triggers, clock: clock) { .cache(.refetchStale(at: $0)) }))
    }

    /// Reloads `key` every `interval` while it is in use, skipping a tick
    /// while a load of it is in flight, until the cache is released or
    /// ``stopPolling(_:)``. Polling a key again replaces its poll.
    public func poll(_ key: Key, every interval: Duration) {
        _store.send(.run(.poll(id: PollID(key: key), every: interval, clock: clock) { _ in .cache(.refetch(key)) }))
    }

    /// Stops polling `key`.
    public func stopPolling(_ key: Key) {
        _store.send(.run(.cancel(id: PollID(key: key))))
    }

    /// Told when something goes wrong that has no state to show it, such as a
    /// trigger sequence that throws. By default, standard error.
    public var onIssue: @MainActor (String) -> Void {
        get { _store.onIssue }
        set { _store.onIssue = newValue }
    }

    struct PollID: Hashable, Sendable {
        let key: Key
    }

    fileprivate func end(_ key: Key) {
        _store.send(.cache(.unsubscribe(key)))
    }

    /// One user's hold on a key's entry. The entry lives while any
    /// subscription to it is active; cancelling or releasing this one ends it.
    @MainActor
    public final class Subscription {
        /// The key this subscription uses.
        public let key: Key
        private weak var cache: Cache?
        private let task: StoreTask

        /// Whether the subscription still holds its entry.
        public private(set) var isActive = true

        fileprivate init(key: Key, cache: Cache, task: StoreTask) {
            self.key = key
            self.cache = cache
            self.task = task
        }

        /// The entry's loadable, observable like ``Cache/subscript(_:)``.
        public var loadable: Loadable<Value, Failure>? { cache?[key] }

        // What a screen reads, as on an `AsyncValue`: each subscription is
        // a handle on the one shared entry, so two screens that subscribe
        // to a key read the same value and share its loads.

        /// The entry's last value — also while it reloads and after a failure.
        public var value: Value? { loadable?.value }

        /// The failure of the entry's last settled load, or `nil`.
        public var error: Failure? { loadable?.error }

        /// Whether a load of the entry is in flight.
        public var isLoading: Bool { loadable?.isLoading ?? false }

        /// Reloads the entry for everyone who uses it: marks it stale and
        /// loads it, after the load in flight if one started before now
        /// (``Cache/invalidate(_:)``). Does nothing once cancelled.
        public func reload() {
            guard isActive else { return }
            cache?.invalidate(key)
        }

        /// Waits for the load this subscription started or joined, if any.
        /// Cancelling the waiting task does not cancel the shared load.
        public func loaded() async {
            await task.wait()
        }

        /// Stops using the entry. Calling it again does nothing.
        public func cancel() {
            guard isActive else { return }
            isActive = false
            cache?.end(key)
        }

        isolated deinit {
            cancel()
        }
    }
}
