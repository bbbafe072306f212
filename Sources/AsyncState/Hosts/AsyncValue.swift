import Observation

/// A main-actor, observable loadable value — every layer of ``Loadable``
/// without writing a reducer: loads, retries, streams, pages, optimistic
/// edits, freshness and every ``OverlapPolicy``.
///
/// Use it on its own or as a property of your own store:
///
/// ```swift
/// @MainActor @Observable
/// final class ProfileStore {
///     let profile = AsyncValue<Profile, AnyError>()
///     func appear() async { await profile.loadIfNeeded { try await api.profile() } }
/// }
/// ```
///
/// It is the one host of this package: a ``Cache``'s entries are
/// `AsyncValue`s, so they offer what it offers, spelled the same, and an
/// ``OperationTracker`` runs each key's operations on one. It runs the state on a ``Store`` with the
/// reducer API a feature would use, so it keeps every promise of
/// ``Loadable``:
///
/// - **Last started wins.** Calling `load` again while one is in flight
///   supersedes it: the earlier result can never appear, and the earlier
///   call returns normally once its cancelled work ends.
/// - **Cancellation is not failure.** Cancelling the calling task, or calling
///   ``cancel()``, returns to the previous value — never `.error`, never stuck
///   in loading.
/// - **A shared load runs while anyone waits for it.** Callers that join a
///   load (`loadIfNeeded`, or `load(overlap: .join)`) share it with the caller
///   that started it. Cancelling one caller's task withdraws only that
///   caller, which returns at once; the load is cancelled when the last caller
///   leaves — also a load still waiting in a queue, which then never starts.
///   ``cancel()`` still cancels it for everyone.
/// - **Three faces.** ``value`` keeps the last value during a reload and after
///   a failure, so a view shows content (with a banner when ``error`` is set),
///   a failure face only when there is nothing to show, or a skeleton.
///
/// Every read registers an observation dependency, so SwiftUI re-renders when
/// a load settles.
@MainActor
public final class AsyncValue<Value: Equatable, Failure: Error & Equatable>: Observable {
    @usableFromInline typealias Feature = AsyncValueFeature<Value, Failure>

    // `load` is `@inlinable`, down to the store's runner, so it is specialized
    // for `Value` and `Failure` in client code: unspecialized, a load that
    // answers at once spent a third of its time looking up generic metadata.
    // These are the properties that path uses.
    @usableFromInline let _store: Store<Feature.State, Feature.Action>
    /// The parts of the store's state behind the members a screen reads, by
    /// `AsyncValueMember`, made on first read (see `_registered`). Unchecked
    /// exclusivity: main actor, single reads and writes.
    @exclusivity(unchecked) @usableFromInline var _memberParts: ContiguousArray<StorePart<Feature.State, Feature.Action>?> = []
    /// The loads that callers wait for, and the one `start` is starting.
    @usableFromInline let _loads: SharedLoads
    /// The `embed` of every load this value starts; see `noting(_:)`.
    @usableFromInline let _loaded: (consuming LoadAction<Value, Failure>) -> Feature.Action
    /// The last request loaded in the value lane, which ``reload()`` and
    /// ``invalidate()`` load again unless `_reloadRequest` is set.
    @usableFromInline var _lastRequest: LoadRequest<Value, Failure>?
    /// Makes the request ``reload()`` and ``invalidate()`` load instead of
    /// the last one, if set: a cache entry's makes its key's, as its
    /// ``Cache`` does for every load, so a write through the entry is never
    /// what a reload repeats. A maker, not a request: built when the reload
    /// starts, it reads what the app's state is then (a token, a locale), as
    /// every other load of the cache does.
    @usableFromInline var _reloadRequest: (() -> LoadRequest<Value, Failure>)?
    /// Told with this value whenever a call of ``edit(_:_:overlap:)``
    /// returns — its edit settled, or the call left or joined another. The
    /// last call to return finds no edit of its own pending: an edit ends
    /// when it settles or its last caller leaves, and each of its callers
    /// returns after that. A cache entry's tells its ``Cache``, which keeps
    /// an entry while an edit of it is in flight and lets it go idle after.
    @usableFromInline var _editSettled: ((AsyncValue) -> Void)?
    /// The clock this value stamps its loads with and measures age on.
    @usableFromInline let _clock: LoadClock?

