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
    // No dynamic exclusivity checks, as for the store's tables (see
    // `Store`): this object is `@MainActor`, and each access is a single
    // read or write of a flag, an integer, a start mode, or the launching
    // task — as bits that own nothing, or (where those are not one word) an
    // `UnsafeCurrentTask?`, whose copy only retains — so no user code runs
    // inside one.

    /// The token of the effect being launched; `nil` outside a launch.
    @exclusivity(unchecked) @usableFromInline var _token: Int?
    /// The effect being launched has ended, before its task's start returned.
    @exclusivity(unchecked) @usableFromInline var _hasEnded = false
    /// The effect being launched is owed a cancellation: it was cancelled
    /// while it waited to launch, and a task cannot be created cancelled. A
    /// task started with `Task.immediate` cancels itself as its first step,
    /// before its work runs, and clears this; an enqueued one, which has not
    /// run when its start returns, is cancelled through its handle then.
    @exclusivity(unchecked) @usableFromInline var _startsCancelled = false
    /// The task the effect runs in, from its first step until its start
    /// returns; `0` before its task has run. An `UnsafeCurrentTask?` kept as
    /// its bits, which own nothing (see `recordedTask`).
    ///
    /// `UnsafeCurrentTask`'s documentation says not to store one for use
    /// outside `withUnsafeCurrentTask`'s closure, and leaves such use
    /// undefined, because the reference does not keep its task alive. This is
    /// the one stored reference in the package, kept for one use the reason
    /// does not reach: `cancel()` below calls the task's `cancel()` — an
    /// operation `Task` has too, which that documentation allows from any
    /// task — only while the task is certainly alive and running. Its first
    /// step set `_taskBits`; it has not ended (`_hasEnded`, set by the store
    /// with the effect's last step, after which none of its code runs); and
    /// until `end` clears `_taskBits`, `Task.immediate` has not returned, so
    /// the task is still executing synchronously beneath every caller of
    /// `cancel()` — itself, or a task it started that runs inside it — and
    /// `Task.immediate` still holds the task it created. The alternative,
    /// recording a hash of the task and cancelling only when the current task
    /// is that one, left a load cancelled from a task it started to run on
    /// uncancelled until its start returned: with `Task.immediate` it then
    /// reported `.finished` where `Task {}` reported `.cancelled`.
    @exclusivity(unchecked) @usableFromInline var _taskBits: UInt = 0
    /// The same, where an `UnsafeCurrentTask?` is not one word (no Swift
    /// release so far): stored as itself.
    @exclusivity(unchecked) @usableFromInline var _task: UnsafeCurrentTask?
    /// How the store starts effects' tasks (`startTask`).
    @exclusivity(unchecked) @usableFromInline var _start = EffectStart.preferred

    @usableFromInline
    init() {}

    /// Before an effect's task starts: the effect `token` is being launched,
    /// owed a cancellation if it was cancelled while pending.
    @inlinable
    func begin(_ token: Int, isCancelled: Bool) {
        _token = token
        _hasEnded = false
        _startsCancelled = isCancelled
    }

    /// After the task's start has returned: clears the record, and says
    /// whether the effect already ended and whether it is still owed a
    /// cancellation (an enqueued task has not run its first step).
    @inlinable
    func end() -> (hasEnded: Bool, isOwedCancellation: Bool) {
        let result = (_hasEnded, _startsCancelled)
        _token = nil
        _taskBits = 0
        _task = nil
        _startsCancelled = false
        return result
    }

    /// Starts an effect's task as `_start` says.
    ///
    /// Always inlined into `Store.launch` (directly, or through
    /// `Store.launchTask`), which is always inlined into the loop of
    /// `Store.drainQueue`, because `Task.immediate` must be inlined too, and
    /// the optimizer inlines a function that large only at a call inside a
    /// loop. `Task.immediate` takes an executor preference, `nil` by
    /// default. Swift 6.3.1, the toolchain we measure with, tests a
    /// preference that is not a constant at compile time against the wrong
    /// `nil` — that of a doubly optional value — so an out-of-line
    /// `Task.immediate`, where its default `nil` is an argument, gives every
    /// task it starts an empty executor-preference record. (The upstream
    /// compiler's test suite now checks that a `nil` preference adds no
    /// record; once a release with that fix is the oldest we support, this
    /// chain of inlining only keeps the code together.) With the record,
    /// creating and completing the task each take the task's status lock,
    /// and so does every executor switch, to read the preference. Inlined
    /// where the `nil` is a constant, no record is made: a load that answers
    /// at once takes 0.18 µs less, and one that suspends once 0.7 µs less.
    /// Every task that may start at once starts here, so the check is in one
    /// place: `.ci/inlining` fails if a specialized `drainQueue` in the
    /// benchmark calls `Task.immediate` out of line. Forced inlining does
    /// nothing at `-Onone` or in the module's unspecialized generic code,
    /// which still pay the record; features use the runner specialized.
    @inlinable @inline(__always)
    func startTask<Result>(_ body: TaskBody<Result>) -> Task<Result, Never> {
        if _start == .immediate, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, *) {
            return Task.immediate(operation: body._operation)
        }
        return Task(operation: body._operation)
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
        withCurrentTask { task in
            if _startsCancelled {
                task?.cancel()
                _startsCancelled = false
            }
            // Its bits, not the value: `UnsafeCurrentTask` is resilient, and
            // storing an optional one copied it through the runtime's generic
            // `Optional` witnesses — 200 instructions, 3% of a load that
            // answers at once (BENCHMARKS.md, issue 25).
            let bits = withBytes(of: task) { $0.count == MemoryLayout<UInt>.size ? $0.load(as: UInt.self) : nil }
            if let bits { _taskBits = bits } else { _task = task }
        }
    }

    /// The task `_taskBits` or `_task` records, as a value of its own: a copy
    /// that retains the task for as long as it is used, read from bits that
    /// own nothing — `nil` if none is recorded.
    var recordedTask: UnsafeCurrentTask? {
        if _taskBits == 0 { return _task }
        return withBytes(of: _taskBits) { $0.load(as: UnsafeCurrentTask?.self) }
    }

    /// Cancels the effect being launched: its task at once, whether this
    /// runs in that task or in one it started. An effect that already ended
    /// has nothing left to cancel. One whose task has not begun is owed the
    /// cancellation, as one cancelled while pending is — though nothing runs
    /// during a launch before its task's first step.
    @usableFromInline
    func cancel() {
        guard !_hasEnded else { return }
        if let task = recordedTask {
            task.cancel()
        } else {
            _startsCancelled = true
        }
    }
}
