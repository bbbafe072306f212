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
    typealias Feature = AsyncValueFeature<Value, Failure>

    let store: Store<Feature.State, Feature.Action>
    /// The loads that callers still wait for, by ID; a load leaves this table
    /// when it sends its last action.
    private var sharedLoads: [LoadID: SharedLoad] = [:]
    /// The load `run` is starting, which takes the ID its `.started` action
    /// carries. Registered then, inside `send`, because the store may run the
    /// load's work at once (`Task.immediate`) and even settle it before `send`
    /// returns.
    private var startingLoad: SharedLoad?
    /// The last load that started, which ``reload()`` repeats.
    private var lastRequest: (() -> Effect<Feature.Action>)?
    /// When the value settled, on the clock given to `init(clock:)`; see AsyncValue+Freshness.swift.
    var freshness: AsyncValueFreshness?

    /// Creates a value that has not loaded yet.
    public convenience init() {
        self.init(Loadable())
    }

    /// Creates a value that already holds `value`.
    public convenience init(value: Value) {
        self.init(Loadable(value: value))
    }

    private init(_ loadable: Loadable<Value, Failure>) {
        store = Store(initialState: loadable, reducer: Feature())
        // Every load sends exactly one last action — finished, failed or
        // cancelled, applied or dropped — once its work has returned; that is
        // when the callers waiting for it are released. Retries and partial
        // values come before it and release nobody.
        store.observeTransitions { [weak self] transition in
            guard let self, case .loaded(let load) = transition.action else { return }
            switch load {
            case .started(let id):
                if let starting = startingLoad {
                    starting.id = id
                    sharedLoads[id] = starting
                    startingLoad = nil
                }
            case .retrying, .progress:
                break
            case .finished, .failed:
                sharedLoads.removeValue(forKey: load.id)?.end()
            case .cancelled(let id):
                let shared = sharedLoads.removeValue(forKey: id)
                shared?.endedCancelled = true
                shared?.end()
            }
        }
    }

    /// The full loadable: state, last value, settled state and load in flight.
    public var loadable: Loadable<Value, Failure> { store.state }

    /// The current state, as an ``AsyncState/AsyncState``.
    public var state: AsyncState<Value, Failure> { store.state.state }

    /// The last successful value — also while reloading and after a failure.
    public var value: Value? { store.state.value }

    /// The failure of the last settled load, or `nil`.
    public var error: Failure? { store.state.error }

    /// Whether a load is in flight.
    public var isLoading: Bool { store.state.isLoading }

    /// Observes every action this value processes, for logs and timelines.
    public func observeTransitions(
        _ observer: @escaping @MainActor (Transition<Loadable<Value, Failure>, LoadAction<Value, Failure>?>) -> Void
    ) {
        store.observeTransitions { transition in
            let load: LoadAction<Value, Failure>? = if case .loaded(let load) = transition.action { load } else { nil }
            observer(Transition(action: load, state: transition.state, isDropped: transition.isDropped))
        }
    }

    /// Loads with `operation`, which throws `Failure` itself, and returns once
    /// this load has settled, been superseded, or been cancelled — or at once
    /// when the calling task is cancelled while others still share the load.
    public func load(
        overlap: OverlapPolicy = .latestWins,
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) async where Failure: Error, Value: SendableMetatype {
        await load(overlap: overlap, context: nil, operation)
    }

    /// Loads with `operation`, whose untyped errors become ``AnyError``.
    public func load(
        overlap: OverlapPolicy = .latestWins,
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) async where Failure == AnyError, Value: SendableMetatype {
        await load(overlap: overlap, context: nil, mapError: AnyError.init, operation)
    }

    /// Loads with `operation`, turning its errors into `Failure` with `mapError`.
    public func load(
        overlap: OverlapPolicy = .latestWins,
        mapError: @escaping @MainActor (any Error) -> Failure,
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) async where Value: SendableMetatype, Failure: Sendable {
        await load(overlap: overlap, context: nil, mapError: mapError, operation)
    }

    /// Loads only if the last load has not succeeded: does nothing after a
    /// success, joins the load in flight if there is one, and loads otherwise.
    ///
    /// A joined load is shared: cancelling this call's task withdraws only
    /// this call, which returns at once, and the load goes on for the callers
    /// still waiting; it is cancelled when the last of them leaves.
    public func loadIfNeeded(
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) async where Failure: Error, Value: SendableMetatype {
        guard needsLoad else { return }
        await load(overlap: .join, operation)
    }

    /// Loads only if the last load has not succeeded; untyped errors become ``AnyError``.
    public func loadIfNeeded(
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) async where Failure == AnyError, Value: SendableMetatype {
        guard needsLoad else { return }
        await load(overlap: .join, operation)
    }

    /// Repeats the last load, superseding one in flight. Does nothing if
    /// nothing was loaded yet.
    public func reload() async {
        guard let lastRequest else { return }
        _ = await run(.latestWins, lastRequest())
    }

    /// Cancels the load in flight for every caller, returning at once to the
    /// previous state, and removes the loads waiting in its queue
    /// (``OverlapPolicy/queue``). Does nothing when no load is in flight.
    public func cancel() {
        store.send(.cancel)
    }

    /// Returns to `.notLoaded`, forgetting the value and cancelling any load.
    public func reset() {
        store.send(.reset)
    }

    /// Stores a value directly, e.g. after a local edit or from a stream. During
    /// a load the state stays `.refreshing(value:)`.
    public func setValue(_ value: Value) {
        store.send(.setValue(value))
    }

    private var needsLoad: Bool {
        if case .success = store._currentState.state { false } else { true }
    }

    // MARK: Shared loads

    /// How one call took part in loading.
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
            overlap,
            Effect.makeLoad(Feature.Action.loaded, cancelsEarlier: overlap.cancelsEarlier, nil) { id in
                await LoadAction.outcome(of: id, operation)
            },
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
        await run(
            overlap,
            Effect.makeLoad(Feature.Action.loaded, cancelsEarlier: overlap.cancelsEarlier, nil) { id in
                await LoadAction.outcome(of: id, operation, mapError: mapError)
            },
            context: context)
    }

    /// Joins the load in flight (for `.join`) or sends `request`, then waits as
    /// one of the load's callers until it ends or this caller's task is cancelled.
    @discardableResult
    func run(
        _ overlap: OverlapPolicy, _ request: Effect<Feature.Action>, context: AnyObject? = nil,
        remake: (() -> Effect<Feature.Action>)? = nil
    ) async -> Participation {
        // What `reload()` runs: this request again, or — for a request built
        // from the state at call time, such as a stream that appends to the
        // value shown — one built anew from the state then.
        let repeated = remake ?? { request }
        // Decisions read the state without registering an observation: they
        // are the value's own bookkeeping, not something a view shows.
        if overlap == .join, let id = store._currentState.inFlightID, let load = sharedLoads[id], let caller = load.join() {
            return await load.wait(for: caller) ? .joined(context: load.context) : .left
        }
        if overlap == .queue, store._currentState.inFlightID != nil {
            // Queued behind the load in flight: this caller owns its run, which
            // starts when the runs before it have ended; cancelling the caller
            // removes it from the queue.
            let task = store.send(.load(overlap, request))
            lastRequest = repeated
            await task.finish()
            return Task.isCancelled ? .left : .started
        }
        let load = SharedLoad(context: context) { [weak self] id in
            self?.store.send(.abandon(id))
        }
        // A new load is running, so it takes its first caller.
        guard let caller = load.join() else { return .ignored }
        startingLoad = load
        store.send(.load(overlap, request))
        startingLoad = nil
        guard load.id != nil else { return .ignored }
        lastRequest = repeated
        // A load cancelled for everyone (`cancel()`, or superseded) ends this
        // caller's part as cancelled, whatever its operation last recorded —
        // for instance a failed attempt before a cancelled retry wait.
        return await load.wait(for: caller) && !load.endedCancelled ? .started : .left
    }

    /// How many callers wait for the load in flight — for tests.
    package var callerCount: Int {
        guard let id = store._currentState.inFlightID else { return 0 }
        return sharedLoads[id]?.shares.callers.count ?? 0
    }

    /// Forgets the failure of the last settled load, so cancelling a load in
    /// flight cannot bring it back, and returns the failure that was showing.
    /// Does nothing, and notifies no observer, when there is none.
    @discardableResult
    func clearError() -> Failure? {
        guard case .error = store._currentState.settledState else { return nil }
        let showing = store._currentState.error
        store.send(.clearError)
        return showing
    }
}