    /// Creates a value that has not loaded yet.
    ///
    /// - Parameter clock: stamps every load's result with its time and
    ///   measures age for ``isStale(maxAge:)`` and `loadIfNeeded(maxAge:)`;
    ///   without one, every value's age is unknown, so stale.
    @inlinable
    public convenience init(clock: (any Clock<Duration>)? = nil) {
        self.init(Loadable(), clock: clock.map { LoadClock($0) })
    }

    /// Creates a value that already holds `value`, settled now on `clock`.
    @inlinable
    public convenience init(value: Value, clock: (any Clock<Duration>)? = nil) {
        let clock = clock.map { LoadClock($0) }
        var loadable = Loadable<Value, Failure>(value: value)
        if let clock { loadable.setValue(value, at: clock.now) }
        self.init(loadable, clock: clock)
    }

    /// Creates a value from `loadable` — a paged list, say:
    /// `AsyncValue(Loadable(window: 5))`, or one loaded before. Its loads and
    /// edits are numbered from past the newest IDs `loadable` records, so
    /// they are newer than those.
    @inlinable
    public convenience init(_ loadable: Loadable<Value, Failure>, clock: LoadClock?) {
        let loads = SharedLoads()
        let loaded = Self.noting(loads)
        let feature = Feature(loaded: loaded, clock: clock)
        self.init(
            store: Store(initialState: loadable, reducer: feature, firstLoadID: loadable.idAfterRecorded), loads: loads,
            loaded: loaded, clock: clock)
    }

    @usableFromInline
    init(
        store: Store<Feature.State, Feature.Action>, loads: SharedLoads,
        loaded: @escaping (consuming LoadAction<Value, Failure>) -> Feature.Action, clock: LoadClock?
    ) {
        _store = store
        _loads = loads
        _loaded = loaded
        _clock = clock
    }

    // MARK: What a screen reads

    /// Registers a reader of `value`, the member `member` at `path`, and returns it.
    @inlinable
    func _registered<Part: Equatable>(
        _ value: Part, _ member: AsyncValueMember, _ path: @autoclosure () -> KeyPath<Loadable<Value, Failure>, Part>
    ) -> Part {
        // The member's part is kept here, and a part that already has
        // readers is registered on without the store: effects reference the
        // store weakly, so every retain of it takes the slow path through a
        // side table, and a cache hit reads `value` (BENCHMARKS.md, issue 26).
        let index = member.rawValue
        if index < _memberParts.count, _memberParts[index] != nil {
            // Read in place, never bound to a name, so the part is not
            // retained: on the hot path (a cache hit reads `value`) the
            // reader registers at +0 — `_memberParts` holds the part, and
            // registering changes no list.
            if _memberParts[index]!._hasReaders {
                ValuePart.registerAgain(
                    Unmanaged.passUnretained(
                        unsafeDowncast(_memberParts[index]!, to: ValuePart<Feature.State, Feature.Action, Part>.self)))
            } else {
                unsafeDowncast(_memberParts[index]!, to: ValuePart<Feature.State, Feature.Action, Part>.self)
                    .register(value, on: _store)
            }
        } else {
            _firstRead(value, member, path())
        }
        return value
    }

    @inlinable
    @inline(never)
    func _firstRead<Part: Equatable>(_ value: Part, _ member: AsyncValueMember, _ path: KeyPath<Loadable<Value, Failure>, Part>) {
        if _memberParts.count < AsyncValueMember.count {
            _memberParts = ContiguousArray(repeating: nil, count: AsyncValueMember.count)
        }
        let part = ValuePart<Feature.State, Feature.Action, Part>(path: path)
        _memberParts[member.rawValue] = part
        part.register(value, on: _store)
    }

    /// The whole state: every lane and layer.
    @inlinable
    public var loadable: Loadable<Value, Failure> { _store.state }

    /// The current state, as an ``AsyncState/AsyncState``.
    @inlinable
    public var state: AsyncState<Value, Failure> { _registered(_store._currentState.state, .state, \.state) }

    /// The value to show — also while reloading and after a failure — with
    /// the pending edits applied.
    @inlinable
    public var value: Value? {
        // Field by field, where the state is stored: calling `value` on the
        // stored loadable copies all of it first (≈ 22 ns of a 29 ns read;
        // BENCHMARKS.md, step 19).
        let value = Loadable.shown(
            _store._currentState._layers, partial: _store._currentState._partial, confirmed: _store._currentState._value)
        return _registered(value, .value, \.value)
    }

