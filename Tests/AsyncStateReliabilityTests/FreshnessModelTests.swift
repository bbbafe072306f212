import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Foundation
import Testing

/// Random sequences of starts, queued loads and their turns, stamped results,
/// cancellations, resets, local values and invalidations on a `Loadable`, with time moving forward,
/// checked step by step against the plain reference model of the randomized
/// check plus the freshness rules.
///
/// Changed by design: an invalidation no longer waits for the load it
/// overtook. A reducer's invalidation reloads in the same step (the harness
/// starts the reload at once, superseding the load in flight); a host's
/// invalidation of a value nobody uses only marks it. A queued load starts
/// on its turn, after an invalidation made while it waited: it answers it.
///
/// Seeded like the other randomized checks: `ASYNCSTATE_SEED` replays,
/// `ASYNCSTATE_SEQUENCES` sets how many (100,000 by default).
@Suite("Reliability: randomized freshness model check")
struct FreshnessModelTests {
    /// The freshness half of the reference: when the value settled, and the
    /// last invalidation with what has happened since.
    struct Model {
        var loadable = RandomizedModelTests.Model()
        var settledAt: Int?
        /// The newest load started (not queued) at the last invalidation (`.some(nil)` if none had
        /// started); `nil` when not invalidated.
        var mark: UInt64??
        /// Whether a load started since the last invalidation.
        var startedSinceMark = false
        /// Whether the last invalidation reloaded at once.
        var markReloads = false

        var isInvalidated: Bool { mark != nil }

        func isOvertaken(_ id: UInt64) -> Bool {
            guard case .some(.some(let newest)) = mark else { return false }
            return id <= newest
        }

        func isStale(maxAge: Int, now: Int) -> Bool {
            guard !isInvalidated, case .success = loadable.returnTo, loadable.lastValue != nil, let settledAt else { return true }
            guard maxAge > 0 else { return true }
            return settledAt + maxAge <= now
        }
    }

    static let maxAge = 50

    @Test("100,000 random sequences keep the freshness rules")
    func randomSequences() async {
        let run = RandomizedRun(defaultCount: 100_000, sanitizedMaximum: 1_000)
        var steps = 0
        var reloads = 0
        let passed = await run.playSequences { seed in
            guard Self.play(seed: seed, steps: &steps, reloads: &reloads, logging: false) != nil else { return nil }
            // Replay the failing sequence with its log, which is too costly to build for every sequence.
            return Self.play(seed: seed, steps: &steps, reloads: &reloads, logging: true) ?? "no failure on replay"
        }
        guard passed else { return }
        print("randomized freshness check: \(run.count) sequences, \(steps) steps, \(reloads) reloads, seed \(run.seed)")
        #expect(run.count == 0 || steps > run.count)
        #expect(run.count < 1_000 || reloads > 0)
    }

