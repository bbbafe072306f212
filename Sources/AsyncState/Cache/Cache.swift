import Observation

/// A shared keyed cache for code that does not write reducers: screens that
/// ask for the same key share one entry and one load in flight, and see the
/// same value.
///
/// ```swift
/// let users = Cache<Int, User, APIError>(clock: ContinuousClock(), staleAfter: .seconds(30)) { id in
///     LoadRequest { () async throws(APIError) in try await api.user(id) }
/// }
/// let subscription = users.subscribe(7)   // loads user 7, or shares the load in flight
/// await subscription.loaded()             // waits for the load it started or joined
/// let name = users[7]?.value?.name        // observable: SwiftUI re-renders when it settles
/// users.invalidate(7)                     // marks it stale and reloads it
/// subscription.cancel()                   // or let it go; collected `collectAfter` later
/// ```
///
/// Each entry is an ``AsyncValue`` — the one host — so an entry offers what
/// any value does, spelled the same: `load`, `reload`, `cancel`, `reset`,
/// `activity`, freshness, optimistic edits (`users[7]?.edit(…)`, which
/// writes through like TanStack Query's `setQueryData` and is applied again
/// over a load that started before it), pages for a cache of paged lists
/// (made with a `window:`, each entry keeps at most that many), and every
/// ``OverlapPolicy``. Reads are observable per key, because each entry
/// is observed on its own: a view that reads user 7 is not told when user 8
/// changes. The bookkeeping — users, collection, eviction — is
/// ``CacheReducer``'s, written once for both.
///
/// An entry lives while any ``Subscription`` to it is active and is
/// collected `collectAfter` on `clock` after the last one ends — or, if an
/// edit of it is in flight then, `collectAfter` after that edit settles;
/// releasing the cache cancels its loads, timers and triggers.
@MainActor
public final class Cache<Key: Hashable & Sendable, Value: Equatable, Failure: Error & Equatable>: Observable {
    /// The entries and their bookkeeping; a free position holds `nil`.
    @usableFromInline var _book = CacheBook<Key, AsyncValue<Value, Failure>?>(placeholder: nil)
    private let clock: LoadClock
    private let staleAfter: Duration
    private let collectAfter: Duration
    private let capacity: Int
    private let request: (Key) -> LoadRequest<Value, Failure>
    /// Makes an entry. Made by the inlinable initializer, in the client's
    /// code, so each entry's store runs its reducer specialized for `Value`
    /// and `Failure`: an entry made here, in generic code, ran every action
    /// through generic metadata lookups (BENCHMARKS.md, step 19).
    private let makeValue: @MainActor (LoadClock) -> AsyncValue<Value, Failure>
    /// Collection timers, polls and trigger loops, by what they are for.
    private var tasks: [TaskID: Task<Void, Never>] = [:]

    private enum TaskID: Hashable {
        case collect(Key)
        case poll(Key)
        case triggers(Int)
    }

    private var nextTriggers = 0

    @usableFromInline let _registrar = ObservationRegistrar()
    /// What a read of ``count`` registers: told when a key is added or removed.
    @usableFromInline let _keysChanged: KeyPath<Cache, Void>
    /// What a read of a key not cached registers: told when a key is added.
    @usableFromInline let _keyAdded: KeyPath<Cache, Void>

    /// Creates an empty cache that loads each key with `request`.
    ///
    /// - Parameters:
    ///   - clock: measures staleness and collection; a test clock in tests.
    ///   - staleAfter: how long a value counts as fresh (TanStack Query's
    ///     `staleTime`). Zero or less: every value is stale, so each new
    ///     subscriber and each trigger reloads it.
    ///   - collectAfter: how long an unused entry stays (`gcTime`). Zero or
    ///     less: it goes as its last subscriber leaves.
    ///   - capacity: the most entries kept; the entry unused the longest is
    ///     evicted first, and entries in use — subscribed, or with an edit in
    ///     flight — never are.
    ///   - request: the load of one key.
    @inlinable
    public convenience init(
        clock: some Clock<Duration>,
        staleAfter: Duration,
        collectAfter: Duration = .seconds(300),
        capacity: Int = .max,
        request: @escaping (Key) -> LoadRequest<Value, Failure>
    ) {
        self.init(
            clock: LoadClock(clock), staleAfter: staleAfter, collectAfter: collectAfter, capacity: capacity, request: request,
            makeValue: { AsyncValue(Loadable(), clock: $0) })
    }

