import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import AsyncStateTesting
import Foundation
import Testing

/// Random joins and leaves of the callers of a shared load, checked step by
/// step against the reference "the load is cancelled if and only if no caller
/// remains" — first the pure bookkeeping, then real callers of an
/// `AsyncValue` in real tasks.
///
/// Seeded like the other randomized checks: `ASYNCSTATE_SEED` replays a run,
/// `ASYNCSTATE_SEQUENCES` changes how many sequences each check plays. A
/// failure prints the variables that replay it alone.
@Suite("Reliability: shared loads, randomized", .hangGuard)
struct SharedLoadModelTests {
    // MARK: The bookkeeping alone

    @Test("LoadShares: 100,000 random sequences of joins, leaves and ends agree with the reference")
    func shares() async {
        let run = RandomizedRun(defaultCount: 100_000, sanitizedMaximum: 1_000)
        var steps = 0
        guard await run.playSequences({ Self.playShares(seed: $0, steps: &steps) }) else { return }
        print("shared-load bookkeeping check: \(run.count) sequences, \(steps) steps, seed \(run.seed)")
        #expect(run.count == 0 || steps > run.count)
    }

    /// Plays one sequence on one load: its starter joins first, as in
    /// `AsyncValue`; then random joins, leaves (of waiting callers, callers
    /// that already left, and numbers never handed out) and an end.
    static func playShares(seed: UInt64, steps: inout Int) -> String? {
        var random = SplitMix64(seed: seed)
        var shares = LoadShares()
        // The reference.
        var waiting: Set<Int> = []
        var issued: [Int] = []
        var cancelled = false
        var ended = false
        var log: [String] = []

        func join() -> String? {
            let caller = shares.join()
            log.append("join → \(caller.map(String.init) ?? "nil")")
            if cancelled || ended {
                return caller == nil ? nil : "a cancelled or ended load took a caller"
            }
            guard let caller, !issued.contains(caller) else { return "a running load refused a caller, or repeated a number" }
            waiting.insert(caller)
            issued.append(caller)
            return nil
        }

        if let problem = join() { return problem + "\n" + log.joined(separator: "\n") }
        let length = Int.random(in: 1...20, using: &random)
        for _ in 0..<length {
            steps += 1
            var problem: String?
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<35:
                problem = join()
            case 35..<80: // a caller that was handed a number leaves, perhaps again
                guard let caller = issued.randomElement(using: &random) else { continue }
                let mustCancel = !cancelled && !ended && waiting.contains(caller) && waiting.count == 1
                let cancels = shares.leave(caller)
                log.append("leave \(caller) → \(cancels)")
                waiting.remove(caller)
                if mustCancel { cancelled = true }
                if cancels != mustCancel { problem = "leave said cancel \(cancels), the reference \(mustCancel)" }
            case 80..<88: // a number never handed out
                let stranger = issued.count + Int.random(in: 0..<3, using: &random)
                log.append("leave stranger \(stranger)")
                if shares.leave(stranger) { problem = "a stranger leaving cancelled the load" }
            default:
                log.append("end")
                shares.end()
                ended = true
                waiting.removeAll()
            }
            if problem == nil {
                let phase: LoadShares.Phase = ended ? .ended : cancelled ? .abandoned : .running
                if shares.phase != phase || shares.callers != waiting {
                    problem = "\(shares.phase) with \(shares.callers.sorted()), the reference \(phase) with \(waiting.sorted())"
                } else if shares.count != waiting.count
                    || issued.contains(where: { shares.isWaiting($0) != waiting.contains($0) })
                    || shares.isWaiting(issued.count) || shares.isWaiting(-1)
                {
                    problem = "count \(shares.count) or isWaiting disagree with the callers \(waiting.sorted())"
                } else if !ended, cancelled != waiting.isEmpty {
                    problem = "cancelled is \(cancelled) with \(waiting.count) callers waiting"
                }
            }
            if let problem { return problem + "\n" + log.joined(separator: "\n") }
        }
        return nil
    }

    // MARK: Real callers

    @Test("AsyncValue: random joins and leaves of real callers; the load is cancelled iff no caller remains")
    @MainActor
    func realCallers() async {
        // Capped at its own count: under the thread sanitizer, CI's 10,000
        // sequences of real callers took 219 s.
        let run = RandomizedRun(defaultCount: 1_000, maximum: 1_000)
        var steps = 0
        guard await run.playSequences({ await Self.playCallers(seed: $0, steps: &steps) }) else { return }
        print("shared-load caller check: \(run.count) sequences, \(steps) steps, seed \(run.seed)")
        #expect(run.count == 0 || steps > run.count)
    }

    /// One sequence against one `AsyncValue`: callers `load(overlap: .join)`
    /// (the first of a round starts the load, the others join it), leave by
    /// having their tasks cancelled, and the round ends when the operation
    /// finishes, the value's `cancel()` is called, or the last caller leaves.
    @MainActor
    static func playCallers(seed: UInt64, steps: inout Int) async -> String? {
        var random = SplitMix64(seed: seed)
        let value = AsyncValue<Int, AnyError>()
        let runs = ChangeCounter()
        // The reference.
        var waiting: [Task<Int?, Never>] = []
        var departed: [Task<Int?, Never>] = []
        var gate: Gate<Int>? // the round in flight
        var lastValue: Int?
        var expectedRuns = 0
        var log: [String] = []

        let length = Int.random(in: 1...16, using: &random)
        for _ in 0..<length {
            steps += 1
            var problem: String?
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<40: // a caller arrives
                let starts = gate == nil
                let round = gate ?? Gate<Int>()
                if starts {
                    gate = round
                    expectedRuns += 1
                }
                log.append(starts ? "a caller starts a load" : "a caller joins")
                waiting.append(
                    await startCaller {
                        await value.load(overlap: .join) {
                            runs.increment()
                            return try await round.wait()
                        }
                        return value.value
                    })
                if starts { await round.waitForArrivals() }
            case 40..<75: // a caller leaves; perhaps one that already left
                if waiting.isEmpty || Int.random(in: 0..<5, using: &random) == 0 {
                    guard let caller = departed.randomElement(using: &random) else { continue }
                    log.append("a departed caller is cancelled again")
                    caller.cancel()
                    continue
                }
                let caller = waiting.remove(at: Int.random(in: 0..<waiting.count, using: &random))
                log.append("a caller leaves, \(waiting.count) remain")
                caller.cancel()
                let saw = await caller.value
                departed.append(caller)
                if saw != lastValue {
                    problem = "a departed caller saw \(String(describing: saw)), expected \(String(describing: lastValue))"
                }
                if waiting.isEmpty, let round = gate {
                    gate = nil
                    if !round.observedCancellation { problem = "the last caller left and the work was not cancelled" }
                }
            case 75..<90: // the operation finishes
                guard let round = gate else { continue }
                let result = Int.random(in: 0..<1_000, using: &random)
                log.append("the operation returns \(result)")
                round.open(with: result)
                lastValue = result
                gate = nil
                for caller in waiting where await caller.value != result {
                    problem = "a caller waiting when the load finished did not see its value"
                }
                departed += waiting
                waiting.removeAll()
                if round.observedCancellation { problem = "a finished round was cancelled" }
            default: // cancel() for everyone, also with nothing in flight
                log.append("cancel()")
                value.cancel()
                if let round = gate {
                    for caller in waiting { _ = await caller.value }
                    departed += waiting
                    waiting.removeAll()
                    gate = nil
                    if !round.observedCancellation { problem = "cancel() did not cancel the work" }
                }
            }
            if problem == nil {
                let expected: AsyncState<Int, AnyError> =
                    gate != nil
                    ? lastValue.map { .refreshing(value: $0) } ?? .loading
                    : lastValue.map { .success(value: $0) } ?? .notLoaded
                if value.state != expected {
                    problem = "state \(value.state), expected \(expected)"
                } else if value.callerCount != waiting.count {
                    problem = "\(value.callerCount) callers wait, the reference says \(waiting.count)"
                } else if runs.value != expectedRuns {
                    problem = "the operation ran \(runs.value) times, expected \(expectedRuns)"
                } else if let round = gate, round.observedCancellation {
                    problem = "the load was cancelled while \(waiting.count) callers wait"
                }
            }
            if let problem { return problem + "\n" + log.joined(separator: "\n") }
        }
        // Let the sequence's last load end before the next sequence begins.
        if let round = gate {
            value.cancel()
            for caller in waiting { _ = await caller.value }
            if !round.observedCancellation { return "the final cancel() did not cancel the work\n" + log.joined(separator: "\n") }
        }
        return nil
    }
}