    /// The failure of the last settled load, or `nil`.
    @inlinable
    public var error: Failure? { _registered(_store._currentState.error, .error, \.error) }

    /// Whether a load of the value lane is in flight.
    @inlinable
    public var isLoading: Bool { _registered(_store._currentState.isLoading, .isLoading, \.isLoading) }

    /// Why the load in flight runs — first load, refresh, retry after a
    /// failure — and which attempt it is on; `nil` when settled.
    @inlinable
    public var activity: LoadActivity<Failure>? { _registered(_store._currentState.activity, .activity, \.activity) }

    /// The partial value streamed by the load in flight, or `nil`.
    @inlinable
    public var partialValue: Value? { _registered(_store._currentState.partialValue, .partialValue, \.partialValue) }

    /// How many loads wait in the queue (``OverlapPolicy/queue``).
    @inlinable
    public var waitingCount: Int { _registered(_store._currentState.queuedIDs.count, .waitingCount, \.queuedIDs.count) }

    /// The pending optimistic edits by ID, in start order.
    @inlinable
    public var pendingEdits: KeyedStates<LoadID, AnyEdit<Value>> {
        _registered(_store._currentState.pendingEdits, .pendingEdits, \.pendingEdits)
    }

    /// The failure of the last edit whose request failed, until another starts.
    @inlinable
    public var editError: Failure? { _registered(_store._currentState.editError, .editError, \.editError) }

    /// Whether a "load more" of a paged list is in flight.
    @inlinable
    public var isLoadingMore: Bool { _registered(_store._currentState.isLoadingMore, .isLoadingMore, \.isLoadingMore) }

    /// Why the "load more" in flight runs and which attempt it is on.
    @inlinable
    public var moreActivity: LoadActivity<Failure>? { _registered(_store._currentState.moreActivity, .moreActivity, \.moreActivity) }

    /// The failure of the latest "load more", until a page loads.
    @inlinable
    public var moreError: Failure? { _registered(_store._currentState.moreError, .moreError, \.moreError) }

    /// Whether a paged list has a page after the last one shown.
    @inlinable
    public var hasMore: Bool { _registered(_store._currentState.hasMore, .hasMore, \.hasMore) }

    /// Whether the value is stale for `maxAge` now, on the clock this value
    /// was made with: see ``Loadable/isStale(maxAge:at:)``. Without a clock,
    /// every value is stale.
    @inlinable
    public func isStale(maxAge: Duration) -> Bool {
        guard let clock = _clock else { return true }
        // Its reader depends on when the value's age began, not on the whole
        // state: a load that starts leaves the answer as it was.
        let freshSince = _registered(_store._currentState.freshSince, .freshSince, \.freshSince)
        return Loadable<Value, Failure>.isStale(freshSince: freshSince, maxAge: maxAge, at: clock.now)
    }

    /// Whether the value was invalidated and no load started since succeeded.
    @inlinable
    public var isInvalidated: Bool { _registered(_store._currentState.isInvalidated, .isInvalidated, \.isInvalidated) }

    /// When the confirmed value last settled from a load on this value's
    /// clock (or ``setValue(_:)`` with one): see ``Loadable/settledAt``.
    @inlinable
    public var settledAt: LoadClock.Instant? { _registered(_store._currentState.settledAt, .settledAt, \.settledAt) }

    /// The pending edits that do not apply to the value now (their row is
    /// gone), so are not shown: see ``Loadable/conflicts``.
    @inlinable
    public var conflicts: [LoadID] { _registered(_store._currentState.conflicts, .conflicts, \.conflicts) }

    /// How many loads of this value — of any lane, superseded ones still
    /// running included — and edits have work running now. An
    /// ``OperationTracker`` key is active while it is above zero.
    ///
    /// A load counts until its task ends: an untimed one until its operation
    /// returns, also once cancelled; one with a timeout until its operation
    /// returns, its deadline passes or it is cancelled, whichever comes
    /// first — a timeout abandons an operation that ignores cancellation,
    /// which then no longer counts.
    public var runningCount: Int { _loads.runningCount }

