/// How a store starts its effects' tasks, and the effect whose task it is
/// starting — shared by the store and the effect's task.
///
/// With `Task.immediate` an effect's task runs synchronously inside the
/// store's `launch` until its first suspension, before `launch` has the
/// task's handle. Meanwhile the store must know that the effect is running
/// (a `send` from it is processed at once), whether it ended, and how to
/// cancel it — from inside its own task, or from a task it started, which
/// runs synchronously inside it. The effect's task records itself here as
/// its first step (`effectBegan()`), reaching this object directly: through
/// the store it would load the store's weak reference, whose side table the
/// runtime looks up to retain and release the store — about 50 ns of a load
/// that answers at once.
@usableFromInline
@MainActor
final class EffectLaunch {
    /// The token of the effect being launched; `nil` outside a launch.
    @usableFromInline var _token: Int?
    /// What became of that effect before its task's start returned.
    @usableFromInline var _state = LaunchState.running
    /// The effect was cancelled while it waited to launch and its task is
    /// still owed that cancellation: a task cannot be created cancelled. A
    /// task started with `Task.immediate` cancels itself as its first step,
    /// before its work runs, and clears this; an enqueued one, which has not
    /// run when its start returns, is cancelled through its handle then.
    @usableFromInline var _startsCancelled = false
    /// The task the effect runs in, from its first step until its start
    /// returns; `nil` while its task has not run.
    ///
    /// The documentation of `UnsafeCurrentTask` asks not to store one. It is
    /// stored here for one use, which stays within the two rules that
    /// documentation gives for a reference used outside its closure: only
    /// operations `Task` has too may be called from another task, and only
    /// while the task runs. The one use is `cancel()` (`Task` has it), from
    /// `cancel()` below, which runs only while `_state` is `.running`: the
    /// task set `_task` as its first step, has not ended (it sets `.ended`
    /// through the store as its last action's final step, and nothing of it
    /// runs after that), and `endLaunch` clears `_task` as soon as the
    /// task's start returns. The stored copy also retains the task.
    @usableFromInline var _task: UnsafeCurrentTask?
    /// How the store starts effects' tasks; a load's work reads it here to
    /// start its own (`LoadReporter.startTask`).
    @usableFromInline var _start = EffectStart.preferred

    @usableFromInline
    init() {}

    /// Starts an effect's task as `_start` says.
    ///
    /// Generic in the body's result, though an effect's body returns nothing:
    /// a closure passed as a generic result is built returning it indirectly,
    /// as `Task.immediate` takes it, where a `() async -> Void` value would be
    /// wrapped in a reabstraction thunk — an allocation and an async frame
    /// per effect. Loads, which write their body at the call
    /// (`LoadReporter.startTask`), start without one.
    @inlinable
    func startTask<Result>(_ body: sending @escaping @isolated(any) () async -> Result) -> Task<Result, Never> {
        if _start == .immediate, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, *) {
            return Task.immediate(operation: body)
        }
        return Task(operation: body)
    }

    /// The first thing an effect's task does. Inside a launch it is the task
    /// being launched, running synchronously: it cancels itself if the
    /// effect was cancelled while pending, and records itself. An enqueued
    /// task runs after its launch has ended and does nothing here; the
    /// store cancels it through its handle (see `Store.endLaunch`).
    ///
    /// It does not check which effect calls it, because inside a launch no
    /// other effect of this store can begin: launches do not nest (a `send`
    /// from a launching effect only processes actions and leaves launching
    /// to the drain that is launching it), an enqueued task cannot run while
    /// the main actor is busy with the launch, and another store's effects
    /// report to that store's own record.
    ///
    /// Not inlined: the task's frame then holds nothing for it across its
    /// first `await`.
    @inlinable
    @inline(never)
    func effectBegan() {
        guard _token != nil else { return }
        withUnsafeCurrentTask { task in
            if _startsCancelled {
                task?.cancel()
                _startsCancelled = false
            }
            _task = task
        }
    }

    /// Cancels the effect being launched: its task at once, whether this
    /// runs in that task or in one it started; or, if its task has not
    /// begun, as soon as its start returns. An effect that already ended
    /// has nothing left to cancel.
    @usableFromInline
    func cancel() {
        guard _state == .running else { return }
        if let task = _task {
            task.cancel()
        } else {
            _state = .cancelRequested
        }
    }
}

/// What became of the effect being launched while its task ran synchronously.
@usableFromInline
enum LaunchState {
    case running
    case ended
    case cancelRequested
}
