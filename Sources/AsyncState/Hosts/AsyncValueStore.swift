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
/// ```
///
/// ```swift
/// await store.loadIfNeeded { try await api.profile() }
/// let shown = store.value   // the last value, also while reloading and after a failure
/// ```
///
/// Everything comes from ``asyncValue``: `load` and `loadIfNeeded` with an
/// untyped closure, as Statable's README writes them (a typed or retried
/// load goes through `store.asyncValue.load(_:overlap:)` with a
/// ``LoadRequest``), `reload`, `cancel`, `reset`, `setValue`, and `state`,
/// `value`, `error`, `isLoading`, `isStale(maxAge:)`, with the same promises
/// (last started wins, cancellation is not failure, a shared load runs while
/// anyone waits for it). Reads are observable through your class: a view that
/// reads `store.value` re-renders when a load settles, because the value's
/// own store registers the dependency.
@MainActor
public protocol AsyncValueStore: AnyObject {
    /// The loaded value's type.
    associatedtype Value: Equatable
    /// The failure a load can end with; ``AnyError`` for untyped `throws`.
    associatedtype Failure: Error & Equatable

    /// The value this store loads; usually `let asyncValue = AsyncValue<…>()`.
    var asyncValue: AsyncValue<Value, Failure> { get }
}

// The loads are `@inlinable`, like `AsyncValue`'s own, so a store's `load`
// is specialized for its `Value` too.
extension AsyncValueStore {
    /// The current state, as an ``AsyncState/AsyncState``.
    public var state: AsyncState<Value, Failure> { asyncValue.state }

    /// The last successful value — also while reloading and after a failure.
    public var value: Value? { asyncValue.value }

    /// The failure of the last settled load, or `nil`.
    public var error: Failure? { asyncValue.error }

    /// Whether a load is in flight.
    public var isLoading: Bool { asyncValue.isLoading }

    /// Loads with `operation`, whose untyped errors become ``AnyError``, and
    /// returns once the load has settled, been superseded, or been cancelled.
    @inlinable
    public func load(
        overlap: OverlapPolicy = .latestWins,
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) async where Failure == AnyError {
        await asyncValue.load(LoadRequest(operation), overlap: overlap)
    }

    /// Loads only if the value needs it, joining a load in flight; see
    /// ``AsyncValue/loadIfNeeded(_:maxAge:)``. Untyped errors become ``AnyError``.
    @inlinable
    public func loadIfNeeded(
        maxAge: Duration? = nil,
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) async where Failure == AnyError {
        await asyncValue.loadIfNeeded(LoadRequest(operation), maxAge: maxAge)
    }

    /// Whether the value is stale for `maxAge` now; see ``AsyncValue/isStale(maxAge:)``.
    public func isStale(maxAge: Duration) -> Bool {
        asyncValue.isStale(maxAge: maxAge)
    }

    /// Repeats the last load; does nothing if nothing was loaded yet, or since `reset()`.
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
