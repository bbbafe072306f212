import Observation

/// Who still waits for one load that several callers share: the pure
/// bookkeeping behind the rule "a shared load runs while any caller still
/// waits for it".
///
/// Every caller holds a share — the one that started the load as much as the
/// ones that joined it. A caller that leaves (its task was cancelled) gives up
/// only its own share; the load is abandoned, and must be cancelled, exactly
/// when the last share is given up while it runs.
///
/// | call | running | abandoned or ended |
/// |---|---|---|
/// | `join()` | a new caller | `nil`: start another load instead |
/// | `leave(c)`, `c` waiting, others waiting | `false` | — |
/// | `leave(c)`, `c` the last caller | `true`: cancel the load; now abandoned | — |
/// | `leave(c)`, `c` unknown or gone | `false`, nothing changes | `false`, nothing changes |
/// | `end()` | ended; every caller released | ended |
package struct LoadShares: Equatable, Sendable {
    /// Where the shared load is in its life.
    package enum Phase: Equatable, Sendable {
        /// The load runs and takes new callers.
        case running
        /// Every caller left while it ran; it is being cancelled.
        case abandoned
        /// The load sent its last action; its callers were released.
        case ended
    }

    package private(set) var phase = Phase.running
    /// How many numbers were handed out: callers are numbered 0, 1, 2, … in
    /// the order they joined.
    private var issued = 0
    /// The callers that left while the load ran. The table keeps these rather
    /// than the callers still waiting, so a load that nobody leaves — the
    /// everyday case, one caller whose load simply ends — allocates no set.
    private var departed: Set<Int> = []

    package init() {}

    /// The callers still waiting.
    package var callers: Set<Int> {
        phase == .ended ? [] : Set(0..<issued).subtracting(departed)
    }

    /// How many callers still wait.
    package var count: Int {
        phase == .ended ? 0 : issued - departed.count
    }

    /// Whether `caller` still waits.
    package func isWaiting(_ caller: Int) -> Bool {
        phase != .ended && (0..<issued).contains(caller) && !departed.contains(caller)
    }

    /// Adds a caller and returns its number, or `nil` once the load no longer
    /// takes callers (it was abandoned or has ended).
    package mutating func join() -> Int? {
        guard phase == .running else { return nil }
        defer { issued += 1 }
        return issued
    }

    /// Withdraws `caller`, and says whether the load must now be cancelled:
    /// `true` exactly when `caller` was the last one waiting for a running load.
    /// Leaving twice, or leaving with a number never handed out, changes nothing.
    package mutating func leave(_ caller: Int) -> Bool {
        guard isWaiting(caller) else { return false }
        departed.insert(caller)
        guard phase == .running, count == 0 else { return false }
        phase = .abandoned
        return true
    }

    /// The load has ended: every caller is released.
    package mutating func end() {
        phase = .ended
        if !departed.isEmpty { departed = [] }
    }
}

/// One load of an ``AsyncValue`` and the callers waiting for it, each of whom
/// can leave on its own.
///
/// A caller waits on a continuation rather than on the load's task, so it can
/// return the moment its own task is cancelled while the load goes on for the
/// others. The last caller to leave asks the owner, through the `abandon` it
/// waited with, to cancel the load.
///
/// A load whose operation answers without suspending has ended before its
/// starter would wait: it then costs this object and nothing more — no
/// continuation, no cancellation handler, no table of callers.
@usableFromInline
@MainActor
final class SharedLoad {
    // The mutable properties opt out of dynamic exclusivity checks, which
    // cost a tenth of a load that answers at once. Safe because: the object
    // is `@MainActor`, so no two threads ever access them; and on the main
    // thread no access overlaps another — each is a single read or write, or
    // a mutation of a value (`LoadShares`, a dictionary) that calls out to
    // nothing. Continuations are resumed only after `waiters` was read or
    // changed, and resuming one runs no code here.

