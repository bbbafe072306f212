/// The effects one ``Store/send(_:)`` started: await them or cancel them.
///
/// ```swift
/// await store.send(.refresh).finish()   // the load has settled
/// ```
public struct StoreTask: Hashable, Sendable {
    /// The tasks of the effects still running when `send` returned; `nil`
    /// if it started no effect. An effect that ended inside the `send` that
    /// started it (started with `Task.immediate`, it never suspended) leaves
    /// no task here — nothing to wait for or cancel — but makes the list
    /// non-`nil`, for ``isEmpty``. Awaiting a finished task's `value` leaves
    /// the main actor and comes back, two executor hops, as much as the whole
    /// effect. One optional array rather than an array and a count of ended
    /// effects: a `StoreTask` stays one word, which every `send` returns.
    @usableFromInline var _tasks: [Task<Void, Never>]?

    @inlinable
    init(_ tasks: [Task<Void, Never>]? = nil) {
        self._tasks = tasks
    }

    /// The tasks of the effects still running when `send` returned.
    var _running: [Task<Void, Never>] { _tasks ?? [] }

    /// Adds the task of an effect that is still running.
    @inlinable
    mutating func append(_ task: Task<Void, Never>) {
        if _tasks == nil { _tasks = [task] } else { _tasks!.append(task) }
    }

    /// Notes an effect that ended inside the `send` that started it.
    @inlinable
    mutating func appendEnded() {
        if _tasks == nil { _tasks = [] }
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
        guard let tasks = _tasks, !tasks.isEmpty else { return }
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
            for task in _running { await task.value }
        } onCancel: {
            for task in _running { task.cancel() }
        }
    }

    /// Waits for the effects to end without cancelling them if the waiting task
    /// is cancelled — for callers that share work others may still need.
    package nonisolated(nonsending) func wait() async {
        for task in _running { await task.value }
    }

    /// Cancels every effect the action started.
    public func cancel() {
        for task in _running { task.cancel() }
    }

    /// Whether the action started no effect at all.
    public var isEmpty: Bool { _tasks == nil }
}
