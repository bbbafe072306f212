import AsyncState
import AsyncStateTestSupport
import Testing

/// Every interleaving of up to three overlapping loads in which each load,
/// between its start and its end, may report a retry, a partial value, or
/// (with up to two loads) both in either order — from three starting states, through the pure reducer. Covers
/// cancellation in every phase (during an attempt, during a backoff wait,
/// mid-stream), stale retries and stale progress, and a newer load
/// superseding a retry chain or a stream.
@Suite("Reliability: exhaustive lifecycle interleavings")
struct ExhaustiveLifecycleTests {
    /// What a load reports between its start and its end.
    enum Middle: CaseIterable { case nothing, retry, progress, progressThenRetry, retryThenProgress }
    enum Outcome: CaseIterable { case finish, fail, cancel }

    /// One load's script: its events after the start, in order.
    struct Script {
        var middle: Middle
        var outcome: Outcome
        var eventCount: Int {
            switch middle {
            case .nothing: 2
            case .retry, .progress: 3
            case .progressThenRetry, .retryThenProgress: 4
            }
        }
    }

    typealias Start = ExhaustiveInterleavingTests.Start

    /// All orders of the events of loads with `lengths` events each, in which
    /// load k starts after load k-1. Each order lists load indices; a load's
    /// first appearance is its start, the following ones its later events.
    static func orders(lengths: [Int]) -> [[Int]] {
        var result: [[Int]] = []
        let n = lengths.count
        func extend(_ order: [Int], started: Int, used: [Int]) {
            if started == n, zip(used, lengths).allSatisfy({ $0 == $1 }) { result.append(order); return }
            if started < n {
                var next = used
                next[started] = 1
                extend(order + [started], started: started + 1, used: next)
            }
            for k in 0..<started where used[k] < lengths[k] {
                var next = used
                next[k] += 1
                extend(order + [k], started: started, used: next)
            }
        }
        extend([], started: 0, used: Array(repeating: 0, count: n))
        return result
    }

    /// Every script for `n` loads. Three loads report at most one event in
    /// between, which keeps the check to seconds; two loads try every middle.
    static func scripts(loads n: Int) -> [[Script]] {
        let middles: [Middle] = n <= 2 ? Middle.allCases : [.nothing, .retry, .progress]
        let one = middles.flatMap { middle in Outcome.allCases.map { Script(middle: middle, outcome: $0) } }
        return (0..<n).reduce([[]]) { partial, _ in partial.flatMap { prefix in one.map { prefix + [$0] } } }
    }

    @Test("orders are counted as by hand")
    func orderCounts() {
        #expect(Self.orders(lengths: [2]).count == 1)
        #expect(Self.orders(lengths: [2, 2]).count == 3)
        // s0 then any order of e0, e0' with s1, e1 after s1: C(4,2)-style count.
        #expect(Self.orders(lengths: [3, 2]).count == 6)
        #expect(Self.orders(lengths: [2, 3]).count == 4)
    }

    // One case per starting state, so the cases run side by side: under
    // the thread sanitizer this check, in one case, set the length of the
    // whole test run (207 s of 210 in CI).
    @Test(
        "retries and progress apply only to the load in flight; every end is as for a plain load; a partial value never outlives its attempt",
        arguments: ExhaustiveInterleavingTests.checkedStarts.map(\.name)
    )
    func everyInterleaving(from startName: String) async throws {
        let start = try #require(ExhaustiveInterleavingTests.starts.first { $0.name == startName })
        var tally = ExhaustiveTally()
        var orderCache: [[Int]: [[Int]]] = [:]
        for n in 1...3 {
            for scripts in Self.scripts(loads: n) {
                let lengths = scripts.map(\.eventCount)
                let orders = orderCache[lengths] ?? Self.orders(lengths: lengths)
                orderCache[lengths] = orders
                for order in orders {
                    await tally.count(Self.check(start, order, scripts), "\(start.name), order \(order), scripts \(scripts)")
                }
            }
        }
        tally.expect("exhaustive lifecycle interleavings from \(start.name)", checked: Self.expectedCountPerStart)
    }

    /// Pinned, so a change to the enumeration cannot silently shrink the
    /// check: per start, 3,372 interleavings of one or two loads and 96,795
    /// of three (counted independently of this code).
    static let expectedCountPerStart = 3_372 + 96_795

    @Test("each starting state has a name of its own, so each case of the check plays its own")
    func startNames() {
        let names = ExhaustiveInterleavingTests.starts.map(\.name)
        #expect(names.count == 3 && Set(names).count == names.count)
    }

