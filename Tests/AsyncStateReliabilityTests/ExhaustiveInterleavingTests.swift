import AsyncState
import AsyncStateTestSupport
import Testing

/// Every interleaving of start / finish / fail / cancel for up to four
/// overlapping loads, from three starting states, through the pure reducer.
@Suite("Reliability: exhaustive interleavings")
struct ExhaustiveInterleavingTests {
    typealias Resource = Loadable<Int, TestError>

    /// A loadable built by applying `actions` in order.
    static func loadable(_ actions: LoadAction<Int, TestError>...) -> Resource {
        var resource = Resource()
        for action in actions { _ = resource.apply(action) }
        return resource
    }

    enum Outcome: CaseIterable { case finish, fail, cancel }

    /// A starting point, and the ID its loads count from.
    struct Start {
        var name: String
        var loadable: Resource
        var firstID: UInt64
    }

    /// The starts the slowest exhaustive checks play: all of them, but under
    /// the thread sanitizer (`ASYNCSTATE_SANITIZED`) the first alone. Those
    /// checks run pure reducers on one thread, where the sanitizer has no
    /// race to find, and their full counts, at its tenfold cost, set the
    /// length of CI's sanitized run; the plain and optimized runs play every
    /// start.
    static var checkedStarts: [Start] { RandomizedRun.isSanitized ? [starts[0]] : starts }

    static let starts: [Start] = [
        Start(name: "not loaded", loadable: Resource(), firstID: 1),
        Start(name: "loaded", loadable: loadable(.started(id(1)), .finished(id(1), 100)), firstID: 2),
        Start(
            name: "failed refresh", loadable: loadable(.started(id(1)), .finished(id(1), 100), .started(id(2)), .failed(id(2), .offline)),
            firstID: 3),
    ]

    /// All orders of 2n events in which load k starts after load k-1 and
    /// reports after it starts. Each order lists load indices; a load's first
    /// appearance is its start, its second its report.
    static func orders(loads n: Int) -> [[Int]] {
        var result: [[Int]] = []
        func extend(_ order: [Int], started: Int, reported: Set<Int>) {
            if started == n, reported.count == n { result.append(order); return }
            if started < n { extend(order + [started], started: started + 1, reported: reported) }
            for k in 0..<started where !reported.contains(k) {
                extend(order + [k], started: started, reported: reported.union([k]))
            }
        }
        extend([], started: 0, reported: [])
        return result
    }

    static func outcomes(loads n: Int) -> [[Outcome]] {
        (0..<n).reduce([[]]) { partial, _ in partial.flatMap { prefix in Outcome.allCases.map { prefix + [$0] } } }
    }

    @Test("orders count as (2n-1)!! per number of loads", arguments: [(1, 1), (2, 3), (3, 15), (4, 105)])
    func orderCounts(loads: Int, count: Int) {
        #expect(Self.orders(loads: loads).count == count)
    }

    @Test("the newest started load decides; nothing stale applies; cancellation never fails; never loading with nothing in flight")
    func everyInterleaving() async {
        var tally = ExhaustiveTally()
        for start in Self.starts {
            for n in 1...4 {
                let outcomeSets = Self.outcomes(loads: n)
                for order in Self.orders(loads: n) {
                    for outcomes in outcomeSets {
                        await tally.count(Self.check(start, order, outcomes), "\(start.name), order \(order), outcomes \(outcomes)")
                    }
                }
            }
        }
        tally.expect("exhaustive interleavings", checked: 26_820)
    }

    /// Plays one interleaving; returns what went wrong, if anything.
    static func check(_ start: Start, _ order: [Int], _ outcomes: [Outcome]) -> String? {
        var resource = start.loadable
        var startedCount = 0
        var seen: Set<Int> = []
        var newest: Int? // index of the newest started load
        var newestReported = true // whether it has reported
        var chainSettled = resource.state // the state to return to on cancel
        var lastValue = resource.value
        for k in order {
            let loadID = LoadID(start.firstID + UInt64(k))
            if !seen.contains(k) {
                seen.insert(k)
                startedCount += 1
                if newestReported { chainSettled = resource.state }
                guard resource.apply(.started(loadID)) == .applied else { return "start #\(k) was dropped" }
                newest = k
                newestReported = false
                let expected: AsyncState<Int, TestError> = lastValue.map { .refreshing(value: $0) } ?? .loading
                guard resource.state == expected else { return "after start \(k): \(resource.state), expected \(expected)" }
            } else {
                let before = resource
                let action: LoadAction<Int, TestError> =
                    switch outcomes[k] {
                    case .finish: .finished(loadID, k)
                    case .fail: .failed(loadID, .offline)
                    case .cancel: .cancelled(loadID)
                    }
                let shouldApply = k == newest && !newestReported
                let disposition = resource.apply(action)
                guard disposition == (shouldApply ? .applied : .dropped) else {
                    return "\(action) was \(disposition), expected \(shouldApply ? "applied" : "dropped")"
                }
                if !shouldApply {
                    guard resource == before else { return "dropped \(action) changed the state" }
                    continue
                }
                newestReported = true
                switch outcomes[k] {
                case .finish:
                    lastValue = k
                    guard resource.state == .success(value: k) else { return "finish applied as \(resource.state)" }
                case .fail:
                    guard resource.state == .error(error: .offline), resource.value == lastValue else {
                        return "fail applied as \(resource.state)"
                    }
                case .cancel:
                    guard resource.state == chainSettled else { return "cancel returned to \(resource.state), expected \(chainSettled)" }
                    if resource.state.isError, !chainSettled.isError { return "cancellation produced an error" }
                }
            }
            guard resource.isLoading == !newestReported, resource.state.isLoading == resource.isLoading else {
                return "loading flags disagree with loads in flight: \(resource)"
            }
        }
        guard !resource.isLoading, !resource.state.isLoading else { return "still loading with nothing in flight" }
        let last = order.count / 2 - 1
        let expected: AsyncState<Int, TestError> =
            switch outcomes[last] {
            case .finish: .success(value: last)
            case .fail: .error(error: .offline)
            case .cancel: chainSettled
            }
        return resource.state == expected ? nil : "final state \(resource.state), expected \(expected)"
    }
}
