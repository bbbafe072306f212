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
    /// The runs of each key waiting in its queue (``OverlapPolicy/queue``), by run number.
    private var waiting: [Key: Set<Int>] = [:]
    private var nextRun = 0
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

    /// How many runs of `key` wait in its queue (``OverlapPolicy/queue``) for
    /// the run before them to end.
    public func waitingCount(_ key: Key) -> Int {
        registrar.access(self, keyPath: \.waiting)
        return waiting[key]?.count ?? 0
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
        let run = startWaiting(key, overlap)
        defer { stopWaiting(key, run) }
        // Weakly: the entry keeps its last request (for a reload), which
        // must not keep the tracker alive.
        await makeEntry(key).load(overlap: overlap) { [weak self] () async throws(Failure) -> Completion in
            self?.stopWaiting(key, run)
            output.store(try await operation())
            return Completion()
        }
        return output.value
    }

    /// Runs a mutation as `key` that shows `edit` on `target` at once: the
    /// edit is pending while `operation` runs, joins `target`'s confirmed
    /// value when it returns, and is rolled back — alone — when it fails or is
    /// cancelled (a run superseded under ``OverlapPolicy/latestWins`` is
    /// cancelled). A run that `overlap` does not start shows nothing; under
    /// ``OverlapPolicy/queue`` the edit shows when the run's turn comes.
    ///
    /// - Returns: whether the mutation was confirmed.
    @discardableResult
    public func run<Change: Edit & Sendable>(
        _ key: Key,
        overlap: OverlapPolicy = .latestWins,
        editing target: OptimisticValue<Change, Failure>,
        _ edit: Change,
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Void
    ) async -> Bool where Failure: Error {
        await run(key, overlap: overlap) { () async throws(Failure) -> Bool in
            try await target.mutate(edit, operation)
            return !Task.isCancelled
        } ?? false
    }

    /// Runs `operation` as `key`; its untyped errors become ``AnyError``.
    @discardableResult
    public func run<Result>(
        _ key: Key,
        overlap: OverlapPolicy = .latestWins,
        _ operation: @escaping @MainActor @Sendable () async throws -> Result
    ) async -> Result? where Failure == AnyError, Result: SendableMetatype {
        let output = Output<Result>()
        let run = startWaiting(key, overlap)
        defer { stopWaiting(key, run) }
        await makeEntry(key).load(overlap: overlap) { [weak self] () async throws -> Completion in
            self?.stopWaiting(key, run)
            output.store(try await operation())
            return Completion()
        }
        return output.value
    }

    /// Cancels the operation `key`, and the runs of `key` waiting in its
    /// queue, which never start; they end without an error.
    public func cancel(_ key: Key) {
        entries[key]?.cancel()
        if waiting[key] != nil { changeWaiting { $0[key] = nil } }
    }

    /// Cancels every running operation and every run waiting in a queue.
    public func cancelAll() {
        for entry in entries.values { entry.cancel() }
        if !waiting.isEmpty { changeWaiting { $0.removeAll() } }
    }

    /// Counts a run of `key` as waiting if `overlap` queues it behind a run in
    /// flight; returns its number.
    private func startWaiting(_ key: Key, _ overlap: OverlapPolicy) -> Int? {
        guard overlap == .queue, entries[key]?.isLoading == true else { return nil }
        let run = nextRun
        nextRun += 1
        changeWaiting { $0[key, default: []].insert(run) }
        return run
    }

    /// Stops counting run `run` of `key` as waiting: it started, or ended.
    private func stopWaiting(_ key: Key, _ run: Int?) {
        guard let run, waiting[key]?.contains(run) == true else { return }
        changeWaiting {
            $0[key]?.remove(run)
            if $0[key]?.isEmpty == true { $0[key] = nil }
        }
    }

    private func changeWaiting(_ change: (inout [Key: Set<Int>]) -> Void) {
        registrar.withMutation(of: self, keyPath: \.waiting) { change(&waiting) }
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