    /// The load's ID, given when the store schedules it.
    @exclusivity(unchecked) var id: LoadID?
    /// Whether the load's last action was `.cancelled`: a caller that waited
    /// to the end of a cancelled load did not see it finish or fail.
    @exclusivity(unchecked) private var endedCancelled = false
    /// What the caller that started the load attached to it: told if the
    /// load failed, and handed to callers that join it.
    @usableFromInline let context: (any LoadContext)?
    @exclusivity(unchecked) private(set) var shares = LoadShares()
    /// Resumed with `true` when the load ends, `false` when the caller leaves.
    @exclusivity(unchecked) private var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]

    @usableFromInline
    init(context: (any LoadContext)?) {
        self.context = context
    }

    /// Whether the store started the load (and gave it an ID).
    @usableFromInline
    var hasStarted: Bool { id != nil }

    /// Whether the load has sent its last action.
    @usableFromInline
    var hasEnded: Bool { shares.phase == .ended }

    /// Whether the load ended because it was cancelled for everyone.
    @usableFromInline
    var wasCancelled: Bool { endedCancelled }

    /// Adds a caller, or returns `nil` if the load no longer takes callers.
    @usableFromInline
    func join() -> Int? {
        shares.join()
    }

    /// Waits until the load ends or `caller`'s task is cancelled, whichever
    /// comes first. Returns `true` if the load ended, `false` if the caller
    /// left; the last caller to leave a running load calls `abandon`.
    @usableFromInline
    func wait(for caller: Int, abandon: @escaping @MainActor @Sendable (LoadID) -> Void) async -> Bool {
        // Leaving and ending both happen on the main actor, like this check,
        // so a caller that is no longer listed has already been released and
        // must not wait.
        guard shares.isWaiting(caller) else { return hasEnded }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                if shares.isWaiting(caller) {
                    waiters[caller] = continuation
                } else {
                    continuation.resume(returning: hasEnded)
                }
            }
        } onCancel: {
            // The handler runs on whichever thread cancelled the task; the
            // shares live on the main actor.
            Task { @MainActor in self.leave(caller, abandon: abandon) }
        }
    }

    /// Withdraws `caller`, releasing it at once; the last caller to leave a
    /// running load abandons it.
    func leave(_ caller: Int, abandon: @MainActor (LoadID) -> Void) {
        let isLast = shares.leave(caller)
        waiters.removeValue(forKey: caller)?.resume(returning: false)
        if isLast, let id { abandon(id) }
    }

    /// The load sent its last action, `.cancelled` if `cancelled`: releases
    /// every caller still waiting.
    func end(cancelled: Bool) {
        endedCancelled = cancelled
        shares.end()
        guard !waiters.isEmpty else { return }
        let released = waiters
        waiters = [:]
        for continuation in released.values { continuation.resume(returning: true) }
    }
}

/// The loads of one ``AsyncValue`` that callers still wait for, by ID, and
/// the load the value is starting. An object of its own, apart from the
/// generic value, so that the `embed` of the value's loads holds it strongly —
/// no weak reference to load for every action — and reaches it without
/// generic code.
@usableFromInline
@MainActor
final class SharedLoads: Observable {
    // Unchecked exclusivity, as in `SharedLoad` and for the same reasons:
    // main-actor only, and each access a single read, write or dictionary
    // operation that calls out to nothing.

    /// The load `start` is starting. It takes its ID when the store schedules
    /// it, inside `send`, because the store may run the load's work at once
    /// (`Task.immediate`) and even end it before `send` returns.
    @exclusivity(unchecked) @usableFromInline var _starting: SharedLoad?
    /// The loads that began and still run, by ID: the newest, superseded
    /// loads whose work still runs (``OverlapPolicy/latestWins(cancellingEarlier:)``
    /// with `false`), queued loads, a "load more", edits. A load leaves with
    /// its last action.
    @exclusivity(unchecked) private var running = LoadTable<SharedLoad>()
    /// Whether `runningCount` was read since it last changed. Only a read
    /// registers an observer, so with none since, no one is told: the
    /// store's `_isPossiblyObserved` rule, here for the count. It skips the
    /// registrar's two locked calls on both the first and the last action of
    /// every load nobody watches.
    @exclusivity(unchecked) var _isCountObserved = false
    /// Whether `isRunning` was read since it last changed: the same rule.
    @exclusivity(unchecked) var _isRunningObserved = false
    /// Observers of `runningCount` register here, not on the value: the
    /// value would have to be reached through a weak reference, and any weak
    /// reference gives an object a side table, which makes every retain and
    /// release of it take the slow path (≈ 20 ns a `Cache` hit).
    @usableFromInline let _registrar = ObservationRegistrar()
    /// Built once: a key path is costly to build on every access.
    private static let runningCountKeyPath = \SharedLoads.runningCount
    private static let isRunningKeyPath = \SharedLoads.isRunning
    /// Built once per value: a static one costs a `swift_once` check on every hit.
    @usableFromInline nonisolated let _presenceKey: KeyPath<SharedLoads, UInt8> & Sendable = \SharedLoads._presenceMark

