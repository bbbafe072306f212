/// How a store starts its effects' tasks, and the effect whose task it is
/// starting — shared by the store and the effect's task.
///
/// With `Task.immediate` an effect's task runs synchronously inside the
/// store's `launch` until its first suspension, before `launch` has the
/// task's handle. Meanwhile the store must know that the effect is running
/// (a `send` from it is processed at once), whether it ended, and how to
/// cancel it — from inside its own task, where cancelling the current task
/// reaches it, or from a task it started, which must not be cancelled
/// instead. The effect's task records itself here as its first step
/// (`effectBegan()`), reaching this object directly: through the store it
/// would load the store's weak reference, whose side table the runtime
/// looks up to retain and release the store — 0.14 µs of a load that
/// answers at once.
@usableFromInline
@MainActor
final class EffectLaunch {
    /// The token of the effect being launched; `nil` outside a launch.
    @usableFromInline var _token: Int?
    /// What became of that effect before its task's start returned.
    @usableFromInline var _state = LaunchState.running
    /// The effect was cancelled while it waited to launch, so its task
    /// cancels itself before its work runs: a task cannot be created
    /// cancelled.
    @usableFromInline var _startsCancelled = false
    /// The task the effect runs in (see `currentTaskHash`), once it began;
    /// `nil` while its task has not run.
    @usableFromInline var _task: Int?
    /// How the store starts effects' tasks; a load's work reads it here to
    /// start its own (`LoadReporter.startTask`).
    @usableFromInline var _start = EffectStart.preferred

    @usableFromInline
    init() {}

    /// The first thing an effect's task does. Inside a launch it is the task
    /// being launched, running synchronously: it cancels itself if the
    /// effect was cancelled while pending, and records which task it is. An
    /// enqueued task runs after its launch has ended and does nothing here;
    /// the store cancels it through its handle (see `Store.endLaunch`).
    ///
    /// Not inlined: the task's frame then holds nothing for it across its
    /// first `await`.
    @inlinable
    @inline(never)
    func effectBegan() {
        guard _token != nil else { return }
        if _startsCancelled { cancelCurrentTask() }
        _task = currentTaskHash()
    }
}

/// What became of the effect being launched while its task ran synchronously.
@usableFromInline
enum LaunchState {
    case running
    case ended
    case cancelRequested
}