    /// The action for the `step`-th event (from 1) after load `k`'s start.
    static func action(_ k: Int, _ loadID: LoadID, _ script: Script, step: Int) -> LoadAction<Int, TestError> {
        let middles: [LoadAction<Int, TestError>] =
            switch script.middle {
            case .nothing: []
            case .retry: [.retrying(loadID, retry(k))]
            case .progress: [.progress(loadID, 1_000 + k)]
            case .progressThenRetry: [.progress(loadID, 1_000 + k), .retrying(loadID, retry(k))]
            case .retryThenProgress: [.retrying(loadID, retry(k)), .progress(loadID, 1_000 + k)]
            }
        if step <= middles.count { return middles[step - 1] }
        return switch script.outcome {
        case .finish: .finished(loadID, k)
        case .fail: .failed(loadID, .offline)
        case .cancel: .cancelled(loadID)
        }
    }

    static func retry(_ k: Int) -> LoadRetry<TestError> {
        LoadRetry(attempt: 1, of: 3, failure: .timedOut, wait: .seconds(k + 1))
    }

    /// Plays one interleaving; returns what went wrong, if anything.
    static func check(_ start: Start, _ order: [Int], _ scripts: [Script]) -> String? {
        var resource = start.loadable
        var steps = Array(repeating: 0, count: scripts.count)
        var newest: Int?
        var newestSettled = true
        var chainSettled = resource.state
        var lastValue = resource.value
        var partial: Int?
        var expectedActivity: LoadActivity<TestError>?
        for k in order {
            let loadID = LoadID(start.firstID + UInt64(k))
            defer { steps[k] += 1 }
            if steps[k] == 0 {
                if newestSettled { chainSettled = resource.state }
                guard resource.apply(.started(loadID)) == .applied else { return "start #\(k) was dropped" }
                newest = k
                newestSettled = false
                partial = nil
                let reason: LoadActivity<TestError>.Reason =
                    chainSettled.isError ? .retryAfterFailure : lastValue == nil ? .firstLoad : .refresh
                guard let activity = resource.activity, activity.reason == reason, activity.attempt == 1, !activity.isRetry,
                    activity.lastFailure == chainSettled.error
                else { return "after start \(k): activity \(String(describing: resource.activity)), expected \(reason)" }
                expectedActivity = activity
            } else {
                let before = resource
                let action = Self.action(k, loadID, scripts[k], step: steps[k])
                let shouldApply = k == newest && !newestSettled
                let disposition = resource.apply(action)
                guard disposition == (shouldApply ? .applied : .dropped) else {
                    return "\(action) was \(disposition), expected \(shouldApply ? "applied" : "dropped")"
                }
                if !shouldApply {
                    guard resource == before else { return "dropped \(action) changed the state" }
                    continue
                }
                switch action {
                case .retrying(_, let retry):
                    partial = nil
                    guard let activity = resource.activity, let previous = expectedActivity, activity.reason == previous.reason,
                        activity.attempt == retry.attempt + 1, activity.attempts == retry.attempts, activity.wait == retry.wait,
                        activity.lastFailure == retry.failure, activity.isRetry
                    else { return "retry applied as activity \(String(describing: resource.activity))" }
                    expectedActivity = activity
                case .progress(_, let value):
                    partial = value
                    guard resource.state == .refreshing(value: value), resource.partialValue == value else {
                        return "progress applied as \(resource.state)"
                    }
                    guard resource.activity == expectedActivity else { return "progress changed the activity" }
                case .finished(_, let value):
                    newestSettled = true
                    partial = nil
                    lastValue = value
                    guard resource.state == .success(value: value) else { return "finish applied as \(resource.state)" }
                case .failed:
                    newestSettled = true
                    partial = nil
                    guard resource.state == .error(error: .offline) else { return "fail applied as \(resource.state)" }
                case .cancelled:
                    newestSettled = true
                    partial = nil
                    guard resource.state == chainSettled else { return "cancel returned to \(resource.state), expected \(chainSettled)" }
                    if resource.state.isError, !chainSettled.isError { return "cancellation produced an error" }
                case .started, .planned, .queued, .more, .edit, .at:
                    return "\(action) among the later events"
                }
            }
            guard resource.value == (partial ?? lastValue), resource.partialValue == partial else {
                return
                    "value \(String(describing: resource.value)), expected partial \(String(describing: partial)) or \(String(describing: lastValue))"
            }
            guard resource.isLoading == !newestSettled, resource.state.isLoading == resource.isLoading,
                (resource.activity != nil) == resource.isLoading
            else { return "loading flags or activity disagree with loads in flight: \(resource)" }
            if partial == nil, resource.isLoading {
                let shown: AsyncState<Int, TestError> = lastValue.map { .refreshing(value: $0) } ?? .loading
                guard resource.state == shown else { return "in flight without a partial value, yet \(resource.state)" }
            }
        }
        guard !resource.isLoading, !resource.state.isLoading, resource.activity == nil, resource.partialValue == nil else {
            return "still loading with nothing in flight"
        }
        let last = scripts.count - 1
        let expected: AsyncState<Int, TestError> =
            switch scripts[last].outcome {
            case .finish: .success(value: last)
            case .fail: .error(error: .offline)
            case .cancel: chainSettled
            }
        return resource.state == expected ? nil : "final state \(resource.state), expected \(expected)"
    }
}