    /// What a reader of the value itself registers; only its identity
    /// matters. Stored, for the reason `Store._stateKey` is.
    @usableFromInline nonisolated let _presenceMark: UInt8 = 0

    /// Registers a reader of the value itself — a `Cache`'s reader of an
    /// entry — told only by ``announceRemoval()``. Here rather than on the
    /// value's store, for the reason `_registrar` is: effects reference the
    /// store weakly, so touching it on a cache hit takes retains through a
    /// side table (≈ 40 ns a hit; BENCHMARKS.md, issue 26). Through an
    /// unmanaged reference, at +0: read from an entry the caller holds,
    /// `loads` was retained and released around the call, a third of a hit.
    /// Not isolated, so the closure costs no executor check; it touches only
    /// `let`s of `Sendable` types and the registrar, which is thread-safe.
    @inlinable @inline(__always)
    nonisolated static func registerPresence(of loads: Unmanaged<SharedLoads>) {
        loads._withUnsafeGuaranteedRef { $0._registrar.access($0, keyPath: $0._presenceKey) }
    }

    /// Tells the readers of the value itself that it left its host. Told
    /// whether or not anyone read it: an entry leaves its cache rarely, and
    /// a flag set on every hit cost more than the two calls here.
    func announceRemoval() {
        _registrar.willSet(self, keyPath: _presenceKey)
        _registrar.didSet(self, keyPath: _presenceKey)
    }

    @usableFromInline
    init() {}

    /// The load `id`, while callers may wait for it.
    subscript(id: LoadID) -> SharedLoad? { running[id] }

    /// The IDs of the loads that began and still run, of every lane.
    @usableFromInline
    var runningIDs: [LoadID] { running.ids }

    /// How many loads run. Reading it registers an observation dependency.
    var runningCount: Int {
        _registrar.access(self, keyPath: Self.runningCountKeyPath)
        _isCountObserved = true
        return running.count
    }

    /// Whether any load runs. Reading it registers a dependency that is told
    /// only when that changes — not when a second load joins the first — so
    /// that a tracker's `isActive` reader re-renders only when it flips.
    var isRunning: Bool {
        _registrar.access(self, keyPath: Self.isRunningKeyPath)
        _isRunningObserved = true
        return !running.isEmpty
    }

    /// Notes the first or the last action of a load.
    @usableFromInline
    func note(_ lifecycle: LoadLifecycle) {
        switch lifecycle {
        case .none: return
        case .began(let id): began(id)
        case .ended(let id, let cancelled): ended(id, cancelled: cancelled)
        }
    }

    /// The store scheduled load `id`: if a load is starting, this is it.
    func began(_ id: LoadID) {
        guard let starting = _starting else { return beganUnentered(id) }
        starting.id = id
        let wasRunning = !running.isEmpty
        running.insert(starting, forKey: id)
        _starting = nil
        countChanged(wasRunning: wasRunning)
    }

    /// Load `id` began with no call entering it: a queued load's turn,
    /// which its call entered when it queued, or a start that a `Cache`
    /// made while the value processed an action (from an observer of it),
    /// which the store ran after that action, when the call had returned.
    /// Such a load is tracked all the same, so that callers who come later
    /// find it — `loadIfNeeded` and `.join` wait for it — and
    /// `runningCount` counts it. It holds a share no one gives up: no
    /// caller started it, so none leaving may cancel it; it ends with its
    /// last action, or with a `cancel()`, `reset()` or release of its entry
    /// made once it has begun. One made in the same handler, after the call
    /// that asked for it, is processed before it begins, and does not reach
    /// it (as before it was tracked).
    ///
    /// Out of line: `began` runs on every load's start, this rarely.
    @inline(never)
    private func beganUnentered(_ id: LoadID) {
        guard running[id] == nil else { return }
        let load = SharedLoad(context: nil)
        _ = load.join()
        load.id = id
        let wasRunning = !running.isEmpty
        running.insert(load, forKey: id)
        countChanged(wasRunning: wasRunning)
    }

