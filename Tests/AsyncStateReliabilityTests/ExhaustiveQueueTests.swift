import AsyncState
import AsyncStateTestSupport
import Testing

/// Every interleaving of up to three overlapping loads, each started at once
/// or queued first (`.queued`, then `.started` in its turn, or cancelled
/// before it), each perhaps announcing its plan (`.planned`) and ending
/// finished, failed or cancelled — from three starting states, through the
/// pure state machine, checked step by step against the reference model of
/// the randomized check.
@Suite("Reliability: exhaustive interleavings with a queue and plans")
struct ExhaustiveQueueTests {
    typealias Outcome = ExhaustiveInterleavingTests.Outcome
    typealias Model = RandomizedModelTests.Model

    /// How a load begins.
    enum Entry: CaseIterable { case direct, queued, withdrawn }

    /// One load's script: its events, in order.
    struct Script: CustomStringConvertible {
        var entry: Entry
        var planned: Bool
        var outcome: Outcome

        var eventCount: Int {
            switch entry {
            case .direct: planned ? 3 : 2
            case .queued: planned ? 4 : 3
            case .withdrawn: 2
            }
        }

        /// The action of event `step` (from 0) of load `id`.
        func action(_ id: LoadID, step: Int, value: Int) -> LoadAction<Int, TestError> {
            var events: [LoadAction<Int, TestError>] = []
            switch entry {
            case .direct: events = [.started(id)]
            case .queued: events = [.queued(id), .started(id)]
            case .withdrawn: return step == 0 ? .queued(id) : .cancelled(id)
            }
            if planned { events.append(.planned(id, attempts: 3)) }
            switch outcome {
            case .finish: events.append(.finished(id, value))
            case .fail: events.append(.failed(id, .offline))
            case .cancel: events.append(.cancelled(id))
            }
            return events[step]
        }

        var description: String { "\(entry)\(planned ? "+plan" : "") \(outcome)" }
    }

    /// Every script for `n` loads: with one or two loads every entry, plan
    /// and outcome; with three, no plans, which keeps the check to seconds.
    static func scripts(loads n: Int) -> [[Script]] {
        var one: [Script] = [Script(entry: .withdrawn, planned: false, outcome: .cancel)]
        for entry in [Entry.direct, .queued] {
            for planned in n <= 2 ? [false, true] : [false] {
                for outcome in Outcome.allCases { one.append(Script(entry: entry, planned: planned, outcome: outcome)) }
            }
        }
        return (0..<n).reduce([[]]) { partial, _ in partial.flatMap { prefix in one.map { prefix + [$0] } } }
    }

    @Test("starts and turns admitted as the model says; a queue never outlives its loads; nothing stuck loading; cancellation never fails")
    func everyInterleaving() async {
        var tally = ExhaustiveTally()
        var orderCache: [[Int]: [[Int]]] = [:]
        for start in ExhaustiveInterleavingTests.checkedStarts {
            for n in 1...3 {
                for scripts in Self.scripts(loads: n) {
                    let lengths = scripts.map(\.eventCount)
                    let orders = orderCache[lengths] ?? ExhaustiveLifecycleTests.orders(lengths: lengths)
                    orderCache[lengths] = orders
                    for order in orders {
                        await tally.count(Self.check(start, order, scripts), "\(start.name), order \(order), scripts \(scripts)")
                    }
                }
            }
        }
        tally.expect("exhaustive queue interleavings", checked: Self.expectedCount)
    }

    /// Pinned, so a change to the enumeration cannot silently shrink the
    /// check: 25,426 interleavings per start (counted independently of this
    /// code).
    static let expectedCount = ExhaustiveInterleavingTests.checkedStarts.count * 25_426

    /// The reference model of `loadable`, which was built by plain loads.
    static func model(of loadable: ExhaustiveInterleavingTests.Resource) -> Model {
        var model = Model()
        model.state = loadable.state
        model.lastValue = loadable.value
        model.returnTo = loadable.settledState
        model.highest = loadable.newestID?.rawValue
        return model
    }

    /// Plays one interleaving; returns what went wrong, if anything.
    static func check(_ start: ExhaustiveInterleavingTests.Start, _ order: [Int], _ scripts: [Script]) -> String? {
        var resource = start.loadable
        var model = model(of: resource)
        var steps = Array(repeating: 0, count: scripts.count)
        for k in order {
            let id = LoadID(start.firstID + UInt64(k))
            let action = scripts[k].action(id, step: steps[k], value: k)
            steps[k] += 1
            let before = resource
            let wasError = resource.settledState.isError
            let expected: Bool =
                switch action {
                case .started: model.start(id.rawValue)
                case .queued: model.enqueue(id.rawValue)
                case .planned(_, let attempts): model.plan(id.rawValue, attempts: attempts)
                case .finished(_, let value): model.report(id.rawValue, .success(value: value))
                case .failed(_, let failure): model.report(id.rawValue, .error(error: failure))
                case .cancelled: model.report(id.rawValue, nil)
                default: false
                }
            let applied = resource.apply(action) == .applied
            guard applied == expected else { return "\(action) applied: \(applied), the model says \(expected)" }
            if !applied, resource != before { return "dropped \(action) changed the state" }
            if case .cancelled = action, !wasError, resource.state.isError { return "a cancellation produced an error" }
            let activity = resource.activity
            guard resource.state == model.state, resource.value == model.lastValue, resource.settledState == model.returnTo,
                resource.inFlightID?.rawValue == model.pending, resource.newestID?.rawValue == model.highest,
                resource.queuedIDs.map(\.rawValue) == model.queue, activity?.reason == model.reason,
                activity?.attempt ?? 0 == model.attempt, activity?.attempts == model.attempts, activity?.lastFailure == model.lastFailure
            else { return "after \(action): \(resource) differs from the model \(model)" }
            guard resource.isLoading == resource.state.isLoading, (activity != nil) == resource.isLoading else {
                return "loading flags or activity disagree with loads in flight: \(resource)"
            }
        }
        guard !resource.isLoading, resource.queuedIDs.isEmpty, resource.activity == nil else {
            return "every load has ended, yet \(resource)"
        }
        return nil
    }
}