    /// Observes every action this value processes, for logs and timelines.
    public func observeTransitions(
        _ observer: @escaping @MainActor (Transition<Loadable<Value, Failure>, LoadAction<Value, Failure>?>) -> Void
    ) {
        _store.observeTransitions { transition in
            let load: LoadAction<Value, Failure>? = if case .loaded(let load) = transition.action { load } else { nil }
            observer(Transition(action: load, state: transition.state, isDropped: transition.isDropped))
        }
    }

    // MARK: Loading

    /// Loads with `request` and returns once this load has settled, been
    /// superseded, or been cancelled — or at once when the calling task is
    /// cancelled while others still share the load.
    ///
    /// ```swift
    /// await profile.load(LoadRequest(api.user).retry(RetryPolicy(attempts: 3)))
    /// ```
    @inlinable
    public func load(_ request: LoadRequest<Value, Failure>, overlap: OverlapPolicy = .latestWins) async {
        if _store._isProcessing { await awaitingTurn() }
        // Entered here, not through `run`: see `Entry`.
        let entry = entering(request, overlap)
        if case .waiting = entry { _ = await participation(in: entry) }
    }

    /// Loads with `operation`, which throws `Failure` itself; see
    /// ``load(_:overlap:)``.
    @inlinable
    public func load(
        overlap: OverlapPolicy = .latestWins,
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) async {
        if _store._isProcessing { await awaitingTurn() }
        let entry = entering(LoadRequest(operation), overlap)
        if case .waiting = entry { _ = await participation(in: entry) }
    }

    /// Loads with `operation`, whose untyped errors become ``AnyError``; see
    /// ``load(_:overlap:)``.
    @inlinable
    @_disfavoredOverload
    public func load(
        overlap: OverlapPolicy = .latestWins,
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) async where Failure == AnyError {
        if _store._isProcessing { await awaitingTurn() }
        let entry = entering(LoadRequest(operation), overlap)
        if case .waiting = entry { _ = await participation(in: entry) }
    }

    /// Loads only if the value needs it: joins the load in flight if there
    /// is one, does nothing after a success that is still fresh, and loads
    /// otherwise.
    ///
    /// Without `maxAge`, a success stays fresh until invalidated — "load
    /// unless the last load succeeded". With it, a success older than
    /// `maxAge` on this value's clock is stale (``isStale(maxAge:)``). A
    /// joined load is shared: cancelling this call's task withdraws only this
    /// call, which returns at once.
    @inlinable
    public func loadIfNeeded(_ request: LoadRequest<Value, Failure>, maxAge: Duration? = nil) async {
        if _store._isProcessing { await awaitingTurn() }
        let entry = enteringIfNeeded(request, maxAge: maxAge)
        if case .waiting = entry { _ = await participation(in: entry) }
    }

    /// Loads with `operation` only if the value needs it; see ``loadIfNeeded(_:maxAge:)``.
    @inlinable
    public func loadIfNeeded(
        maxAge: Duration? = nil,
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) async {
        await loadIfNeeded(LoadRequest(operation), maxAge: maxAge)
    }

    /// Loads with `operation`, whose untyped errors become ``AnyError``, only
    /// if the value needs it; see ``loadIfNeeded(_:maxAge:)``.
    @inlinable
    @_disfavoredOverload
    public func loadIfNeeded(
        maxAge: Duration? = nil,
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) async where Failure == AnyError {
        await loadIfNeeded(LoadRequest(operation), maxAge: maxAge)
    }

    /// Loads the page after the last one of a paged list and appends it; see
    /// ``Loadable/loadMore(_:_:overlap:)``. Returns once it has settled, or at
    /// once when it starts nothing.
    @inlinable
    public func loadMore<Element, Cursor>(
        _ request: @escaping (Cursor) -> LoadRequest<Value, Failure>,
        overlap: OverlapPolicy = .firstWins
    ) async where Value == Pages<Element, Cursor> {
        if _store._isProcessing { await awaitingTurn() }
        if let more = _store._currentState.moreID, case .join(let id) = overlap.decision(inFlight: more) {
            _ = await join(id)
            return
        }
        if let more = _store._currentState.moreID, case .queue(let id) = overlap.decision(inFlight: more) {
            _ = await join(id)
            return
        }
        let loaded = _loaded
        _ = await start(.start { $0.loadMore(loaded, request, overlap: overlap) })
    }