    @usableFromInline
    init(
        clock: LoadClock,
        staleAfter: Duration,
        collectAfter: Duration,
        capacity: Int,
        request: @escaping (Key) -> LoadRequest<Value, Failure>,
        makeValue: @escaping @MainActor (LoadClock) -> AsyncValue<Value, Failure>
    ) {
        self.clock = clock
        self.staleAfter = staleAfter
        self.collectAfter = collectAfter
        self.capacity = max(0, capacity)
        self.request = request
        self.makeValue = makeValue
        _keysChanged = \Cache.keysChanged
        _keyAdded = \Cache.keyAdded
    }

    isolated deinit {
        for task in tasks.values { task.cancel() }
        for (_, position) in _book.cachedPositions { _book._entries[position]?.cancel() }
    }

    /// The entry cached for `key`, or `nil` if nothing is. A reader of a
    /// key that is cached depends on that entry alone — told when it leaves
    /// the cache, and of what it reads from it — and a reader of a key that
    /// is not is told when a key is added.
    @inlinable
    public subscript(key: Key) -> AsyncValue<Value, Failure>? {
        guard let position = _book.position(of: key), let entry = _book._entries[position] else {
            _registrar.access(self, keyPath: _keyAdded)
            return nil
        }
        // At +0: `entry` is held, and holds its `let _loads`.
        SharedLoads.registerPresence(of: Unmanaged.passUnretained(entry._loads))
        return entry
    }

    /// What `_keysChanged` and `_keyAdded` point at; only their identity matters.
    var keysChanged: Void { () }
    var keyAdded: Void { () }

    /// How many keys are cached.
    public var count: Int {
        _registrar.access(self, keyPath: _keysChanged)
        return _book.count
    }

    /// How many subscriptions to `key` are active.
    public func users(of key: Key) -> Int { _book.users(of: key) ?? 0 }

    /// Whether `key`'s value is missing, invalidated, failed, or older than `staleAfter`.
    public func isStale(_ key: Key) -> Bool {
        // The entry's own read, on the cache's clock it was made with: its
        // reader depends on when the value's age began, not on all its state.
        self[key]?.isStale(maxAge: staleAfter) ?? true
    }

    /// Starts using `key`: creates its entry if needed, loads it if its value
    /// is missing or stale, or shares the load in flight. The entry lives
    /// until the subscription is cancelled or released.
    ///
    /// A key that is not equal to itself — a `Double.nan` — could never be
    /// found again: it is reported through ``onIssue``, and its subscription
    /// gets an entry of its own, loaded for it alone and not cached.
    public func subscribe(_ key: Key) -> Subscription {
        guard key == key else { return uncachedSubscription(key) }
        var isNew = false
        let commands = _book.subscribe(key, capacity: capacity) { makeEntry(key, &isNew) }
        if isNew { announceKeyAdded() }
        let loaded = carryOut(commands)
        let entry = self[key]!
        return Subscription(key: key, entry: entry, cache: self, loaded: loaded)
    }

