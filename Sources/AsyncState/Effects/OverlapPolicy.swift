/// What a load or operation does when it is started while an earlier one of
/// the same resource is still in flight.
///
/// One set of policies serves every layer: a reducer passes it to
/// ``Loadable/load(_:_:overlap:)``, and ``AsyncValue`` and
/// ``OperationTracker`` take it in `load` and `run`.
///
/// ```swift
/// case .saveTapped:
///     // A double tap while saving starts nothing.
///     let draft = state.draft
///     return state.save.load(
///         Action.save, LoadRequest { () async throws(SaveError) in try await api.save(draft) }, overlap: .firstWins)
/// ```
///
/// | policy | the earlier load | the new start |
/// |---|---|---|
/// | ``latestWins`` | cancelled; its result is dropped | runs and settles the state |
/// | ``latestWins(cancellingEarlier:)`` with `false` | runs to its end; its result is dropped | runs and settles the state |
/// | ``firstWins`` | runs and settles the state | ignored |
/// | ``join`` | runs and settles the state | waits for the earlier one |
/// | ``queue`` | runs and settles the state | runs after it, and after every start queued before it (FIFO) |
///
/// Policies mixed on one resource keep these rules start by start. A queued
/// start gets its ``LoadID`` when it is queued (and says so with
/// ``LoadAction/queued(_:)``), and waits for the load it was queued behind to
/// end, however that load ends. So a ``latestWins`` start made while runs wait
/// in the queue is newer than all of them: it supersedes the load in flight
/// and the queued runs, which never start — even with `cancellingEarlier:
/// false`, which lets only work already running finish. And while queued
/// runs wait for the work of a load that was cancelled, or behind one that an
/// invalidation overtook, the last of them stands for the load in flight: a
/// new ``queue`` start waits behind it, a ``firstWins`` start is ignored, and
/// a ``join`` waits for it.
public struct OverlapPolicy: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline
    enum Kind: Hashable, Sendable {
        case latestWins(cancellingEarlier: Bool)
        case firstWins
        case join
        case queue
    }

    @usableFromInline let _kind: Kind

    @inlinable
    init(_ kind: Kind) {
        _kind = kind
    }

    /// The new start supersedes the earlier one, whose work is cancelled and
    /// whose result can never appear. The default.
    @inlinable
    public static var latestWins: OverlapPolicy { OverlapPolicy(.latestWins(cancellingEarlier: true)) }

    /// The new start supersedes the earlier one; with `cancellingEarlier:
    /// false` the earlier work runs to its end (for work with side effects that
    /// must complete) and its result is dropped as stale.
    @inlinable
    public static func latestWins(cancellingEarlier: Bool) -> OverlapPolicy {
        OverlapPolicy(.latestWins(cancellingEarlier: cancellingEarlier))
    }

    /// The new start is ignored while one is in flight — for example a
    /// double-tapped Save button.
    @inlinable
    public static var firstWins: OverlapPolicy { OverlapPolicy(.firstWins) }

    /// The new start waits for the one in flight instead of starting another,
    /// deduplicating identical loads.
    ///
    /// With ``AsyncValue`` and ``OperationTracker`` the load is shared by its
    /// callers, the one that started it included: cancelling one caller's task
    /// withdraws only that caller, which returns at once, and the load is
    /// cancelled when the last caller leaves.
    ///
    /// From a reducer, the load belongs to the store. The ``StoreTask`` of the
    /// `send` that joined only waits for it: cancelling that task (or the task
    /// awaiting its `finish()`) returns at once and never cancels the load. The
    /// `StoreTask` of the `send` that started the load owns it like any effect
    /// it started: cancelling it cancels the load for everyone. So a screen
    /// that may leave while others still wait sends the starting action without
    /// cancelling its task on the way out, and the reducer cancels the load
    /// itself (``Effect/cancel(load:)``) when nobody needs it any more.
    @inlinable
    public static var join: OverlapPolicy { OverlapPolicy(.join) }

    /// The new start waits its turn: starts of the same resource run one after
    /// another, in the order they were made, each settling the state — for
    /// saves that must all reach the server in order. The state counts the
    /// starts waiting (``Loadable/queuedIDs``). Cancelling one
    /// (``Effect/cancel(load:)`` with its ID, its caller's task) withdraws it at
    /// once; ``AsyncValue/cancel()`` and ``OperationTracker/cancel(_:)`` also
    /// remove every start still waiting.
    @inlinable
    public static var queue: OverlapPolicy { OverlapPolicy(.queue) }

    /// Whether a load started under this policy cancels the work of the
    /// earlier load it supersedes.
    @inlinable
    var cancelsEarlier: Bool {
        if case .latestWins(cancellingEarlier: false) = _kind { false } else { true }
    }

    /// What a start under this policy does while load `inFlight` runs — the
    /// one decision every layer and host makes through here.
    ///
    /// A load that an invalidation has overtaken (`isOvertaken`) is already
    /// known to be out of date: ``firstWins`` and ``join`` never hold on to
    /// it, and start a load that supersedes it instead.
    @inlinable
    func decision(inFlight: LoadID?, isOvertaken: Bool = false) -> OverlapDecision {
        guard let inFlight else { return .start }
        switch _kind {
        case .latestWins: return .start
        case .firstWins: return isOvertaken ? .start : .ignore
        case .join: return isOvertaken ? .start : .join(inFlight)
        case .queue: return .queue(behind: inFlight)
        }
    }

    /// The policy as written in code, e.g. `latestWins(cancellingEarlier: false)`.
    public var description: String {
        switch _kind {
        case .latestWins(cancellingEarlier: true): "latestWins"
        case .latestWins(cancellingEarlier: false): "latestWins(cancellingEarlier: false)"
        case .firstWins: "firstWins"
        case .join: "join"
        case .queue: "queue"
        }
    }
}

/// What one start does, as ``OverlapPolicy`` decides it.
@usableFromInline
enum OverlapDecision: Equatable {
    /// Start a load, superseding the one in flight if any.
    case start
    /// Start nothing.
    case ignore
    /// Wait for the load in flight instead of starting another.
    case join(LoadID)
    /// Start once the load in flight, and every load queued behind it, ended.
    case queue(behind: LoadID)
}