    /// Shows `edit` at once and runs `request`, which makes it on the server;
    /// see ``Loadable/edit(_:_:_:overlap:)``. Returns the edit's last action —
    /// `.confirmed(id)`, `.failed(id, failure)` or `.cancelled(id)` — once it
    /// has settled, or `nil` if `overlap` started nothing (a join included).
    ///
    /// Cancelling this call's task withdraws this call, which returns at once:
    /// with `.cancelled(id)` if it was the edit's last caller, which withdraws
    /// the edit (rolled back, its request cancelled); with `nil` if a caller
    /// that joined still waits, for whom the edit goes on.
    @inlinable
    @discardableResult
    public func edit(
        _ edit: some Edit<Value>,
        _ request: LoadRequest<Void, Failure>,
        overlap: OverlapPolicy? = nil
    ) async -> EditAction<Value, Failure>? {
        if _store._isProcessing { await awaitingTurn() }
        if let overlap, let newest = _store._currentState.newestPendingEdit, case .join(let id) = overlap.decision(inFlight: newest) {
            _ = await join(id)
            // The edit's starter may have left before it settled.
            _editSettled?(self)
            return nil
        }
        let loaded = _loaded
        let outcome = EditOutcome<Value, Failure>()
        let newest = _store._currentState.newestPendingEdit
        let entry = beginning(
            .start { state in
                state.edit(
                    { action in
                        outcome.note(action)
                        return loaded(action)
                    }, edit, request, overlap: overlap)
            })
        // A newer edit under a latest-wins policy rolled the pending one
        // back: it is over for its callers now, as after `cancel(edit:)`.
        if let newest, !_store._currentState.isPending(edit: newest) { _loads.endCancelled([newest]) }
        let participation = await participation(in: entry)
        _editSettled?(self)
        switch participation {
        case .ignored: return nil
        case .left:
            if let last = outcome.last { return last }
            // The caller's task was cancelled. If it was the edit's last
            // caller, the edit was withdrawn with it; if another caller still
            // waits, the edit goes on, and how it ends is not this call's.
            guard let id = outcome.id, !_store._currentState.isPending(edit: id) else { return nil }
            return .cancelled(id)
        case .started, .joined: return outcome.last
        }
    }

    /// Repeats the last load of the value lane — the last one that started
    /// or queued, not a start its policy ignored, nor one that ended
    /// cancelled as it started when nothing was kept before it (as a
    /// ``reset()`` from an observer ends one) — superseding one in
    /// flight. Does nothing if nothing was loaded yet, or since ``reset()``.
    /// A ``Cache`` entry loads its key's request instead, whatever it loaded
    /// last.
    ///
    /// To repeat it, the value keeps its last request, and so what that
    /// request's closure captured: a closure that captures the object
    /// holding this value keeps that object alive until ``reset()``. Capture
    /// it weakly, or capture what the load needs instead.
    @inlinable
    public func reload() async {
        if _store._isProcessing { await awaitingTurn() }
        guard let request = _reloadRequest?() ?? _lastRequest else { return }
        let entry = entering(request, .latestWins)
        if case .waiting = entry { _ = await participation(in: entry) }
    }

    /// Marks the value stale and, if it was loaded before (since the last
    /// ``reset()``), reloads it as ``reload()`` does, superseding a load in flight; returns once that
    /// reload has settled.
    @inlinable
    public func invalidate() async {
        _store.send(.invalidate)
        await reload()
    }

    /// Cancels the load in flight for every caller, returning at once to the
    /// previous state, with the loads waiting in its queue, the "load more"
    /// in flight, and the loads a newer one superseded but let finish
    /// (``OverlapPolicy/latestWins(cancellingEarlier:)`` with `false`), whose
    /// callers end as cancelled. Does nothing when nothing runs. Pending
    /// edits go on: ``cancel(edit:)`` rolls one back.
    @inlinable
    public func cancel() {
        let running = _loads.runningIDs
        _store.send(.cancel(running: running))
        // What was cancelled is over now; pending edits go on.
        _loads.endCancelled(running.filter { !_store._currentState.isPending(edit: $0) })
    }

    /// Rolls edit `id` back at once and cancels its request; the edit's
    /// callers return `.cancelled(id)` at once, also while a request that
    /// ignores cancellation runs on. An ID that names no pending edit — one
    /// settled already, or a load's — cancels nothing.
    @inlinable
    public func cancel(edit id: LoadID) {
        guard _store._currentState.isPending(edit: id) else { return }
        _store.send(.abandon(id))
        _loads.endCancelled([id])
    }

