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

    /// Waits until every effect the action started has ended and sent its last
    /// action. Cancelling the waiting task cancels those effects.
    ///
    /// Runs on the caller's actor, so awaiting it from the main actor costs no
    /// extra executor hops.
    public nonisolated(nonsending) func finish() async {
        guard !_tasks.isEmpty else { return }
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
    public var isEmpty: Bool { _tasks.isEmpty }
}
