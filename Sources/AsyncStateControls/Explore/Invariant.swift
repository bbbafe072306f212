import AsyncState

/// A property every state of an exploration must have, named for reports.
///
/// ```swift
/// let nonEmpty = Invariant<Search.State>("results only for a query") { $0.results.value == nil || !$0.query.isEmpty }
/// ```
public struct Invariant<State>: Sendable {
    /// The name a report gives when the invariant breaks.
    public var name: String
    let holds: @Sendable (State) -> Bool

    /// An invariant named `name` that holds when `holds` returns `true`.
    public init(_ name: String, _ holds: @escaping @Sendable (State) -> Bool) {
        self.name = name
        self.holds = holds
    }
}

/// The kit's own promises, checked on every step of every ordering — and on
/// every step of a replay, so a failure minimizes by replaying.
enum KitInvariant: String, CaseIterable, Sendable {
    case noStaleResultWins = "no stale result wins"
    case nothingStuckLoading = "nothing stuck loading"
    case noConfirmedEditLost = "no confirmed edit lost"
    case noInvalidationLost = "no invalidation lost"
    case cancellationIsNotFailure = "cancellation is never failure"

    /// The first kit promise `action` broke, going from `before` to `after`
    /// (dropped or not), with why; `nil` if it kept them all.
    static func check(before: Any, action: Any, isDropped: Bool, after: Any) -> (KitInvariant, String)? {
        guard let event = LoadInspection.event(of: action) else { return nil }
        let loadablesBefore = LoadInspection.loadables(in: before)
        // Applied: not dropped, and the state changed. A reducer that lets
        // a late result go by returning `.none` drops it as surely as a
        // loadable's gate, though it cannot say so.
        if event.isResult, !isDropped, !loadablesBefore.contains(where: { $0.loadable.liveIDs.contains(event.id) }),
            changed(from: before, to: after)
        {
            return (
                .noStaleResultWins,
                "a result of load \(event.id), which was no longer running, was applied: \(ValueDump.renderOneLine(action))"
            )
        }
        let loadablesAfter = LoadInspection.loadables(in: after)
        if event.kind == .failed, !isDropped, LoadInspection.failsWithCancellation(action) {
            return (.cancellationIsNotFailure, "a cancelled load was shown as failed: \(ValueDump.renderOneLine(action))")
        }
        if [.finished, .progress, .confirmed].contains(event.kind), !isDropped {
            for entry in loadablesAfter {
                guard let earlier = entry.loadable.earlier(in: loadablesBefore, at: entry.path),
                    let lost = entry.loadable.base.lostConfirmedEdit(before: earlier.base, event: event)
                else { continue }
                return (.noConfirmedEditLost, "\(entry.path.isEmpty ? "the state" : entry.path): \(lost)")
            }
        }
        if event.kind == .finished, !isDropped {
            // A loss shows a value as fresh: a loadable the step left with
            // no succeeded value (reset, say, as its list arrived) shows
            // nothing stale, whichever loadable's load ended. Any loadable
            // is checked — a reducer may write one load's result into
            // another — and IDs are the store's, so "started before" holds
            // across loadables.
            for entry in loadablesAfter where entry.loadable.invalidatedBefore == nil && entry.loadable.showsSucceededValue {
                guard let newest = entry.loadable.earlier(in: loadablesBefore, at: entry.path)?.invalidatedBefore else { continue }
                if let newest, event.id <= newest {
                    return (
                        .noInvalidationLost,
                        "\(entry.path) was invalidated while load \(newest) was the newest started; load \(event.id), which started before, cleared it"
                    )
                }
            }
        }
        return nil
    }

    /// Whether a step changed the state: `!=` for an `Equatable` state, which
    /// sees what the dump does not (past its depth, or its text alike), and
    /// otherwise — or when `==` calls the two equal — their dumps, which see
    /// a field `==` ignores.
    static func changed(from before: Any, to after: Any) -> Bool {
        if let before = before as? any Equatable, !before.isEqual(toAny: after) { return true }
        return String(dumping: before) != String(dumping: after)
    }

    /// Whether `state`, at the end of an ordering, still has loads running.
    static func checkEnd(_ state: Any) -> (KitInvariant, String)? {
        for entry in LoadInspection.loadables(in: state) where !entry.loadable.liveIDs.isEmpty {
            let ids = entry.loadable.liveIDs.map(\.description).joined(separator: ", ")
            return (
                .nothingStuckLoading,
                "\(entry.path.isEmpty ? "the state" : entry.path) still has load \(ids) running after every effect ended"
            )
        }
        return nil
    }
}