    /// Returns to `.notLoaded`, forgetting the value and cancelling every
    /// lane's work: the load in flight and the queued ones, the "load more",
    /// the loads a newer one superseded but let finish, and the pending
    /// edits, whose callers get `.cancelled(id)`. It forgets the last
    /// request too, and what its closure captured: ``reload()`` does nothing
    /// until the next load — except on a `Cache` entry, which reloads its
    /// key's request, as it always does.
    @inlinable
    public func reset() {
        let running = _loads.runningIDs
        _store.send(.reset(running: running))
        _loads.endCancelled(running)
        _lastRequest = nil
    }

    /// Stores a value directly, e.g. after a local edit or from a stream.
    /// During a load the state stays `.refreshing(value:)`. With a clock, the
    /// value is as fresh as a load's (TanStack Query's `setQueryData`).
    @inlinable
    public func setValue(_ value: Value) {
        _store.send(.setValue(value, at: _clock?.now))
    }

    // MARK: Shared loads

    /// How one call took part in loading.
    @usableFromInline
    enum Participation {
        /// The call started a load and waited for it to finish or fail.
        case started
        /// The call waited for a load another call started, which carries
        /// `context`, to finish or fail.
        case joined(context: (any LoadContext)?)
        /// The call's task was cancelled and it left before the load ended, or
        /// the load was cancelled for everyone.
        case left
        /// The call started nothing: `.firstWins` with a load in flight, or a
        /// synchronous start — a `Cache`'s subscribe, prefetch or invalidation
        /// — made while the entry was processing an action, whose load the
        /// store starts after that action, when this call has returned; it
        /// is tracked then, for callers who come later, without this one
        /// (`SharedLoads.began`). An async call waits for its turn instead.
        case ignored
    }

    /// Where a call stands once it has started or joined a load: done, or
    /// waiting as one of the load's callers.
    ///
    /// Entering is synchronous and only waiting is async, so that a load
    /// whose operation answered without suspending — it ended inside the
    /// store's `send` — returns from `load` through no async function of its
    /// own: each costs two executor checks and a frame, and a load that
    /// answered at once paid for two of them (BENCHMARKS.md, "Issue 25,
    /// fourth pass").
    @usableFromInline
    enum Entry {
        /// The call's part is over.
        case done(Participation)
        /// The call waits for `load`'s end as `caller`: the load's first
        /// caller, or one that `joined` a load another call started.
        case waiting(SharedLoad, caller: Int, joined: Bool)
    }

    /// Loads `request` in the value lane under `overlap`: joins the load in
    /// flight for a `.join`, and otherwise starts, waiting as one of the
    /// load's callers until it ends or this caller's task is cancelled.
    @inlinable
    @discardableResult
    func run(_ request: LoadRequest<Value, Failure>, _ overlap: OverlapPolicy, context: (any LoadContext)? = nil) async -> Participation {
        if _store._isProcessing { await awaitingTurn() }
        let entry = entering(request, overlap, context: context)
        if case .done(let participation) = entry { return participation }
        return await participation(in: entry)
    }

    /// Enters `request`'s load in the value lane under `overlap` — joining
    /// the load in flight for a `.join`, and otherwise starting one — without
    /// waiting for it.
    @inlinable
    func entering(_ request: LoadRequest<Value, Failure>, _ overlap: OverlapPolicy, context: (any LoadContext)? = nil) -> Entry {
        if let id = loadToJoin(under: overlap) { return joining(id) }
        let entry = beginning(.load(request, overlap), context: context)
        // What `reload()` repeats is the last load that started or queued:
        // a start its policy ignored never loaded. One that ended cancelled
        // as it started, with no request kept — a `reset()` from an observer
        // ended it and forgot the last — is not kept: it must not outlive
        // the reset. Told apart from other cancellations in this rare
        // branch only: a count or flag read on every load's way cost a load
        // 33 instructions (BENCHMARKS.md, issue 25, twentieth pass).
        switch entry {
        case .done(.ignored): break
        case .done(.left) where _lastRequest == nil: break
        default: _lastRequest = request
        }
        return entry
    }

