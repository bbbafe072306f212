import Observation

/// A main-actor, observable loadable value with `load { … }` — async loading
/// state for a screen without writing a reducer.
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
/// It keeps the promises of ``Loadable`` and runs on the same ``Store`` and
/// ``LoadReducer``:
///
/// - **Last started wins.** Calling `load` again while one is in flight
///   supersedes it: the earlier result can never appear, and the earlier
///   call returns normally once its cancelled work ends.
/// - **Cancellation is not failure.** Cancelling the calling task, or calling
///   ``cancel()``, returns to the previous value — never `.error`, never stuck
///   in loading.
/// - **A shared load runs while anyone waits for it.** Callers that join a
///   load (`loadIfNeeded`, or `load(overlap: .join)`) share it with
///   the caller that started it. Cancelling one caller's task withdraws only
///   that caller, which returns at once; the load is cancelled when the last
///   caller leaves. ``cancel()`` still cancels it for everyone.
/// - **Three faces.** ``value`` keeps the last value during a reload and after
///   a failure, so a view shows content (with a banner when ``error`` is set),
///   a failure face only when there is nothing to show, or a skeleton.
///
/// Reading ``state``, ``value``, ``error`` or ``isLoading`` registers an
/// observation dependency, so SwiftUI re-renders when a load settles.
@MainActor
public final class AsyncValue<Value: Equatable, Failure: Equatable>: Observable {
    @usableFromInline typealias Feature = AsyncValueFeature<Value, Failure>

    // `load` is `@inlinable`, down to the store's runner, so it is specialized
    // for `Value` and `Failure` in client code: unspecialized, a load that
    // answers at once spent a third of its time looking up generic metadata.
    // These are the properties that path uses.
    @usableFromInline let _store: Store<Feature.State, Feature.Action>
    /// The loads that callers wait for, and the one `run` is starting.
    @usableFromInline let _loads: SharedLoads
    /// The `embed` of every load this value starts; see `noting(_:)`.
    @usableFromInline let _loaded: (LoadAction<Value, Failure>) -> Feature.Action
    /// The last load that started, which ``reload()`` repeats — or, for a
    /// load built from the state at call time, such as a stream that appends
    /// to the value shown, `_remakeLastRequest` builds it anew from the state then.
    @usableFromInline var _lastRequest: Effect<Feature.Action>?
    @usableFromInline var _remakeLastRequest: (() -> Effect<Feature.Action>)?
    /// When the value settled, on the clock given to `init(clock:)`; see AsyncValue+Freshness.swift.
    var freshness: AsyncValueFreshness?

    /// Creates a value that has not loaded yet.
    @inlinable
    public convenience init() {
        self.init(Loadable())
    }

    /// Creates a value that already holds `value`.
    @inlinable
    public convenience init(value: Value) {
        self.init(Loadable(value: value))
    }

    /// Builds the store and the loads' `embed` in client code, so that they
    /// are specialized too.
    @inlinable
    convenience init(_ loadable: Loadable<Value, Failure>) {
        let loads = SharedLoads()
        self.init(store: Store(initialState: loadable, reducer: Feature()), loads: loads, loaded: Self.noting(loads))
    }

    @usableFromInline
    init(
        store: Store<Feature.State, Feature.Action>, loads: SharedLoads,
        loaded: @escaping (LoadAction<Value, Failure>) -> Feature.Action
    ) {
        _store = store
        _loads = loads
        _loaded = loaded
    }

    /// The full loadable: state, last value, settled state and load in flight.
    public var loadable: Loadable<Value, Failure> { _store.state }

    /// The current state, as an ``AsyncState/AsyncState``.
    public var state: AsyncState<Value, Failure> { _store.state.state }

    /// The last successful value — also while reloading and after a failure.
    public var value: Value? { _store.state.value }

    /// The failure of the last settled load, or `nil`.
    public var error: Failure? { _store.state.error }

    /// Whether a load is in flight.
    public var isLoading: Bool { _store.state.isLoading }

    /// Observes every action this value processes, for logs and timelines.
    public func observeTransitions(
        _ observer: @escaping @MainActor (Transition<Loadable<Value, Failure>, LoadAction<Value, Failure>?>) -> Void
    ) {
        _store.observeTransitions { transition in
            let load: LoadAction<Value, Failure>? = if case .loaded(let load) = transition.action { load } else { nil }
            observer(Transition(action: load, state: transition.state, isDropped: transition.isDropped))
        }
    }

