/// A store of your own that loads one value: declare one stored
/// ``AsyncValue`` and your store has its whole API directly — no macro.
///
/// ```swift
/// @MainActor @Observable
/// final class ProfileStore: AsyncValueStore {
///     let asyncValue = AsyncValue<Profile, AnyError>()
///     let operations = OperationTracker<ProfileOperation, AnyError>()   // if it has any
///
///     var age: Int { value?.age ?? 0 }
/// }
///
/// await store.loadIfNeeded { try await api.profile() }
/// store.value        // the last value, also while reloading and after a failure
/// ```
///
/// Everything comes from ``asyncValue``: `load`, `loadIfNeeded` (also with
/// `maxAge:`), `reload`, `cancel`, `reset`, `setValue`, and `state`, `value`,
/// `error`, `isLoading`, `isStale(maxAge:)`,
/// with the same promises (last started wins, cancellation is not failure, a
/// shared load runs while anyone waits for it). Reads are observable through
/// your class: a view that reads `store.value` re-renders when a load settles,
/// because the value's own store registers the dependency.
@MainActor
public protocol AsyncValueStore: AnyObject {
    /// The loaded value's type.
    associatedtype Value: Equatable
    /// The failure a load can end with; ``AnyError`` for untyped `throws`.
    associatedtype Failure: Equatable

    /// The value this store loads; usually `let asyncValue = AsyncValue<…>()`.
    var asyncValue: AsyncValue<Value, Failure> { get }
}

// The loads are `@inlinable`, like `AsyncValue`'s own, so a store's `load`
// is specialized for its `Value` and `Failure` too.
extension AsyncValueStore {
    /// The current state, as an ``AsyncState/AsyncState``.
    public var state: AsyncState<Value, Failure> { asyncValue.state }

    /// The last successful value — also while reloading and after a failure.
    public var value: Value? { asyncValue.value }

    /// The failure of the last settled load, or `nil`.
    public var error: Failure? { asyncValue.error }

    /// Whether a load is in flight.
    public var isLoading: Bool { asyncValue.isLoading }

    /// Loads with `operation`, which throws `Failure` itself, and returns once
    /// the load has settled, been superseded, or been cancelled.
    @inlinable
    public func load(
        overlap: OverlapPolicy = .latestWins,
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) async where Failure: Error, Value: SendableMetatype {
        await asyncValue.load(overlap: overlap, operation)
    }

    /// Loads with `operation`, whose untyped errors become ``AnyError``.
    @inlinable
    public func load(
        overlap: OverlapPolicy = .latestWins,
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) async where Failure == AnyError, Value: SendableMetatype {
        await asyncValue.load(overlap: overlap, operation)
    }

    /// Loads with `operation`, turning its errors into `Failure` with `mapError`.
    @inlinable
    public func load(
        overlap: OverlapPolicy = .latestWins,
        mapError: @escaping @MainActor (any Error) -> Failure,
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) async where Value: SendableMetatype, Failure: Sendable {
        await asyncValue.load(overlap: overlap, mapError: mapError, operation)
    }

    /// Loads only if the last load has not succeeded, joining a load in flight.
    @inlinable
    public func loadIfNeeded(
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) async where Failure: Error, Value: SendableMetatype {
        await asyncValue.loadIfNeeded(operation)
    }

    /// Loads only if the last load has not succeeded; untyped errors become ``AnyError``.
    @inlinable
    public func loadIfNeeded(
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) async where Failure == AnyError, Value: SendableMetatype {
        await asyncValue.loadIfNeeded(operation)
    }

    /// Loads unless the last load succeeded less than `maxAge` ago, on the clock
    /// the ``asyncValue`` was made with (`AsyncValue(clock:)`).
    @inlinable
    public func loadIfNeeded(
        maxAge: Duration,
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) async where Failure: Error, Value: SendableMetatype {
        await asyncValue.loadIfNeeded(maxAge: maxAge, operation)
    }

    /// Loads unless the last load succeeded less than `maxAge` ago; untyped
    /// errors become ``AnyError``.
    @inlinable
    public func loadIfNeeded(
        maxAge: Duration,
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) async where Failure == AnyError, Value: SendableMetatype {
        await asyncValue.loadIfNeeded(maxAge: maxAge, operation)
    }

    /// Whether the value is missing, not a settled success, or `maxAge` old or older.
    public func isStale(maxAge: Duration) -> Bool {
        asyncValue.isStale(maxAge: maxAge)
    }

    /// Repeats the last load; does nothing if nothing was loaded yet.
    public func reload() async {
        await asyncValue.reload()
    }

    /// Cancels the load in flight for every caller, returning to the previous state.
    public func cancel() {
        asyncValue.cancel()
    }

    /// Returns to `.notLoaded`, forgetting the value and cancelling any load.
    public func reset() {
        asyncValue.reset()
    }

    /// Stores a value directly, e.g. after a local edit.
    public func setValue(_ value: Value) {
        asyncValue.setValue(value)
    }
}
