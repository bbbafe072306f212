import AsyncState
import AsyncStateTestSupport
import Testing

/// Every interleaving of up to three overlapping loads (each finishing,
/// failing or cancelled) with one invalidation at every position, through
/// the pure state machine, from a loaded value.
///
/// Changed by design: an invalidation no longer waits for the load it
/// overtook. Two ways to invalidate are checked: a reducer's, which reloads
/// in the same step (the reload supersedes every load before it), and a
/// host's for a value nobody uses, which only marks it (the load in flight
/// may settle, and its value shows, still invalidated).
@Suite("Reliability: exhaustive interleavings with an invalidation")
struct ExhaustiveFreshnessTests {
    typealias Outcome = ExhaustiveInterleavingTests.Outcome

    enum Invalidation: CaseIterable { case reloadAtOnce, markOnly }

    @Test(
        "an invalidation is never lost, reloads once, and an overtaken load never wins over the reload",
        arguments: Invalidation.allCases)
    func everyInterleaving(invalidation: Invalidation) async {
        var tally = ExhaustiveTally()
        for n in 1...3 {
            for order in ExhaustiveInterleavingTests.orders(loads: n) {
                for outcomes in ExhaustiveInterleavingTests.outcomes(loads: n) {
                    for position in 0...order.count {
                        await tally.count(
                            Self.check(order, outcomes, invalidateAt: position, invalidation),
                            "order \(order), outcomes \(outcomes), invalidate at \(position)")
                    }
                }
            }
        }
        tally.expect("exhaustive interleavings with an invalidation (\(invalidation))", checked: 1 * 3 * 3 + 3 * 9 * 5 + 15 * 27 * 7)
    }

    /// Plays one interleaving from a loaded value; returns what went wrong.
    static func check(_ order: [Int], _ outcomes: [Outcome], invalidateAt position: Int, _ invalidation: Invalidation) -> String? {
        var loadable = freshlyLoaded(100, at: 0)
        // Each load takes the next ID as it starts, the reload too: a load
        // started after the reload supersedes it.
        var ids: [Int: LoadID] = [:]
        var nextID: UInt64 = 2
        var reloads: [LoadID] = []
        // The reference: the newest load when invalidated, and whether a
        // load started after it has succeeded since.
        var mark: UInt64?
        var invalidated = false

        func invalidate() -> String? {
            mark = loadable.newestID?.rawValue
            invalidated = true
            loadable.invalidate()
            guard invalidation == .reloadAtOnce else { return nil }
            let reload = LoadID(nextID)
            nextID += 1
            reloads.append(reload)
            guard loadable.apply(.started(reload)) == .applied else { return "the reload \(reload) was dropped" }
            if loadable.isOvertaken(reload) { return "the reload \(reload) is overtaken by the invalidation it answers" }
            return nil
        }

        for (index, k) in order.enumerated() {
            if index == position, let problem = invalidate() { return problem }
            guard let id = ids[k] else {
                let id = LoadID(nextID)
                nextID += 1
                ids[k] = id
                guard loadable.apply(.started(id)) == .applied else { return "start \(id) was dropped" }
                if loadable.isOvertaken(id) { return "\(id), started after the invalidation, is overtaken by it" }
                continue
            }
            do {
                let wasInFlight = loadable.inFlightID == id
                let overtaken = loadable.isOvertaken(id)
                let action: LoadAction<Int, TestError> =
                    switch outcomes[k] {
                    case .finish: .at(instant(ms: 0), .finished(id, k))
                    case .fail: .failed(id, .offline)
                    case .cancel: .cancelled(id)
                    }
                let applied = loadable.apply(action) == .applied
                if applied != wasInFlight { return "\(action) applied: \(applied), in flight: \(wasInFlight)" }
                if applied, overtaken, invalidation == .reloadAtOnce {
                    return "a load the invalidation overtook settled over its reload: \(action)"
                }
                if applied, outcomes[k] == .finish {
                    if loadable.value != k { return "\(id) finished but its value is not shown" }
                    // Only a load started after the invalidation answers it.
                    if invalidated, mark.map({ id.rawValue > $0 }) ?? true { invalidated = false }
                }
            }
            if loadable.isInvalidated != invalidated {
                return "invalidated: \(loadable.isInvalidated), the reference says \(invalidated): \(loadable)"
            }
        }
        if position == order.count, let problem = invalidate() { return problem }
        if loadable.isInvalidated != invalidated { return "invalidated: \(loadable.isInvalidated), the reference says \(invalidated)" }
        // Finish whatever reload is in flight.
        if let id = loadable.inFlightID, reloads.contains(id) {
            _ = loadable.apply(.at(instant(ms: 0), .finished(id, -1)))
            invalidated = false
        }
        guard reloads.count <= 1 else { return "reloaded \(reloads.count) times for one invalidation" }
        if loadable.isLoading { return "still loading after every load ended: \(loadable)" }
        if loadable.isInvalidated != invalidated {
            return "invalidated at the end: \(loadable.isInvalidated), the reference says \(invalidated)"
        }
        if invalidation == .reloadAtOnce {
            let startedAfter = loadable.newestID.map { id in mark.map { id.rawValue > $0 } ?? true } ?? false
            guard startedAfter else { return "no load started after the invalidation: \(loadable)" }
        }
        if loadable.isInvalidated, !loadable.isStale(maxAge: .seconds(3_600), at: instant(ms: 0)) {
            return "invalidated, yet fresh: \(loadable)"
        }
        return nil
    }
}