    /// Loads `key` ahead of its first user — a row about to scroll in — and
    /// returns once it has settled. The entry has no user: it is collected
    /// `collectAfter` later unless someone subscribes first. Cancelling the
    /// prefetching task withdraws it at once, as any caller of a shared load:
    /// the load stops unless a subscriber shares it, or did — a load that a
    /// subscription started or joined runs until it settles or its entry is
    /// collected, as it does after its last user leaves.
    ///
    /// With a `collectAfter` of zero or less there is nothing to keep a
    /// prefetched entry for: a key not cached is neither cached nor loaded,
    /// and the call returns at once. A key not equal to itself is reported
    /// through ``onIssue`` and not loaded.
    public func prefetch(_ key: Key) async {
        guard key == key else { return reportUnequalKey(key, "nothing is prefetched") }
        // Called from an observer of the entry while it processes an action,
        // a start would run after that action, out of this call's sight: it
        // decides at the entry's next turn instead, as the entry's own
        // async calls do, and waits for what it finds then.
        if let position = _book.position(of: key), let entry = _book._entries[position], entry._store._isProcessing {
            await entry.awaitingTurn()
        }
        var isNew = false
        let commands = _book.prefetch(key, capacity: capacity, collectAfter: collectAfter) { makeEntry(key, &isNew) }
        if isNew { announceKeyAdded() }
        guard let waiting = carryOut(commands) else { return }
        // Awaiting a task's value does not hear the awaiting task's
        // cancellation: passed on, it makes the waiting caller leave.
        await withTaskCancellationHandler {
            await waiting.value
        } onCancel: {
            waiting.cancel()
        }
    }

    /// Marks `key` stale and, if it is in use, reloads it now, superseding a
    /// load in flight. Returns `false`, changing nothing, if `key` is not
    /// cached. To wait for the reload, `await cache[key]?.invalidate()`:
    /// an entry reloads with its key's request, as the cache does.
    @discardableResult
    public func invalidate(_ key: Key) -> Bool {
        guard let entry = self[key] else { return false }
        entry._store.send(.invalidate)
        carryOut(_book.invalidated(key))
        return true
    }

    /// Invalidates every cached key for which `isIncluded` is true, and
    /// returns how many there were.
    @discardableResult
    public func invalidate(where isIncluded: (Key) -> Bool) -> Int {
        let keys = _book.keys.filter(isIncluded)
        for key in keys { invalidate(key) }
        return keys.count
    }

    /// Reloads every entry in use whose value is stale.
    public func refetchStale() {
        _ = carryOut(_book.refetchStale(), joins: false)
    }

    /// Reloads stale entries in use on every element of `triggers` (the app
    /// became active, the network came back) until the sequence ends or the
    /// cache is released. A sequence that throws stops the triggers and is
    /// reported through ``onIssue``. Each call adds a listener, so that one
    /// cache can listen to several sources: call it once per source, where
    /// the cache is made.
    public func refetchStale<Triggers: AsyncSequence & Sendable>(on triggers: Triggers) {
        let id = TaskID.triggers(nextTriggers)
        nextTriggers += 1
        tasks[id] = Task { [weak self] in
            do {
                var isOver = false
                for try await _ in triggers {
                    // Gone or cancelled, it asks for one element more before
                    // it returns: that `next()` sees the task's cancellation
                    // (the cache's deinit cancels it) and ends the sequence —
                    // which a loop that left between two elements never
                    // told, so an `AsyncStream` kept its source for ever.
                    // Once only: a sequence that ignores cancellation is
                    // not pulled for ever.
                    guard !Task.isCancelled, let self else {
                        if isOver { return }
                        isOver = true
                        continue
                    }
                    self.refetchStale()
                }
            } catch is CancellationError {
            } catch {
                self?.onIssue(TriggerFailure(underlying: error).description)
            }
        }
    }

    /// Reloads `key` every `interval` while it is in use, until the cache is
    /// released or ``stopPolling(_:)``. A tick is skipped while a load of the
    /// key is in flight or queued — one that no invalidation has overtaken,
    /// or a "load more", which a reload would supersede. Polling a key again
    /// replaces its poll. An `interval` of zero or less ticks at most once per
    /// main-actor turn, as ``Effect/poll(id:every:clock:_:)`` does.
    public func poll(_ key: Key, every interval: Duration) {
        guard key == key else { return reportUnequalKey(key, "it is not polled") }
        tasks[.poll(key)]?.cancel()
        let clock = clock
        tasks[.poll(key)] = Task { [weak self] in
            while !Task.isCancelled {
                guard (try? await clock.sleep(for: interval)) != nil else { return }
                await Task.yield()
                guard let self, !Task.isCancelled else { return }
                guard self.users(of: key) > 0, let entry = self[key], entry._store._currentState.isDueForPollTick else { continue }
                // Entered now, so a release cancels it; not awaited, so the
                // poll keeps its schedule while the load runs. It supersedes
                // only a load an invalidation has overtaken.
                let entered = entry.entering(self.request(key), .latestWins)
                if case .waiting = entered { Task { _ = await entry.participation(in: entered) } }
            }
        }
    }