    /// Loads with `operation`, which throws `Failure` itself, and returns once
    /// this load has settled, been superseded, or been cancelled — or at once
    /// when the calling task is cancelled while others still share the load.
    @inlinable
    public func load(
        overlap: OverlapPolicy = .latestWins,
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) async where Failure: Error, Value: SendableMetatype {
        // Straight to `run`: every async layer on the way costs an executor check.
        await run(overlap, Effect.makeLoad(_loaded, cancelsEarlier: overlap.cancelsEarlier, nil, operation: operation))
    }

    /// Loads with `operation`, whose untyped errors become ``AnyError``.
    @inlinable
    public func load(
        overlap: OverlapPolicy = .latestWins,
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) async where Failure == AnyError, Value: SendableMetatype {
        await run(overlap, Self.request(overlap, _loaded, mapError: AnyError.init, operation))
    }

    /// Loads with `operation`, turning its errors into `Failure` with `mapError`.
    @inlinable
    public func load(
        overlap: OverlapPolicy = .latestWins,
        mapError: @escaping @MainActor (any Error) -> Failure,
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) async where Value: SendableMetatype, Failure: Sendable {
        await run(overlap, Self.request(overlap, _loaded, mapError: mapError, operation))
    }

    /// Loads only if the last load has not succeeded: does nothing after a
    /// success, joins the load in flight if there is one, and loads otherwise.
    ///
    /// A joined load is shared: cancelling this call's task withdraws only
    /// this call, which returns at once, and the load goes on for the callers
    /// still waiting; it is cancelled when the last of them leaves.
    @inlinable
    public func loadIfNeeded(
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) async where Failure: Error, Value: SendableMetatype {
        guard needsLoad else { return }
        await load(overlap: .join, operation)
    }

    /// Loads only if the last load has not succeeded; untyped errors become ``AnyError``.
    @inlinable
    public func loadIfNeeded(
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) async where Failure == AnyError, Value: SendableMetatype {
        guard needsLoad else { return }
        await load(overlap: .join, operation)
    }

    /// Repeats the last load, superseding one in flight. Does nothing if
    /// nothing was loaded yet.
    public func reload() async {
        guard let request = _remakeLastRequest?() ?? _lastRequest else { return }
        _ = await run(.latestWins, request)
    }

    /// Cancels the load in flight for every caller, returning at once to the
    /// previous state, and removes the loads waiting in its queue
    /// (``OverlapPolicy/queue``). Does nothing when no load is in flight.
    public func cancel() {
        _store.send(.cancel)
    }

    /// Returns to `.notLoaded`, forgetting the value and cancelling any load.
    public func reset() {
        _store.send(.reset)
    }

    /// Stores a value directly, e.g. after a local edit or from a stream. During
    /// a load the state stays `.refreshing(value:)`.
    public func setValue(_ value: Value) {
        _store.send(.setValue(value))
    }

    @inlinable
    var needsLoad: Bool {
        if case .success = _store._currentState.state { false } else { true }
    }

    // MARK: Shared loads

    /// How one call took part in loading.
    @usableFromInline
    enum Participation {
        /// The call started a load and waited for it to end.
        case started
        /// The call waited for a load another call started, which carries `context`.
        case joined(context: AnyObject?)
        /// The call's task was cancelled and it left before the load ended, or
        /// the load was cancelled for everyone.
        case left
        /// The call started nothing: `.firstWins` with a load in flight, or a
        /// call made while the value was processing an action.
        case ignored
    }

    /// Loads with a typed `operation`, attaching `context` for callers that join.
    @discardableResult
    func load(
        overlap: OverlapPolicy,
        context: AnyObject?,
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) async -> Participation where Failure: Error, Value: SendableMetatype {
        await run(
            overlap, Effect.makeLoad(_loaded, cancelsEarlier: overlap.cancelsEarlier, nil, operation: operation),
            context: context)
    }

    /// Loads with an untyped `operation`, attaching `context` for callers that join.
    @discardableResult
    func load(
        overlap: OverlapPolicy,
        context: AnyObject?,
        mapError: @escaping @MainActor (any Error) -> Failure,
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) async -> Participation where Value: SendableMetatype, Failure: Sendable {
        await run(overlap, Self.request(overlap, _loaded, mapError: mapError, operation), context: context)
    }

