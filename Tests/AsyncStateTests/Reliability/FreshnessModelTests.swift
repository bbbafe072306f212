import AsyncState
import AsyncStateControls
import Foundation
import Testing

/// Random sequences of starts, results, cancellations, resets, local values
/// and invalidations on a ``FreshLoadable``, with time moving forward, checked
/// step by step against the plain ``Loadable`` reference model plus the
/// freshness rules. Whenever ``FreshLoadable/needsRefetch`` asks for a load,
/// the harness starts one — what ``FreshLoadable/reduce(_:refetch:)`` does.
///
/// Seeded like the other randomized check: `ASYNCSTATE_SEED` replays,
/// `ASYNCSTATE_SEQUENCES` sets how many (100,000 by default).
@Suite("Reliability: randomized freshness model check")
struct FreshnessModelTests {
    /// The freshness half of the reference: when the value settled, and the
    /// last invalidation with what has happened since.
    struct Model {
        var loadable = RandomizedModelTests.Model()
        var settledAt: Int?
        /// The newest ID at the last invalidation (`.some(nil)` if none had
        /// started); `nil` when not invalidated.
        var mark: UInt64??
        var startedSinceMark = false

        var isInvalidated: Bool { mark != nil }

        func isOvertaken(_ id: UInt64) -> Bool {
            guard case .some(.some(let newest)) = mark else { return false }
            return id <= newest
        }
    }

    static let maxAge = 50

    @Test("100,000 random sequences keep the freshness rules")
    func randomSequences() async {
        let run = RandomizedRun(defaultCount: 100_000)
        var steps = 0
        var followUps = 0
        let passed = await run.playSequences { seed in
            guard Self.play(seed: seed, steps: &steps, followUps: &followUps, logging: false) != nil else { return nil }
            // Replay the failing sequence with its log, which is too costly to build for every sequence.
            return Self.play(seed: seed, steps: &steps, followUps: &followUps, logging: true) ?? "no failure on replay"
        }
        guard passed else { return }
        print("randomized freshness check: \(run.count) sequences, \(steps) steps, \(followUps) follow-up loads, seed \(run.seed)")
        #expect(run.count == 0 || steps > run.count)
        #expect(run.count < 1_000 || followUps > 0)
    }

