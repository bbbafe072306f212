import Observation

/// Tracks named concurrent operations — save, delete, record… — each key on
/// its own, so a view can disable a button while its operation runs.
///
/// ```swift
/// enum ItemOperation: Hashable, Sendable { case fetch, save, delete }
///
/// let operations = OperationTracker<ItemOperation, AnyError>()
/// let saved = await operations.run(.save) { try await api.save(items) }
/// // saved: .success(…), .failure(…), .cancelled or .ignored
/// let saving = operations.isActive(.save)         // false again
/// let failure = operations.error(for: .save)      // the failure, if it failed
/// let all = operations.errors                     // every key's failure
/// operations.clearError(for: .save)               // its banner was dismissed
/// ```
///
/// Every key is a ``Loadable`` with its own generations, run by the same
/// ``Store`` as everything else: two keys run concurrently; starting a key that
/// is already running follows the ``OverlapPolicy`` (latest wins by default);
/// an earlier run can never mark a later one of the same key inactive; and a
/// cancelled operation is not an error. Everything a view reads here —
/// ``isActive(_:)``, ``activeKeys``, ``error(for:)``, ``errors``,
/// ``hasErrors`` — is observable.
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

    /// How many runs of `key` wait in its queue (``OverlapPolicy/queue``) for
    /// the run before them to end.
    public func waitingCount(_ key: Key) -> Int {
        registrar.access(self, keyPath: \.waiting)
        return waiting[key]?.count ?? 0
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

    /// The failure of the last run of `key`, until it runs again or the error
    /// is cleared.
    public func error(for key: Key) -> Failure? {
        entry(key)?.error
    }

    /// The current failure of every key that has one.
    public var errors: [Key: Failure] {
        observedEntries.compactMapValues { $0.error }
    }

    /// Whether any key's last run failed and its error was not cleared.
    public var hasErrors: Bool {
        observedEntries.values.contains { $0.error != nil }
    }

    /// Forgets the failure of `key`, e.g. when its banner is dismissed. A run
    /// of `key` in flight goes on; if it is then cancelled, the error does not
    /// come back.
    ///
    /// - Returns: the failure that was showing, or `nil` — then nothing
    ///   changes and no observer is notified, also for a key that never ran.
    @discardableResult
    public func clearError(for key: Key) -> Failure? {
        entries[key]?.clearError()
    }

    /// Forgets the failure of every key.
    public func clearErrors() {
        for entry in entries.values { entry.clearError() }
    }

    /// Runs `operation` as `key` and says how it ended: its value, its
    /// failure, cancelled, or ignored (see ``OperationResult``).
    ///
    /// With ``OverlapPolicy/join`` a run in flight is shared: cancelling this
    /// call's task withdraws only this call, which returns `.cancelled` at
    /// once, and the run goes on while any caller still waits for it.
    @discardableResult
    public func run<Result>(
        _ key: Key,
        overlap: OverlapPolicy = .latestWins,
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Result
    ) async -> OperationResult<Result, Failure> where Failure: Error, Result: SendableMetatype {
        await recordedRun(key, overlap, retry: nil, operation)
    }

    /// Runs `operation` as `key`, trying again after a failed attempt as
    /// `retry` says, and says how the whole run ended. While it waits between
    /// attempts the key stays active; cancelling then is `.cancelled`, never a
    /// failure; ``error(for:)`` holds only the failure that ended the run.
    @discardableResult
    public func run<Result>(
        _ key: Key,
        overlap: OverlapPolicy = .latestWins,
        retry: RetryPolicy<Failure>,
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Result
    ) async -> OperationResult<Result, Failure> where Failure: Error, Result: SendableMetatype {
        await recordedRun(key, overlap, retry: retry, operation)
    }

    /// Runs a typed `operation` as `key`, with retries if `retry` is given,
    /// recording how it ended for ``OperationResult``.
    private func recordedRun<Result>(
        _ key: Key,
        _ overlap: OverlapPolicy,
        retry: RetryPolicy<Failure>?,
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Result
    ) async -> OperationResult<Result, Failure> where Failure: Error, Result: SendableMetatype {
        let record = Record()
        let run = startWaiting(key, overlap)
        defer { stopWaiting(key, run) }
        let recording: @MainActor @Sendable () async throws(Failure) -> Completion = { [weak self] () async throws(Failure) -> Completion in
            self?.stopWaiting(key, run)
            do throws(Failure) {
                record.finish(try await operation())
            } catch {
                record.fail(error)
                throw error
            }
            return Completion()
        }
        let entry = makeEntry(key)
        let participation =
            if let retry {
                await entry.load(overlap: overlap, context: record, retry: retry, recording)
            } else {
                await entry.load(overlap: overlap, context: record, recording)
            }
        return record.result(for: participation)
    }

    /// Runs `operation` as `key`; its untyped errors become ``AnyError``.
    @discardableResult
    public func run<Result>(
        _ key: Key,
        overlap: OverlapPolicy = .latestWins,
        _ operation: @escaping @MainActor @Sendable () async throws -> Result
    ) async -> OperationResult<Result, Failure> where Failure == AnyError, Result: SendableMetatype {
        let record = Record()
        let run = startWaiting(key, overlap)
        defer { stopWaiting(key, run) }
        let participation = await makeEntry(key).load(overlap: overlap, context: record, mapError: AnyError.init) {
            [weak self] () async throws -> Completion in
            self?.stopWaiting(key, run)
            do {
                record.finish(try await operation())
            } catch {
                if error is CancellationError { record.cancel() } else { record.fail(AnyError(error)) }
                throw error
            }
            return Completion()
        }
        return record.result(for: participation)
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
        let result = await run(key, overlap: overlap) { () async throws(Failure) -> Bool in
            try await target.mutate(edit, operation)
            return !Task.isCancelled
        }
        if case .success(true) = result { return true }
        return false
    }

    /// Cancels the operation `key` for every caller, and the runs of `key`
    /// waiting in its queue, which never start; they end without an error.
    /// Does nothing when `key` is neither running nor waiting.
    public func cancel(_ key: Key) {
        entries[key]?.cancel()
        if waiting[key] != nil { changeWaiting { $0[key] = nil } }
    }

    /// Cancels every running operation and every run waiting in a queue;
    /// does nothing when none is running.
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
    /// Where a run leaves its result, for the caller that started it and for
    /// callers that join it. The value is kept as `Any` because each call
    /// chooses its own result type.
    @MainActor
    final class Record {
        private(set) var outcome: OperationResult<Any, Failure>?

        /// The operation returned; a cancelled run's value is not its result.
        func finish(_ value: Any) {
            outcome = Task.isCancelled ? .cancelled : .success(value)
        }

        /// The operation threw; after cancellation that is not a failure.
        func fail(_ failure: Failure) {
            outcome = Task.isCancelled ? .cancelled : .failure(failure)
        }

        func cancel() {
            outcome = .cancelled
        }

        /// What the caller that took part in loading as `participation` gets.
        func result<Result>(for participation: AsyncValue<Completion, Failure>.Participation) -> OperationResult<Result, Failure> {
            let outcome: OperationResult<Any, Failure>?
            switch participation {
            case .started: outcome = self.outcome
            case .joined(let context): outcome = (context as? Record)?.outcome
            case .left: return .cancelled
            case .ignored: return .ignored
            }
            switch outcome {
            case .success(let value)?: return (value as? Result).map { .success($0) } ?? .ignored
            case .failure(let failure)?: return .failure(failure)
            case .ignored?: return .ignored
            case .cancelled?, nil: return .cancelled
            }
        }
    }
}
