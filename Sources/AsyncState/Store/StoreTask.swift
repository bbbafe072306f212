/// The effects one ``Store/send(_:)`` started: await them or cancel them.
///
/// ```swift
/// await store.send(.refresh).finish()   // the load has settled
/// ```
public struct StoreTask: Hashable, Sendable {
    @usableFromInline let _tasks: [Task<Void, Never>]

    @inlinable
    init(_ tasks: [Task<Void, Never>] = []) {
        self._tasks = tasks
    }

    /// Stands for an effect that ended inside the `send` that started it
    /// (started with `Task.immediate`, it never suspended). Awaiting a task's
    /// `value` leaves the main actor and comes back even when the task is
    /// done — two executor hops, as much as the whole effect — so `finish()`
    /// skips this one; keeping it in `_tasks` keeps ``isEmpty`` false.
    @usableFromInline static let _ended = Task<Void, Never> {}

    /// The tasks of a `send` whose one effect ended inside it.
    @usableFromInline static let _endedAlone = [_ended]

    /// Whether every effect has already ended, so there is nothing to wait for.
    @inlinable
    var _hasEnded: Bool { _tasks.allSatisfy { $0 == Self._ended } }

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
        guard !_hasEnded else { return }
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
            for task in _tasks where task != Self._ended { await task.value }
        } onCancel: {
            for task in _tasks { task.cancel() }
        }
    }

    /// Waits for the effects to end without cancelling them if the waiting task
    /// is cancelled — for callers that share work others may still need.
    package nonisolated(nonsending) func wait() async {
        for task in _tasks where task != Self._ended { await task.value }
    }

    /// Cancels every effect the action started.
    public func cancel() {
        for task in _tasks { task.cancel() }
    }

    /// Whether the action started no effect at all.
    public var isEmpty: Bool { _tasks.isEmpty }
}