    /// Plays one random sequence; returns what went wrong, if anything.
    static func play(seed: UInt64, steps: inout Int, followUps: inout Int, logging: Bool) -> String? {
        var random = SplitMix64(seed: seed)
        var fresh = Fresh()
        var model = Model()
        var started: [UInt64] = []
        var nextID: UInt64 = 1
        var now = 0
        var log: [String]? = logging ? [] : nil

        func start(_ id: UInt64) -> (Bool, Bool) {
            let expected = model.loadable.start(id)
            if expected, !model.isOvertaken(id), model.isInvalidated { model.startedSinceMark = true }
            return (expected, fresh.apply(.started(LoadID(id)), at: at(now)) == .applied)
        }
        func report(_ id: UInt64, _ outcome: AsyncState<Int, TestError>?, _ action: LoadAction<Int, TestError>) -> (Bool, Bool) {
            let expected = model.loadable.report(id, outcome)
            if expected, case .success = outcome {
                model.settledAt = now
                if model.isInvalidated, !model.isOvertaken(id) { model.mark = nil }
            }
            return (expected, fresh.apply(action, at: at(now)) == .applied)
        }

        let length = Int.random(in: 1...24, using: &random)
        for step in 0...length {
            steps += 1
            now += Int.random(in: 0...30, using: &random)
            let roll = step == length ? -1 : Int.random(in: 0..<100, using: &random)
            var applied: (expected: Bool, actual: Bool)?
            switch roll {
            case -1: // the end: settle whatever is in flight, follow-ups included
                log?.append("drain")
            case 0..<25:
                let id = nextID
                nextID += 1
                started.append(id)
                log?.append("start #\(id)")
                applied = start(id)
            case 25..<65:
                let id =
                    Bool.random(using: &random) || started.isEmpty
                    ? UInt64.random(in: 0...(nextID + 1), using: &random) : started.randomElement(using: &random)!
                let value = Int.random(in: 0..<1_000, using: &random)
                let (action, outcome): (LoadAction<Int, TestError>, AsyncState<Int, TestError>?) =
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: (.finished(LoadID(id), value), .success(value: value))
                    case 1: (.failed(LoadID(id), .timedOut), .error(error: .timedOut))
                    default: (.cancelled(LoadID(id)), nil)
                    }
                log?.append("\(action) at \(now)")
                applied = report(id, outcome, action)
            case 65..<72:
                log?.append("cancel()")
                if let pending = model.loadable.pending { _ = model.loadable.report(pending, nil) }
                fresh.cancel()
            case 72..<76:
                log?.append("reset()")
                model.loadable.reset()
                model.settledAt = nil
                model.mark = nil
                model.startedSinceMark = false
                fresh.reset()
            case 76..<82:
                let value = Int.random(in: 0..<1_000, using: &random)
                log?.append("setValue(\(value)) at \(now)")
                model.loadable.setLocally(value)
                model.settledAt = now
                fresh.setValue(value, at: at(now))
            default:
                log?.append("invalidate()")
                model.mark = .some(model.loadable.highest)
                model.startedSinceMark = false
                fresh.invalidate()
            }
            if let applied, applied.expected != applied.actual {
                return "applied \(applied.actual), model says \(applied.expected)\n" + (log ?? []).joined(separator: "\n")
            }
            if fresh.needsRefetch, fresh.isLoading {
                return "a follow-up is asked for while a load is still in flight: \(fresh)\n" + (log ?? []).joined(separator: "\n")
            }
            // The reducer's rule: a due follow-up starts at once.
            var drained = 0
            repeat {
                if fresh.needsRefetch {
                    let id = nextID
                    nextID += 1
                    started.append(id)
                    followUps += 1
                    log?.append("follow-up start #\(id)")
                    _ = start(id)
                }
                guard roll == -1, let pending = fresh.inFlightID, drained < 8 else { break }
                drained += 1
                let succeeds = Bool.random(using: &random)
                let action: LoadAction<Int, TestError> = succeeds ? .finished(pending, drained) : .failed(pending, .offline)
                log?.append("drain \(action) at \(now)")
                _ = report(pending.rawValue, succeeds ? .success(value: drained) : .error(error: .offline), action)
            } while true
            if let problem = check(fresh, model, now: now) { return problem + "\n" + (log ?? []).joined(separator: "\n") }
        }
        if model.isInvalidated, fresh.isLoading || !model.startedSinceMark {
            return "drained, yet no load started after the last invalidation settled: \(fresh)\n" + (log ?? []).joined(separator: "\n")
        }
        return nil
    }

    /// The promises after every step.
    static func check(_ fresh: Fresh, _ model: Model, now: Int) -> String? {
        let reference = model.loadable
        guard fresh.state == reference.state, fresh.value == reference.lastValue,
            fresh.inFlightID?.rawValue == reference.pending, fresh.loadable.settledState == reference.returnTo
        else { return "\(fresh) differs from the Loadable model \(reference)" }
        guard fresh.isInvalidated == model.isInvalidated else {
            return "invalidated: \(fresh.isInvalidated), model says \(model.isInvalidated)"
        }
        guard fresh.settledAt == model.settledAt.map(at) || (reference.lastValue == nil && fresh.settledAt == nil) else {
            return "settled at \(String(describing: fresh.settledAt)), model says \(String(describing: model.settledAt))"
        }
        let stale = model.isInvalidated || reference.lastValue == nil || model.settledAt.map { $0 + maxAge <= now } ?? true
        guard fresh.isStale(maxAge: .milliseconds(maxAge), at: at(now)) == stale else { return "stale is \(!stale), model says \(stale)" }
        // After the last invalidation, some load started after it settled or
        // is in flight — or an overtaken load is still in flight and will be
        // followed by one.
        if model.isInvalidated, !model.startedSinceMark, !(fresh.inFlightID.map(fresh.isOvertaken) ?? false) {
            return "invalidation lost: no load started after it, and none in flight to be followed: \(fresh)"
        }
        return nil
    }
}
