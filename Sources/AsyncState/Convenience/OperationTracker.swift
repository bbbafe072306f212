import Observation

/// Tracks named concurrent operations — save, delete, record… — each key on
/// its own, so a view can disable a button while its operation runs.
///
/// ```swift
/// enum ItemOperation: Hashable, Sendable { case fetch, save, delete }
///
/// let operations = OperationTracker<ItemOperation, AnyError>()
/// await operations.run(.save) { try await api.save(items) }
/// let saving = operations.isActive(.save)     // false again
/// let failure = operations.error(for: .save)  // the failure, if it failed
/// ```
///
/// Every key is a ``Loadable`` with its own generations, run by the same
/// ``Store`` as everything else: two keys run concurrently; starting a key that
/// is already running follows the ``OverlapPolicy`` (latest wins by default);
/// an earlier run can never mark a later one of the same key inactive; and a
/// cancelled operation is not an error.
@MainActor
public final class OperationTracker<Key: Hashable & Sendable, Failure: Equatable>: Observable {
    /// What a finished operation leaves in its key's state.
    struct Completion: Equatable, Sendable {}

    private var entries: [Key: AsyncValue<Completion, Failure>] = [:]
    private let registrar = ObservationRegistrar()
    /// Built once: a generic class's key path is costly to rebuild on every access.
    private let entriesKeyPath: KeyPath<OperationTracker, [Key: AsyncValue<Completion, Failure>]>

    /// Creates a tracker with no operation run yet.
    public init() {
        entriesKeyPath = \OperationTracker.entries
    }

    /// Whether the operation `key` is running.
    public func isActive(_ key: Key) -> Bool {
        entry(key)?.isLoading ?? false
    }

    /// Whether any operation is running.
    public var isAnyActive: Bool {
        observedEntries.values.contains { $0.isLoading }
    }

    /// The keys whose operations are running.
    public var activeKeys: Set<Key> {
        Set(observedEntries.filter { $0.value.isLoading }.keys)
    }

    /// The failure of the last run of `key`, until it runs again.
    public func error(for key: Key) -> Failure? {
        entry(key)?.error
    }

    /// Runs `operation` as `key` and returns its result, or `nil` if it failed,
    /// was cancelled or superseded, or was not started because of `overlap`.
    @discardableResult
    public func run<Result>(
        _ key: Key,
        overlap: OverlapPolicy = .latestWins,
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Result
    ) async -> Result? where Failure: Error, Result: SendableMetatype {
        let output = Output<Result>()
        await makeEntry(key).load(overlap: overlap) { () async throws(Failure) -> Completion in
            output.store(try await operation())
            return Completion()
        }
        return output.value
    }

    /// Runs `operation` as `key`; its untyped errors become ``AnyError``.
    @discardableResult
    public func run<Result>(
        _ key: Key,
        overlap: OverlapPolicy = .latestWins,
        _ operation: @escaping @MainActor @Sendable () async throws -> Result
    ) async -> Result? where Failure == AnyError, Result: SendableMetatype {
        let output = Output<Result>()
        await makeEntry(key).load(overlap: overlap) { () async throws -> Completion in
            output.store(try await operation())
            return Completion()
        }
        return output.value
    }

    /// Cancels the operation `key`; it ends without an error.
    public func cancel(_ key: Key) {
        entries[key]?.cancel()
    }

    /// Cancels every running operation.
    public func cancelAll() {
        for entry in entries.values { entry.cancel() }
    }

    private var observedEntries: [Key: AsyncValue<Completion, Failure>] {
        registrar.access(self, keyPath: entriesKeyPath)
        return entries
    }

    private func entry(_ key: Key) -> AsyncValue<Completion, Failure>? {
        observedEntries[key]
    }

    private func makeEntry(_ key: Key) -> AsyncValue<Completion, Failure> {
        if let entry = entries[key] { return entry }
        let entry = AsyncValue<Completion, Failure>()
        registrar.withMutation(of: self, keyPath: entriesKeyPath) {
            entries[key] = entry
        }
        return entry
    }
}

/// Where an operation leaves its result; kept only if the run was not
/// cancelled, so a superseded run returns `nil`.
@MainActor
private final class Output<Value> {
    private(set) var value: Value?

    func store(_ newValue: Value) {
        if !Task.isCancelled { value = newValue }
    }
}