    /// Stops polling `key`.
    public func stopPolling(_ key: Key) {
        tasks.removeValue(forKey: .poll(key))?.cancel()
    }

    /// Told when something goes wrong that has no state to show it, such as a
    /// trigger sequence that throws. By default, standard error.
    public var onIssue: @MainActor (String) -> Void = { reportToStandardError($0) }

    // MARK: Carrying out the book's commands

    /// Reports a key that is not equal to itself, and what was done instead.
    private func reportUnequalKey(_ key: Key, _ outcome: String) {
        onIssue(
            "Cache key \(key) is not equal to itself (a NaN?), so the cache could never find its entry again: \(outcome). "
                + "Use keys that equal themselves."
        )
    }

    /// The subscription to `key`, which is not equal to itself: an entry of
    /// its own, loaded for it alone and not cached, whose load the
    /// subscription's end cancels.
    private func uncachedSubscription(_ key: Key) -> Subscription {
        reportUnequalKey(key, "the subscription gets an entry of its own, loaded for it alone and not cached")
        var isNew = false
        let entry = makeEntry(key, &isNew)
        let entered = entry.enteringIfNeeded(request(key), maxAge: staleAfter)
        let loaded: Task<Void, Never>? =
            if case .waiting = entered { Task { _ = await entry.participation(in: entered) } } else { nil }
        return Subscription(key: key, entry: entry, cache: self, loaded: loaded, isCached: false)
    }

    /// Makes an entry, while the book inserts it. Its readers are told
    /// after the insertion (`announceKeyAdded()`), not here: a reader's
    /// change handler that reads again would read the book in the middle of
    /// its change — a fatal access conflict — and find no key.
    private func makeEntry(_ key: Key, _ isNew: inout Bool) -> AsyncValue<Value, Failure> {
        isNew = true
        let entry = makeValue(clock)
        // A maker, called when a reload starts: calling the user's `request`
        // here would run it in the middle of the book's change.
        let request = request
        entry._reloadRequest = { request(key) }
        entry._editSettled = { [weak self] entry in self?.editSettled(key, of: entry) }
        return entry
    }

    /// An edit of `entry` settled: if it was the last in flight on an entry
    /// no one uses, the entry goes idle (`CacheBook.editsSettled`). An entry
    /// that has left the cache has nothing to tell it.
    private func editSettled(_ key: Key, of entry: AsyncValue<Value, Failure>) {
        guard let position = _book.position(of: key), _book._entries[position] === entry else { return }
        _ = carryOut(_book.editsSettled(key, capacity: capacity, collectAfter: collectAfter))
    }

    /// Tells the readers of ``count`` that a key was added or removed.
    private func announceKeysChanged() {
        _registrar.willSet(self, keyPath: _keysChanged)
        _registrar.didSet(self, keyPath: _keysChanged)
    }

    /// Tells the readers of keys not cached, and of ``count``, that a key
    /// was added. A removal tells only ``count``'s: a key not cached before
    /// it is still not cached after.
    private func announceKeyAdded() {
        _registrar.willSet(self, keyPath: _keyAdded)
        _registrar.didSet(self, keyPath: _keyAdded)
        announceKeysChanged()
    }

