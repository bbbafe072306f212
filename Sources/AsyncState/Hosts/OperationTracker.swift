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
/// Every key is an ``AsyncValue`` of its own, with its own generations: two
/// keys run concurrently; starting a key that is already running follows the
/// ``OverlapPolicy`` (latest wins by default); a key is active while any of
/// its runs still works — a superseded run that was let finish included —
/// so a Save button never re-enables mid-save; and a cancelled operation is
/// not an error. Everything a view reads here — ``isActive(_:)``,
/// ``activeKeys``, ``error(for:)``, ``errors``, ``hasErrors``,
/// ``waitingCount(_:)`` — is observable.
///
/// A run lets go of its operation, and of what its closure captured, when
/// it ends: a closure may capture the object that holds the tracker. A key
/// that has run keeps a small entry — whether it runs, its last failure —
/// for as long as the tracker, so keys drawn from a set without bound
/// (every item's ID) grow it by one entry each. A key must be equal to
/// itself, as a `Dictionary`'s must: the failure of a key that is not (a
/// `Double.nan`) shows in ``errors`` but no call can find it, and only
/// ``clearErrors()`` clears it.
@MainActor
public final class OperationTracker<Key: Hashable & Sendable, Failure: Error & Equatable>: Observable {
    /// What a finished operation leaves in its key's state.
    @usableFromInline
    struct Completion: Equatable, Sendable {
        @usableFromInline init() {}
    }

    // Keeps its dynamic exclusivity checks: the keys are the user's, whose
    // `hash(into:)` and `==` run inside each access.
    @usableFromInline var _entries: [Key: AsyncValue<Completion, Failure>] = [:]
    private let registrar = ObservationRegistrar()
    /// Built once: a generic class's key path is costly to rebuild on every access.
    private let entriesKeyPath: KeyPath<OperationTracker, [Key: AsyncValue<Completion, Failure>]>
    /// Makes a key's entry: made by the inlinable initializer, in the
    /// client's code, so entries run their reducer specialized (see `Cache`).
    private let makeValue: @MainActor () -> AsyncValue<Completion, Failure>

    /// Creates a tracker with no operation run yet.
    @inlinable
    public convenience init() {
        self.init(makeValue: { AsyncValue.trackerKey() })
    }

    @usableFromInline
    init(makeValue: @escaping @MainActor () -> AsyncValue<Completion, Failure>) {
        self.makeValue = makeValue
        entriesKeyPath = \OperationTracker._entries
    }

    /// How many runs of `key` wait in its queue (``OverlapPolicy/queue``) for
    /// the run before them to end.
    public func waitingCount(_ key: Key) -> Int {
        entry(key)?.waitingCount ?? 0
    }

    /// Whether an operation `key` is running: any of its runs, also one a
    /// newer run superseded but let finish, or one cancelled whose untimed
    /// operation has not returned. A run with a timeout stops counting at its
    /// deadline or when cancelled, if its operation has not returned by then
    /// (see ``AsyncValue/runningCount``).
    public func isActive(_ key: Key) -> Bool {
        entry(key)?._loads.isRunning ?? false
    }

    /// Whether any operation is running.
    public var isAnyActive: Bool {
        observedEntries.values.contains { $0._loads.isRunning }
    }

    /// The keys whose operations are running.
    public var activeKeys: Set<Key> {
        Set(observedEntries.filter { $0.value._loads.isRunning }.keys)
    }

    /// The failure of the last run of `key` that failed: `nil` while a later
    /// run is in flight, and gone once one succeeds or the error is cleared
    /// (``clearError(for:)``). A later run that is cancelled brings it back,
    /// since cancellation is not a result.
    public func error(for key: Key) -> Failure? {
        entry(key)?.error
    }

    /// The current failure of every key that has one.
    public var errors: [Key: Failure] {
        observedEntries.compactMapValues { $0.error }
    }

    /// Whether any key's last run failed and its error was not cleared.
    public var hasErrors: Bool {
        observedEntries.values.contains { $0.error.isSome }
    }

    /// Forgets the failure of `key`, e.g. when its banner is dismissed. A run
    /// of `key` in flight goes on; if it is then cancelled, the error does not
    /// come back.
    ///
    /// - Returns: the failure that was showing, or `nil` — then nothing
    ///   changes and no observer is notified, also for a key that never ran.
    @discardableResult
    public func clearError(for key: Key) -> Failure? {
        _entries[key]?.clearError()
    }