    /// The load of an untyped `operation`, whose errors `mapError` turns into `Failure`.
    @inlinable
    static func request(
        _ overlap: OverlapPolicy,
        _ loaded: @escaping (LoadAction<Value, Failure>) -> Feature.Action,
        mapError: @escaping @MainActor (any Error) -> Failure,
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) -> Effect<Feature.Action> where Value: SendableMetatype, Failure: Sendable {
        Effect.makeLoad(loaded, cancelsEarlier: overlap.cancelsEarlier, nil) { id in
            await LoadAction.outcome(of: id, operation, mapError: mapError)
        }
    }

    /// Joins the load in flight (for `.join`) or sends `request`, then waits as
    /// one of the load's callers until it ends or this caller's task is cancelled.
    @inlinable
    @discardableResult
    func run(
        _ overlap: OverlapPolicy, _ request: Effect<Feature.Action>, context: AnyObject? = nil,
        remake: (() -> Effect<Feature.Action>)? = nil
    ) async -> Participation {
        if overlap == .join || overlap == .queue, let participation = await joinOrQueue(overlap, request, remake: remake) {
            return participation
        }
        let load = SharedLoad(context: context)
        // A new load is running, so it takes its first caller.
        guard let caller = load.join() else { return .ignored }
        _loads._starting = load
        _store.send(.load(overlap, request))
        _loads._starting = nil
        guard load.hasStarted else { return .ignored }
        _lastRequest = request
        _remakeLastRequest = remake
        // A load whose operation answered without suspending ended inside
        // `send`: there is nothing to wait for, so no continuation and no
        // cancellation handler.
        let ended = if load.hasEnded { true } else { await load.wait(for: caller, abandon: abandoning) }
        // A load cancelled for everyone (`cancel()`, or superseded) ends this
        // caller's part as cancelled, whatever its operation last recorded —
        // for instance a failed attempt before a cancelled retry wait.
        return ended && !load.wasCancelled ? .started : .left
    }

    /// The parts of `run` that start no load of their own: joining the load
    /// in flight (`.join`) or queueing behind it (`.queue`). Returns `nil`
    /// when there is nothing to join or queue behind, and `run` starts a load.
    @usableFromInline
    func joinOrQueue(
        _ overlap: OverlapPolicy, _ request: Effect<Feature.Action>, remake: (() -> Effect<Feature.Action>)?
    ) async -> Participation? {
        // Decisions read the state without registering an observation: they
        // are the value's own bookkeeping, not something a view shows.
        guard let id = _store._currentState.inFlightID else { return nil }
        if overlap == .join, let load = _loads[id], let caller = load.join() {
            return await load.wait(for: caller, abandon: abandoning) ? .joined(context: load.context) : .left
        }
        guard overlap == .queue else { return nil }
        // Queued behind the load in flight: this caller owns its run, which
        // starts when the runs before it have ended; cancelling the caller
        // removes it from the queue.
        let task = _store.send(.load(overlap, request))
        _lastRequest = request
        _remakeLastRequest = remake
        await task.finish()
        return Task.isCancelled ? .left : .started
    }

    /// The `embed` of every load this value starts: wraps each load action
    /// in the feature's action, and tells `loads` of the two that decide who
    /// waits — `.started` gives the starting load its ID, and the last action
    /// (finished, failed or cancelled; applied or dropped) releases the
    /// load's callers.
    ///
    /// Noting them here rather than in a transition observer is as timely:
    /// the store makes `.started` when it schedules the load and processes it
    /// before that `send` returns, and the load's work ends the load with the
    /// last action, which the store processes at once, so a caller released here
    /// resumes after the state has changed. And it is cheaper: an observer is
    /// told of every action the value processes, each as a `Transition` that
    /// copies the state. The closure holds the table of loads, not the value,
    /// so it needs no weak reference.
    @inlinable
    static func noting(_ loads: SharedLoads) -> (LoadAction<Value, Failure>) -> Feature.Action {
        { action in
            switch action {
            case .started(let id): loads.began(id)
            case .finished(let id, _), .failed(let id, _): loads.ended(id, cancelled: false)
            case .cancelled(let id): loads.ended(id, cancelled: true)
            case .retrying, .progress: break
            }
            return .loaded(action)
        }
    }

    /// Cancels load `id`, which its last caller has left.
    @inlinable
    var abandoning: @MainActor @Sendable (LoadID) -> Void {
        { [weak self] id in self?._store.send(.abandon(id)) }
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
