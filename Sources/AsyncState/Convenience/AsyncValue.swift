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
    /// The newest load's task, which joined callers wait for.
    private var newestLoad = StoreTask()
    /// The last load that started, which ``reload()`` repeats.
    private var lastRequest: Effect<Feature.Action>?

    /// Creates a value that has not loaded yet.
    public init() {
        store = Store(initialState: Loadable(), reducer: Feature())
    }

    /// Creates a value that already holds `value`.
    public init(value: Value) {
        store = Store(initialState: Loadable(value: value), reducer: Feature())
    }

    /// The full loadable: state, last value, settled state and load in flight.
    public var loadable: Loadable<Value, Failure> { store.state }

    /// The current state, as an ``AsyncState``.
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
    /// this load has settled, been superseded, or been cancelled.
    public func load(
        overlap: OverlapPolicy = .latestWins,
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) async where Failure: Error, Value: SendableMetatype {
        await run(
            overlap,
            Effect.makeLoad(Feature.Action.loaded, cancelsWhenSuperseded: overlap.cancelsWhenSuperseded, nil) { id in
                await LoadAction.outcome(of: id, operation)
            })
    }

    /// Loads with `operation`, whose untyped errors become ``AnyError``.
    public func load(
        overlap: OverlapPolicy = .latestWins,
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) async where Failure == AnyError, Value: SendableMetatype {
        await load(overlap: overlap, mapError: AnyError.init, operation)
    }

    /// Loads with `operation`, turning its errors into `Failure` with `mapError`.
    public func load(
        overlap: OverlapPolicy = .latestWins,
        mapError: @escaping @MainActor (any Error) -> Failure,
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) async where Value: SendableMetatype, Failure: Sendable {
        await run(
            overlap,
            Effect.makeLoad(Feature.Action.loaded, cancelsWhenSuperseded: overlap.cancelsWhenSuperseded, nil) { id in
                await LoadAction.outcome(of: id, operation, mapError: mapError)
            })
    }

    /// Loads only if the last load has not succeeded: does nothing after a
    /// success, waits for the load in flight if there is one, and loads otherwise.
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
        await run(.latestWins, lastRequest)
    }

    /// Cancels the load in flight, returning at once to the previous state.
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
        if case .success = store.state.state { false } else { true }
    }

    func run(_ overlap: OverlapPolicy, _ request: Effect<Feature.Action>) async {
        let task = store.send(.load(overlap, request))
        if task.isEmpty {
            if overlap == .join { await newestLoad.wait() }
            return
        }
        lastRequest = request
        newestLoad = task
        await task.finish()
    }
}
