/// The effects one ``Store/send(_:)`` started: await them or cancel them.
///
/// ```swift
/// await store.send(.refresh).finish()   // the load has settled
/// ```
public struct StoreTask: Hashable, Sendable {
    /// The tasks of the effects still running when `send` returned.
    @usableFromInline var _tasks: [Task<Void, Never>]
    /// How many effects ended inside the `send` that started them (started
    /// with `Task.immediate`, they never suspended): nothing to wait for or
    /// cancel, but they count for ``isEmpty``. Awaiting a finished task's
    /// `value` leaves the main actor and comes back — two executor hops, as
    /// much as the whole effect — so they are counted rather than kept.
    @usableFromInline var _endedCount: Int

    @inlinable
    init(_ tasks: [Task<Void, Never>] = []) {
        self._tasks = tasks
        self._endedCount = 0
    }

    /// Adds the task of an effect that is still running.
    @inlinable
    mutating func append(_ task: Task<Void, Never>) {
        _tasks.append(task)
    }

    /// Counts an effect that ended inside the `send` that started it.
    @inlinable
    mutating func appendEnded() {
        _endedCount += 1
    }

    /// Waits until every effect the action started has ended and sent its last
    /// action. Cancelling the waiting task cancels those effects.
    ///
    /// Runs on the caller's actor, so awaiting it from the main actor costs no
    /// extra executor hops.
    ///
    /// Inlinable, so a `send` whose effects all ended inside it returns from
    /// `finish()` without an async call.
    @inlinable
    public nonisolated(nonsending) func finish() async {
        guard !_tasks.isEmpty else { return }
        await waitCancellingOnCancel()
    }

    /// The waiting part of ``finish()``, on the main actor. Run from the
    /// `nonsending` `finish()` itself, `withTaskCancellationHandler` cost an
    /// extra executor switch — a job enqueued and a thread woken — on every
    /// wait for an effect still running (counted with a breakpoint on
    /// `swift_task_enqueueGlobal`: 3.5 enqueues per load that suspends once,
    /// against 3 for a bare task); from here, none.
    @MainActor
    @usableFromInline
    func waitCancellingOnCancel() async {
        await withTaskCancellationHandler {
            for task in _tasks { await task.value }
        } onCancel: {
            for task in _tasks { task.cancel() }
        }
    }

    /// Waits for the effects to end without cancelling them if the waiting task
    /// is cancelled — for callers that share work others may still need.
    package nonisolated(nonsending) func wait() async {
        for task in _tasks { await task.value }
    }

    /// Cancels every effect the action started.
    public func cancel() {
        for task in _tasks { task.cancel() }
    }

    /// Whether the action started no effect at all.
    public var isEmpty: Bool { _tasks.isEmpty && _endedCount == 0 }
}