    /// The load in flight that a start under `overlap` joins, if it joins
    /// one. Always inlined: called, it changed what the compiler inlined
    /// into a load (33 instructions an `AsyncValue` load; BENCHMARKS.md,
    /// issue 25, nineteenth pass).
    @inlinable @inline(__always)
    func loadToJoin(under overlap: OverlapPolicy) -> LoadID? {
        // Read in place: a copy of the state would be one more to make and destroy.
        guard let overlapped = _store._currentState.overlappedID,
            case .join(let id) = overlap.decision(inFlight: overlapped, isOvertaken: _store._currentState.isOvertaken(overlapped))
        else { return nil }
        return id
    }

    /// Enters a load of `request` only if the value needs one, without
    /// waiting for it, as ``loadIfNeeded(_:maxAge:)`` decides: joins the load
    /// in flight — unless `joins` is `false`, for a trigger that must join
    /// nothing — does nothing after a success that is still fresh, and
    /// otherwise starts a load. Synchronous, so that what follows at once (a
    /// cache releasing the entry) finds the load already in flight.
    @inlinable
    func enteringIfNeeded(_ request: LoadRequest<Value, Failure>, maxAge: Duration?, joins: Bool = true) -> Entry {
        if let joinable = _store._currentState.joinableID {
            return joins ? joining(joinable) : .done(.ignored)
        }
        guard _store._currentState.needsLoad(maxAge: maxAge, at: _clock?.now) else { return .done(.ignored) }
        return entering(request, .latestWins)
    }

    /// Sends `action`, which starts at most one load, and waits as the first
    /// caller of the load it started until it ends or this caller leaves.
    @inlinable
    func start(_ action: Feature.Action, context: (any LoadContext)? = nil) async -> Participation {
        if _store._isProcessing { await awaitingTurn() }
        return await participation(in: beginning(action, context: context))
    }

    /// Sends `action`, which starts at most one load, entering it as its
    /// first caller. Inlinable for the same reason as `load`: this is where
    /// the store runs.
    @inlinable
    func beginning(_ action: Feature.Action, context: (any LoadContext)? = nil) -> Entry {
        let load = SharedLoad(context: context)
        // A new load is running, so it takes its first caller.
        guard let caller = load.join() else { return .done(.ignored) }
        // Restored, not cleared: a start made while the store processes an
        // action (from an observer, before that action's own load is
        // scheduled) must not take the outer start's load from it.
        let outer = _loads._starting
        _loads._starting = load
        _store.send(action)
        _loads._starting = outer
        guard load.hasStarted else { return .done(.ignored) }
        // A load whose operation answered without suspending ended inside
        // `send`: there is nothing to wait for, so no continuation and no
        // cancellation handler.
        guard load.hasEnded else { return .waiting(load, caller: caller, joined: false) }
        return .done(load.wasCancelled ? .left : .started)
    }

    /// Enters load `id`, which another call started, as one of its callers.
    @usableFromInline
    func joining(_ id: LoadID) -> Entry {
        guard let load = _loads[id], let caller = load.join() else { return .done(.ignored) }
        return .waiting(load, caller: caller, joined: true)
    }

    /// Waits as a caller of load `id`, which another call started.
    @usableFromInline
    func join(_ id: LoadID) async -> Participation {
        await participation(in: joining(id))
    }

    /// Waits, if the store is processing an action, for the main actor's
    /// next turn, when it is not. A call made from inside an observer of
    /// this value — a transition observer, a change handler, a task started
    /// at once there — while the store processes an action would have its
    /// start queued behind that action, out of this call's sight: its load
    /// ran untracked, and the call returned at once, as if ignored. Such a
    /// call now starts after that action and the main-actor jobs already
    /// queued (a caller resumed by that action among them). Callers check
    /// the flag before calling: an async call that does not suspend still
    /// cost a load about 400 instructions (BENCHMARKS.md, issue 25,
    /// seventeenth pass).
    @inlinable
    func awaitingTurn() async {
        while _store._isProcessing { await Task.yield() }
    }

    /// How the call that stands at `entry` took part, once the load it waits
    /// for has ended or the call's task was cancelled.
    @inlinable
    func participation(in entry: Entry) async -> Participation {
        switch entry {
        case .done(let participation):
            return participation
        case .waiting(let load, let caller, let joined):
            let ended = await load.wait(for: caller, abandon: abandoning)
            // A load cancelled for everyone (`cancel()`, or superseded) ends
            // this caller's part as cancelled, whatever its operation last
            // recorded — for instance a failed attempt before a cancelled
            // retry wait.
            guard ended, !load.wasCancelled else { return .left }
            return joined ? .joined(context: load.context) : .started
        }
    }

