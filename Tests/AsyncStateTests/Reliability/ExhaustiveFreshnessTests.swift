import AsyncState
import Testing

/// Every interleaving of up to three overlapping loads (each finishing,
/// failing or cancelled) with one invalidation at every position, through
/// the pure ``FreshLoadable``; due follow-ups start at once and finish.
@Suite("Reliability: exhaustive interleavings with an invalidation")
struct ExhaustiveFreshnessTests {
    typealias Outcome = ExhaustiveInterleavingTests.Outcome

    @Test("an invalidation is never lost, never followed twice, and an overtaken load's value is still shown")
    func everyInterleaving() async {
        var checked = 0
        var failures = 0
        var slice = TimeSlice()
        for n in 1...3 {
            for order in ExhaustiveInterleavingTests.orders(loads: n) {
                for outcomes in ExhaustiveInterleavingTests.outcomes(loads: n) {
                    for position in 0...order.count {
                        if let problem = Self.check(order, outcomes, invalidateAt: position) {
                            failures += 1
                            if failures <= 5 { Issue.record("order \(order), outcomes \(outcomes), invalidate at \(position): \(problem)") }
                        }
                        checked += 1
                        await slice.yieldIfSpent()
                    }
                }
            }
        }
        print("exhaustive interleavings with an invalidation checked: \(checked)")
        #expect(checked == 1 * 3 * 3 + 3 * 9 * 5 + 15 * 27 * 7)
        #expect(failures == 0)
    }

    /// Plays one interleaving from a loaded value; returns what went wrong.
    static func check(_ order: [Int], _ outcomes: [Outcome], invalidateAt position: Int) -> String? {
        var fresh = settled(100, at: 0)
        var seen: Set<Int> = []
        var followUps: [LoadID] = []
        var nextFollowUp = UInt64(100)
        var newestBeforeInvalidation: LoadID? = LoadID(1)
        func followUpIfDue() {
            guard fresh.needsRefetch else { return }
            nextFollowUp += 1
            followUps.append(LoadID(nextFollowUp))
            _ = fresh.apply(.started(LoadID(nextFollowUp)), at: at(0))
        }
        for (index, k) in order.enumerated() {
            if index == position {
                newestBeforeInvalidation = fresh.loadable.newestID
                fresh.invalidate()
                followUpIfDue()
            }
            let id = LoadID(2 + UInt64(k))
            if seen.insert(k).inserted {
                _ = fresh.apply(.started(id), at: at(0))
            } else {
                let wasInFlight = fresh.inFlightID == id
                let overtaken = fresh.isOvertaken(id)
                let action: LoadAction<Int, TestError> =
                    switch outcomes[k] {
                    case .finish: .finished(id, k)
                    case .fail: .failed(id, .offline)
                    case .cancel: .cancelled(id)
                    }
                _ = fresh.apply(action, at: at(0))
                if wasInFlight, overtaken, outcomes[k] == .finish, fresh.value != k {
                    return "the overtaken load \(id) finished but its value is not shown"
                }
                followUpIfDue()
            }
        }
        if position == order.count {
            newestBeforeInvalidation = fresh.loadable.newestID
            fresh.invalidate()
            followUpIfDue()
        }
        // Finish whatever follow-up is in flight.
        if let id = fresh.inFlightID, followUps.contains(id) {
            _ = fresh.apply(.finished(id, -1), at: at(0))
        }
        let startedAfter =
            (fresh.loadable.newestID.map { id in newestBeforeInvalidation.map { id > $0 } ?? true }) ?? false
        guard startedAfter else { return "no load started after the invalidation: \(fresh)" }
        guard followUps.count <= 1 else { return "followed \(followUps.count) times for one invalidation" }
        if fresh.isLoading { return "still loading after the follow-up finished: \(fresh)" }
        // A follow-up that finished answers the invalidation: the value is fresh.
        if !followUps.isEmpty, fresh.value == -1, fresh.isInvalidated {
            return "the follow-up succeeded, yet the value is still invalidated"
        }
        return nil
    }
}