    /// Tells the context of the load that `action`, a value-lane `.failed`,
    /// fails, before the action releases the load's callers: only such a
    /// load is one ``OperationTracker`` runs, the one host that keeps a
    /// load's failure.
    ///
    /// Out of line, so the `embed` of every action only checks its case; a
    /// method here, not a static one on the generic value, which took the
    /// value's metadata on every action.
    @inlinable @inline(never)
    func noteFailure<Value, Failure: Error>(of action: LoadAction<Value, Failure>) {
        guard case .failed(let id, let failure) = action else { return }
        noteFailure(failure, of: id)
    }

    /// Tells the context of load `id` that the load failed with `failure`.
    @usableFromInline
    func noteFailure(_ failure: any Error, of id: LoadID) {
        running[id]?.context?.loadFailed(failure)
    }

    /// Load `id` made its last action, `.cancelled` if `cancelled`: releases its callers.
    func ended(_ id: LoadID, cancelled: Bool) {
        guard let load = running.removeValue(forKey: id) else { return }
        load.end(cancelled: cancelled)
        countChanged(wasRunning: true)
    }

    /// Ends loads `ids`, which the host has just cancelled, for their callers
    /// at once. A load's last action comes when its work returns, and an
    /// operation that ignores cancellation may not return for a long time —
    /// or ever — while the load is already over: its state went back at
    /// once. The load still counts in `runningCount` until that last action,
    /// as its work still runs (a tracker's Save stays disabled mid-save);
    /// then it finds no callers left to release.
    @usableFromInline
    func endCancelled(_ ids: [LoadID]) {
        for id in ids { running[id]?.end(cancelled: true) }
    }

    /// Tells the readers of the count, and those of `isRunning` if the
    /// count crossed zero.
    private func countChanged(wasRunning: Bool) {
        if _isCountObserved {
            _isCountObserved = false
            _registrar.willSet(self, keyPath: Self.runningCountKeyPath)
            _registrar.didSet(self, keyPath: Self.runningCountKeyPath)
        }
        if _isRunningObserved, wasRunning == running.isEmpty {
            _isRunningObserved = false
            _registrar.willSet(self, keyPath: Self.isRunningKeyPath)
            _registrar.didSet(self, keyPath: Self.isRunningKeyPath)
        }
    }
}

/// Where one action stands in the life of the load it is about.
@usableFromInline
enum LoadLifecycle {
    /// Not a first or last action.
    case none
    /// The first action of load `id`: it started, or waits in a queue.
    case began(LoadID)
    /// The last action of load `id`; `cancelled` if it was cancelled.
    case ended(LoadID, cancelled: Bool)
}

/// What the call that starts a shared load attaches to it: told if the
/// load failed, before any caller resumes, and handed to the callers that
/// join it. ``OperationTracker`` keeps a run's result in one, so that a
/// run's failure is its load's — not what one of its attempts saw.
@usableFromInline
@MainActor
protocol LoadContext: AnyObject {
    /// The load's last action failed it with `failure`.
    func loadFailed(_ failure: any Error)
}

extension LoadAction {
    /// Where this action stands in the life of its load, whatever its lane.
    @inlinable
    var lifecycle: LoadLifecycle {
        switch self {
        case .started(let id), .queued(let id): .began(id)
        case .finished(let id, _), .failed(let id, _): .ended(id, cancelled: false)
        case .cancelled(let id): .ended(id, cancelled: true)
        case .retrying, .progress, .planned: .none
        case .more(_, let action), .at(_, let action): action.lifecycle
        case .edit(let edit):
            switch edit {
            case .started(let id, _): .began(id)
            case .confirmed(let id), .failed(let id, _): .ended(id, cancelled: false)
            case .cancelled(let id): .ended(id, cancelled: true)
            case .retrying: .none
            }
        }
    }
}