    /// The `embed` of every load this value starts: wraps each load action
    /// in the feature's action, and tells `loads` of the two that decide who
    /// waits — the first, which gives the starting load its ID, and the last
    /// (applied or dropped), which releases the load's callers. Every lane is
    /// noted: a load, a "load more", a queued load, an edit.
    ///
    /// Noting them here rather than in a transition observer is as timely:
    /// the store makes the first action when it schedules the load and
    /// processes it before that `send` returns, and the load's work ends the
    /// load with the last action, which the store processes at once, so a
    /// caller released here resumes after the state has changed. And it is
    /// cheaper: an observer is told of every action the value processes. The
    /// closure holds the table of loads, not the value, so it needs no weak
    /// reference.
    @inlinable
    static func noting(_ loads: SharedLoads) -> (consuming LoadAction<Value, Failure>) -> Feature.Action {
        { action in
            loads.note(action.lifecycle)
            return .loaded(action)
        }
    }

    /// The `embed` of an ``OperationTracker`` key's loads: as `noting(_:)`'s,
    /// and it tells a failed load's context its failure, so that a run's
    /// result is how its load ended. Its own closure, so other values' loads
    /// do not check every action for a failure (18 instructions a load).
    @inlinable
    static func notingFailures(_ loads: SharedLoads) -> (consuming LoadAction<Value, Failure>) -> Feature.Action {
        let noting = noting(loads)
        return { action in
            // Read out of line: read here, the closure copied every action.
            if case .failed = action { loads.noteFailure(of: action) }
            return noting(action)
        }
    }

    /// A key of an ``OperationTracker``, whose loads tell their context of
    /// a failure (see `notingFailures(_:)`).
    @inlinable
    static func trackerKey() -> AsyncValue {
        let loads = SharedLoads()
        let loaded = notingFailures(loads)
        return AsyncValue(
            store: Store(initialState: Loadable(), reducer: Feature(loaded: loaded, clock: nil)), loads: loads, loaded: loaded, clock: nil)
    }

    /// Cancels load `id`, which its last caller has left.
    @inlinable
    var abandoning: @MainActor @Sendable (LoadID) -> Void {
        // The store, not the value, weakly: a weak reference to the value
        // would give it a side table (see `SharedLoads._registrar`).
        { [weak store = _store] id in store?.send(.abandon(id)) }
    }

    /// How many callers wait for the load in flight — for tests.
    package var callerCount: Int {
        guard let id = _store._currentState.inFlightID else { return 0 }
        return _loads[id]?.shares.count ?? 0
    }

    /// Forgets the failure of the last settled load, so cancelling a load in
    /// flight cannot bring it back, and returns the failure that was showing.
    /// Does nothing, and notifies no observer, when there is none.
    @discardableResult
    func clearError() -> Failure? {
        guard case .error = _store._currentState.settledState else { return nil }
        let showing = _store._currentState.error
        _store.send(.clearError)
        return showing
    }
}

/// Where an edit started by ``AsyncValue/edit(_:_:overlap:)`` leaves its
/// last action for the caller.
@usableFromInline
@MainActor
final class EditOutcome<Value, Failure: Equatable> {
    @usableFromInline private(set) var last: EditAction<Value, Failure>?
    /// The edit's ID, once it started.
    @usableFromInline private(set) var id: LoadID?

    @usableFromInline init() {}

    /// Keeps the edit's ID, and its action if it is one that ends it.
    @usableFromInline
    func note(_ action: LoadAction<Value, Failure>) where Value: Equatable {
        guard case .edit(let edit) = action else { return }
        switch edit {
        case .confirmed, .failed, .cancelled: last = edit
        case .started(let id, _): self.id = id
        case .retrying: break
        }
    }
}

/// The members a screen reads from an ``AsyncValue``, each a part of its
/// store's state of its own, so a reader of `value` is not told when only
/// `isLoading` changed. Found by number rather than by key path: a cache hit
/// reads `value`, and hashing a key path costs more than the read.
@usableFromInline
enum AsyncValueMember: Int {
    case value, state, error, isLoading, activity, partialValue, waitingCount
    case pendingEdits, editError, isLoadingMore, moreActivity, moreError, hasMore, isInvalidated, freshSince
    case settledAt, conflicts

    @usableFromInline static let count = 17
}