    /// Forgets the failure of every key.
    public func clearErrors() {
        for entry in _entries.values { entry.clearError() }
    }

    /// Runs `request` as `key` and says how it ended: its value, its
    /// failure, cancelled, or ignored (see ``OperationResult``).
    ///
    /// ```swift
    /// let save = LoadRequest { () async throws(SaveError) in try await api.save(draft) }.retry(RetryPolicy(attempts: 3))
    /// await operations.run(.save, save, overlap: .queue)
    /// ```
    ///
    /// With ``OverlapPolicy/join`` a run in flight is shared: cancelling this
    /// call's task withdraws only this call, which returns `.cancelled` at
    /// once, and the run goes on while any caller still waits for it. Under
    /// ``OverlapPolicy/queue``, cancelling a waiting call's task withdraws its
    /// run from the queue at once. With a retry policy the key stays active
    /// between attempts; ``error(for:)`` holds only the failure that ended the
    /// run. The result is how the run's load ended: a timeout fails it with
    /// the timeout's failure, also while the operation still runs or waits
    /// to retry, and only the attempt that ended the load gives its value.
    /// (A run that a newer one superseded but let finish returns its own
    /// ending; ``error(for:)`` holds the newest run's.)
    @inlinable
    @discardableResult
    public func run<Result>(
        _ key: Key,
        _ request: LoadRequest<Result, Failure>,
        overlap: OverlapPolicy = .latestWins
    ) async -> OperationResult<Result, Failure> {
        let record = Record()
        let value = makeEntry(key)
        if value._store._isProcessing { await value.awaitingTurn() }
        // Waits only if the run did not end at once (see `AsyncValue.Entry`).
        // Not through `entering`, which keeps the request for `reload()`:
        // a key has none, and the closure would hold what it captured — the
        // tracker's owner, often — for as long as the tracker.
        let entry =
            if let id = value.loadToJoin(under: overlap) {
                value.joining(id)
            } else {
                value.beginning(.load(record.recording(request), overlap), context: record)
            }
        if case .done(let participation) = entry { return record.result(for: participation) }
        return record.result(for: await value.participation(in: entry))
    }

    /// Runs `operation` as `key`; its untyped errors become ``AnyError``. See
    /// ``run(_:_:overlap:)``.
    @inlinable
    @discardableResult
    @_disfavoredOverload
    public func run<Result>(
        _ key: Key,
        overlap: OverlapPolicy = .latestWins,
        _ operation: @escaping @MainActor @Sendable () async throws -> Result
    ) async -> OperationResult<Result, Failure> where Failure == AnyError {
        await run(key, LoadRequest(operation), overlap: overlap)
    }

    /// Cancels the operation `key` for every caller — every run of it that
    /// ``isActive(_:)`` counts, a run a newer one superseded but let finish
    /// included — and the runs of `key` waiting in its queue, which never
    /// start; they end without an error. Does nothing when `key` is neither
    /// running nor waiting.
    public func cancel(_ key: Key) {
        _entries[key]?.cancel()
    }

    /// Cancels every running operation and every run waiting in a queue.
    public func cancelAll() {
        for entry in _entries.values { entry.cancel() }
    }

    private var observedEntries: [Key: AsyncValue<Completion, Failure>] {
        registrar.access(self, keyPath: entriesKeyPath)
        return _entries
    }

    /// The entry of `key`. A reader of a key that has one depends on what it
    /// reads from the entry alone (entries are never removed); a reader of a
    /// key that has none is told when a key is added.
    private func entry(_ key: Key) -> AsyncValue<Completion, Failure>? {
        if let entry = _entries[key] { return entry }
        registrar.access(self, keyPath: entriesKeyPath)
        return nil
    }

    /// The entry of `key`, made on its first run. Inlinable, so the lookup
    /// of every run is specialized for the key: out of line, it looked up
    /// generic metadata and witness tables on each run.
    @inlinable
    func makeEntry(_ key: Key) -> AsyncValue<Completion, Failure> {
        if let entry = _entries[key] { return entry }
        return addEntry(key)
    }

