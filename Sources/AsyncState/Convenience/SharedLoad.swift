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
    /// The callers still waiting.
    package private(set) var callers: Set<Int> = []
    private var nextCaller = 0

    package init() {}

    /// Adds a caller and returns its number, or `nil` once the load no longer
    /// takes callers (it was abandoned or has ended).
    package mutating func join() -> Int? {
        guard phase == .running else { return nil }
        defer { nextCaller += 1 }
        callers.insert(nextCaller)
        return nextCaller
    }

    /// Withdraws `caller`, and says whether the load must now be cancelled:
    /// `true` exactly when `caller` was the last one waiting for a running load.
    /// Leaving twice, or leaving with a number never handed out, changes nothing.
    package mutating func leave(_ caller: Int) -> Bool {
        guard callers.remove(caller) != nil, phase == .running, callers.isEmpty else { return false }
        phase = .abandoned
        return true
    }

    /// The load has ended: every caller is released.
    package mutating func end() {
        phase = .ended
        callers.removeAll()
    }
}

/// One load of an ``AsyncValue`` and the callers waiting for it, each of whom
/// can leave on its own.
///
/// A caller waits on a continuation rather than on the load's task, so it can
/// return the moment its own task is cancelled while the load goes on for the
/// others. The last caller to leave asks the owner, through `abandon`, to
/// cancel the load.
@MainActor
final class SharedLoad {
    /// The load's ID, known once its `.started` action is processed.
    var id: LoadID?
    /// Whether the load's last action was `.cancelled`: a caller that waited
    /// to the end of a cancelled load did not see it finish or fail.
    var endedCancelled = false
    /// What the caller that started the load attached to it, for callers that
    /// join: ``OperationTracker`` keeps the run's result there.
    let context: AnyObject?
    private(set) var shares = LoadShares()
    /// Resumed with `true` when the load ends, `false` when the caller leaves.
    private var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
    private let abandon: @MainActor (LoadID) -> Void

    init(context: AnyObject?, abandon: @escaping @MainActor (LoadID) -> Void) {
        self.context = context
        self.abandon = abandon
    }

    /// Adds a caller, or returns `nil` if the load no longer takes callers.
    func join() -> Int? {
        shares.join()
    }

    /// Waits until the load ends or `caller`'s task is cancelled, whichever
    /// comes first. Returns `true` if the load ended, `false` if the caller left.
    func wait(for caller: Int) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                // Leaving and ending both happen on the main actor, like this
                // registration, so a caller that is no longer listed has
                // already been released and must not wait.
                if shares.callers.contains(caller) {
                    waiters[caller] = continuation
                } else {
                    continuation.resume(returning: shares.phase == .ended)
                }
            }
        } onCancel: {
            // The handler runs on whichever thread cancelled the task; the
            // shares live on the main actor.
            Task { @MainActor in self.leave(caller) }
        }
    }

    /// Withdraws `caller`, releasing it at once; the last caller to leave a
    /// running load abandons it.
    func leave(_ caller: Int) {
        let isLast = shares.leave(caller)
        waiters.removeValue(forKey: caller)?.resume(returning: false)
        if isLast, let id { abandon(id) }
    }

    /// The load sent its last action: releases every caller still waiting.
    func end() {
        shares.end()
        let released = waiters
        waiters = [:]
        for continuation in released.values { continuation.resume(returning: true) }
    }
}