    /// Plays one random sequence; returns what went wrong, if anything.
    static func play(seed: UInt64, steps: inout Int, reloads: inout Int, logging: Bool) -> String? {
        var random = SplitMix64(seed: seed)
        var loadable = Loadable<Int, TestError>()
        var model = Model()
        var started: [UInt64] = []
        var nextID: UInt64 = 1
        var now = 0
        var log: [String]? = logging ? [] : nil

        func start(_ id: UInt64) -> (Bool, Bool) {
            let expected = model.loadable.start(id)
            if expected, model.isInvalidated, !model.isOvertaken(id) { model.startedSinceMark = true }
            return (expected, loadable.apply(.started(LoadID(id))) == .applied)
        }
        func report(_ id: UInt64, _ outcome: AsyncState<Int, TestError>?, _ action: LoadAction<Int, TestError>) -> (Bool, Bool) {
            let expected = model.loadable.report(id, outcome)
            if expected, case .success = outcome {
                model.settledAt = now
                if model.isInvalidated, !model.isOvertaken(id) { model.mark = nil }
            }
            return (expected, loadable.apply(.at(instant(ms: now), action)) == .applied)
        }
        func invalidate() {
            // The newest load started: a queued one starts later, on its turn.
            let queue = model.loadable.queue
            model.mark = .some(queue.first.map { model.loadable.pending ?? ($0 > 0 ? $0 - 1 : nil) } ?? model.loadable.highest)
            model.startedSinceMark = false
            loadable.invalidate()
        }

        let length = Int.random(in: 1...24, using: &random)
        for step in 0...length {
            steps += 1
            now += Int.random(in: 0...30, using: &random)
            let roll = step == length ? -1 : Int.random(in: 0..<100, using: &random)
            var applied: (expected: Bool, actual: Bool)?
            switch roll {
            case -1: // the end: settle whatever is in flight
                log?.append("drain")
                if let pending = loadable.inFlightID {
                    let succeeds = Bool.random(using: &random)
                    let action: LoadAction<Int, TestError> = succeeds ? .finished(pending, -1) : .failed(pending, .offline)
                    log?.append("drain \(action) at \(now)")
                    applied = report(pending.rawValue, succeeds ? .success(value: -1) : .error(error: .offline), action)
                }
            case 0..<25:
                if let first = model.loadable.queue.first, Bool.random(using: &random) {
                    log?.append("start queued #\(first)")
                    applied = start(first)
                } else if model.loadable.pending != nil, Bool.random(using: &random) {
                    let id = nextID
                    nextID += 1
                    started.append(id)
                    log?.append("queue #\(id)")
                    applied = (model.loadable.enqueue(id), loadable.apply(.queued(LoadID(id))) == .applied)
                } else {
                    let id = nextID
                    nextID += 1
                    started.append(id)
                    log?.append("start #\(id)")
                    applied = start(id)
                }
            case 25..<62:
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
            case 62..<68:
                log?.append("cancel()")
                if let pending = model.loadable.pending { _ = model.loadable.report(pending, nil) }
                loadable.cancel()
            case 68..<72:
                log?.append("reset()")
                model.loadable.reset()
                model.settledAt = nil
                model.mark = nil
                model.startedSinceMark = false
                model.markReloads = false
                loadable.reset()
            case 72..<78:
                let value = Int.random(in: 0..<1_000, using: &random)
                log?.append("setValue(\(value)) at \(now)")
                model.loadable.setLocally(value)
                model.settledAt = now
                loadable.setValue(value, at: instant(ms: now))
            case 78..<90: // a reducer's invalidation: mark and reload in the same step
                let id = nextID
                nextID += 1
                started.append(id)
                reloads += 1
                log?.append("invalidate() and reload #\(id)")
                invalidate()
                model.markReloads = true
                applied = start(id)
                if applied?.expected == true, loadable.isOvertaken(LoadID(id)) {
                    return "the reload is overtaken by the invalidation it answers: \(loadable)\n" + (log ?? []).joined(separator: "\n")
                }
            default: // a host's invalidation of a value nobody uses: mark only
                log?.append("invalidate()")
                invalidate()
                model.markReloads = false
            }
            if let applied, applied.expected != applied.actual {
                return "applied \(applied.actual), model says \(applied.expected)\n" + (log ?? []).joined(separator: "\n")
            }
            if let problem = check(loadable, model, now: now) { return problem + "\n" + (log ?? []).joined(separator: "\n") }
        }
        if loadable.isLoading { return "drained, yet still loading: \(loadable)\n" + (log ?? []).joined(separator: "\n") }
        return nil
    }

    /// The promises after every step.
    static func check(_ loadable: Loadable<Int, TestError>, _ model: Model, now: Int) -> String? {
        let reference = model.loadable
        guard loadable.state == reference.state, loadable.value == reference.lastValue,
            loadable.inFlightID?.rawValue == reference.pending, loadable.settledState == reference.returnTo,
            loadable.newestID?.rawValue == reference.highest, loadable.queuedIDs.map(\.rawValue) == reference.queue
        else { return "\(loadable) differs from the Loadable model \(reference)" }
        guard loadable.isInvalidated == model.isInvalidated, loadable.invalidatedBefore.map({ $0?.rawValue }) == model.mark else {
            return "invalidated: \(loadable.isInvalidated), model says \(model.isInvalidated)"
        }
        guard loadable.settledAt == model.settledAt.map({ instant(ms: $0) }) else {
            return "settled at \(String(describing: loadable.settledAt)), model says \(String(describing: model.settledAt))"
        }
        let stale = model.isStale(maxAge: maxAge, now: now)
        guard loadable.isStale(maxAge: .milliseconds(maxAge), at: instant(ms: now)) == stale else {
            return "stale is \(!stale), model says \(stale)"
        }
        if let pending = reference.pending, loadable.isOvertaken(LoadID(pending)) != model.isOvertaken(pending) {
            return "overtaken: \(loadable.isOvertaken(LoadID(pending))), model says \(model.isOvertaken(pending))"
        }
        // A reducer's invalidation is answered by a load started after it:
        // in flight, or settled without success (which leaves it invalidated).
        if model.isInvalidated, model.markReloads, !model.startedSinceMark {
            return "invalidation lost: it reloaded, yet no load started after it: \(loadable)"
        }
        return nil
    }
}