    /// Makes and keeps the entry of `key`, which has none.
    @usableFromInline
    func addEntry(_ key: Key) -> AsyncValue<Completion, Failure> {
        let entry = makeValue()
        // Inserted first, then announced: a reader's change handler that
        // reads again finds the key (`withMutation` announced before it).
        _entries[key] = entry
        registrar.willSet(self, keyPath: entriesKeyPath)
        registrar.didSet(self, keyPath: entriesKeyPath)
        return entry
    }

    /// Where a run leaves its result, for the caller that started it and for
    /// callers that join it: its operation's value, kept as `Any` because
    /// each call chooses its own result type, and its load's failure.
    ///
    /// The failure is the one its load's last action reported, not what an
    /// attempt saw: a timeout can end the load while its operation still
    /// runs, or while it waits to retry. A cancelled load releases its
    /// callers as having left, so it needs no field here.
    ///
    /// Inlinable with `run`, so a run is specialized for its types.
    @usableFromInline
    @MainActor
    final class Record: LoadContext {
        // In fields whose layout does not depend on `Failure`. A generic
        // class's deinit is never specialized: with an
        // `OperationResult<Any, Failure>?` here it looked up that type's
        // metadata and destroyed the field through value witnesses, 900 of
        // the instructions of a run that answers at once (BENCHMARKS.md,
        // "Issue 25, fourth pass").
        //
        // No dynamic exclusivity checks: the class is `@MainActor`, and each
        // access is a single read or write; the only code one can run is the
        // deinit of a value it replaces, which cannot reach this record.
        /// The value of the operation's last attempt that returned one.
        @exclusivity(unchecked) @usableFromInline var _value: Any?
        /// The failure the load ended with: a `Failure`.
        @exclusivity(unchecked) @usableFromInline var _failure: (any Error)?

        @usableFromInline init() {}

        @usableFromInline
        func loadFailed(_ failure: any Error) {
            _failure = failure
        }

        /// `request`, keeping here the value of each attempt that returns
        /// one and leaving only "it finished" in the key's state.
        @inlinable
        func recording<Result>(_ request: LoadRequest<Result, Failure>) -> LoadRequest<Completion, Failure> {
            // An attempt cut off by its own timeout runs on in its task,
            // cancelled: a value it returns late is not the run's, and may
            // come after the value of the attempt that ended the load. Asked
            // only then: `Task.isCancelled` costs two retains and releases.
            let mayOutliveAttempt = request._options?.retry?.attemptTimeout != nil
            var recorded: LoadRequest<Completion, Failure>
            switch request._source {
            case .operation(let operation):
                recorded = LoadRequest<Completion, Failure> { () async throws(Failure) in
                    let value = try await operation()
                    if !mayOutliveAttempt || !Task.isCancelled { self._value = value }
                    return Completion()
                }
            case .untyped(let operation, let mapError):
                recorded = LoadRequest<Completion, Failure>(
                    .untyped(
                        {
                            let value = try await operation()
                            if !mayOutliveAttempt || !Task.isCancelled { self._value = value }
                            return Completion()
                        }, mapError))
            case .stream(let attempt, let mode):
                recorded = LoadRequest<Completion, Failure>(
                    .stream(
                        { _, _ in
                            switch await attempt(nil, { _ in }) {
                            case .value(let value):
                                if !mayOutliveAttempt || !Task.isCancelled { self._value = value }
                                return .value(Completion())
                            case .failure(let failure): return .failure(failure)
                            case .cancelled: return .cancelled
                            }
                        }, mode))
            }
            recorded._options = request._options
            return recorded
        }

        /// What the caller that took part in loading as `participation` gets.
        @inlinable
        func result<Result>(for participation: AsyncValue<Completion, Failure>.Participation) -> OperationResult<Result, Failure> {
            let record: Record?
            switch participation {
            case .started: record = self
            case .joined(let context): record = context as? Record
            case .left: return .cancelled
            case .ignored: return .ignored
            }
            guard let record else { return .cancelled }
            if let failure = record._failure {
                // The load's own failure, so always a `Failure`.
                guard let failure = failure as? Failure else { return .cancelled }
                return .failure(failure)
            }
            // `if let`, not `Optional.map`: a main-actor closure passed to the
            // standard library checks its executor at run time.
            guard let value = record._value else { return .cancelled }
            if let value = value as? Result { return .success(value) }
            // Joined a run whose value has another type.
            return .ignored
        }
    }
}