    /// Runs `commands`; returns the task of the load one of them started or
    /// joined, if any.
    @discardableResult
    private func carryOut(
        _ commands: [CacheCommand<Key, AsyncValue<Value, Failure>?>], joins: Bool = true
    ) -> Task<Void, Never>? {
        var loaded: Task<Void, Never>?
        // Each load is entered here, synchronously, and only waited for in a
        // task: entered from the task, it started after whatever followed —
        // a release of the entry, whose cancellation it then outlived, or a
        // user's load, which a trigger then joined.
        for command in commands {
            switch command {
            case .loadIfNeeded(let key):
                guard let entry = self[key] else { continue }
                // A trigger joins nothing: not the load in flight, nor a
                // queued one, whose caller's leaving must withdraw it.
                let entered = entry.enteringIfNeeded(request(key), maxAge: staleAfter, joins: joins)
                if case .waiting = entered { loaded = Task { _ = await entry.participation(in: entered) } }
            case .reload(let key):
                // The key's own request, as every other load of the cache:
                // not the entry's last, which may be a write, or none for an
                // entry whose value was set.
                guard let entry = self[key] else { continue }
                let entered = entry.entering(request(key), .latestWins)
                if case .waiting = entered { loaded = Task { _ = await entry.participation(in: entered) } }
            case .startTimer(let key, let token):
                let (clock, delay) = (clock, collectAfter)
                tasks[.collect(key)]?.cancel()
                tasks[.collect(key)] = Task { [weak self] in
                    guard (try? await clock.sleep(for: delay)) != nil else { return }
                    self?.collect(key, token: token)
                }
            case .cancelTimer(let key):
                tasks.removeValue(forKey: .collect(key))?.cancel()
            case .release(let entry):
                entry?.cancel()
                entry?._loads.announceRemoval()
                entry?._store.announceEveryPart()
                announceKeysChanged()
            }
        }
        return loaded
    }

    private func collect(_ key: Key, token: UInt64) {
        tasks[.collect(key)] = nil
        guard let entry = _book.collect(key, token: token) else { return }
        _ = carryOut([.release(entry)])
    }

    private func unsubscribe(_ key: Key) {
        guard let commands = _book.unsubscribe(key, capacity: capacity, collectAfter: collectAfter) else { return }
        _ = carryOut(commands)
    }

    /// One user's hold on a key's entry. The entry lives while any
    /// subscription to it is active; cancelling or releasing this one ends
    /// it. Read the entry through ``entry``, or directly: `subscription.value`.
    @MainActor
    @dynamicMemberLookup
    public final class Subscription {
        /// The key this subscription uses.
        public let key: Key
        /// The entry: the one shared ``AsyncValue`` of this key.
        public let entry: AsyncValue<Value, Failure>
        private weak var cache: Cache?
        private let loadedTask: Task<Void, Never>?
        /// Whether the entry is the cache's: not for a key not equal to itself.
        private let isCached: Bool

        /// Whether the subscription still holds its entry.
        public private(set) var isActive = true

        fileprivate init(key: Key, entry: AsyncValue<Value, Failure>, cache: Cache, loaded: Task<Void, Never>?, isCached: Bool = true) {
            self.key = key
            self.entry = entry
            self.cache = cache
            self.loadedTask = loaded
            self.isCached = isCached
        }

        /// Reads a property of the entry, e.g. `subscription.value`.
        public subscript<Property>(dynamicMember keyPath: KeyPath<AsyncValue<Value, Failure>, Property>) -> Property {
            entry[keyPath: keyPath]
        }

        /// Waits for the load this subscription started or joined, if any.
        /// Cancelling the waiting task returns at once and does not cancel
        /// the shared load, which goes on while the subscription is active.
        ///
        /// A subscription made from an observer of its entry while the entry
        /// processes an action (in a change handler) started nothing it can
        /// wait for: the store starts its load after that action. To wait
        /// for it from a task started there, `await cache.prefetch(key)`,
        /// which decides at the entry's next turn and joins what runs then.
        public func loaded() async {
            guard let loadedTask else { return }
            // The task holds the subscription's share of the load, so it is
            // not cancelled; the caller stops waiting for it instead.
            await JoinWaiter.wait(for: loadedTask)
        }

        /// Stops using the entry. Calling it again does nothing.
        public func cancel() {
            guard isActive else { return }
            isActive = false
            if isCached { cache?.unsubscribe(key) } else { entry.cancel() }
        }

        isolated deinit {
            cancel()
        }
    }
}

extension AsyncValue: @MainActor CacheEntry {
    @usableFromInline
    var hasPendingEdits: Bool { _store._currentState.newestPendingEdit != nil }
}
