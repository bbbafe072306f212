import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Foundation
import Testing

/// Random sequences of loads — started at once or queued (`.queued`, then
/// `.started` in their turn) — reports (results, retries, plans, partial
/// values — for the load in flight or any other ID), resets, cleared failures
/// and local updates over several keyed resources, checked step by step
/// against a small reference model.
///
/// The run is seeded: set `ASYNCSTATE_SEED` to replay a run and
/// `ASYNCSTATE_SEQUENCES` to change how many sequences it checks (100,000 by
/// default). A failure prints the exact variables that replay it alone.
@Suite("Reliability: randomized model check")
struct RandomizedModelTests {
    typealias Resource = ExhaustiveInterleavingTests.Resource

    /// The reference: what the spec's table says one resource should do,
    /// written as plainly as possible.
    struct Model: Equatable {
        var state: AsyncState<Int, TestError> = .notLoaded
        var lastValue: Int?
        var returnTo: AsyncState<Int, TestError> = .notLoaded
        var pending: UInt64?
        var highest: UInt64?
        /// Loads waiting their turn, oldest first.
        var queue: [UInt64] = []
        /// The partial value of the load in flight.
        var partial: Int?
        /// Why the load in flight runs: (reason, attempt, attempts, wait, last failure).
        var reason: LoadActivity<TestError>.Reason?
        var attempt = 0
        var attempts: Int?
        var wait: Duration?
        var lastFailure: TestError?

        /// A start is admitted when its ID is newer than every one seen —
        /// which supersedes the loads queued before it — or when it is queued:
        /// it takes its turn, and the loads queued before it are gone.
        mutating func start(_ id: UInt64) -> Bool {
            if let highest, id <= highest {
                guard queue.contains(id) else { return false }
                queue.removeAll { $0 <= id }
            } else {
                highest = id
                queue.removeAll { $0 < id }
            }
            if pending == nil { returnTo = state }
            pending = id
            partial = nil
            state = lastValue.map { .refreshing(value: $0) } ?? .loading
            if case .error(let failure) = returnTo {
                reason = .retryAfterFailure
                lastFailure = failure
            } else {
                reason = lastValue == nil ? .firstLoad : .refresh
                lastFailure = nil
            }
            (attempt, attempts, wait) = (1, nil, nil)
            return true
        }

        /// A load waits its turn when its ID is newer than every one seen.
        mutating func enqueue(_ id: UInt64) -> Bool {
            if let highest, id <= highest { return false }
            highest = id
            queue.append(id)
            return true
        }

        mutating func plan(_ id: UInt64, attempts: Int) -> Bool {
            guard pending == id else { return false }
            self.attempts = attempts
            return true
        }

        mutating func retry(_ id: UInt64, _ retry: LoadRetry<TestError>) -> Bool {
            guard pending == id else { return false }
            partial = nil
            state = lastValue.map { .refreshing(value: $0) } ?? .loading
            (attempt, attempts, wait, lastFailure) = (retry.attempt + 1, retry.attempts, retry.wait, retry.failure)
            return true
        }

        mutating func progress(_ id: UInt64, _ value: Int) -> Bool {
            guard pending == id else { return false }
            partial = value
            state = .refreshing(value: value)
            return true
        }

        mutating func report(_ id: UInt64, _ outcome: AsyncState<Int, TestError>?) -> Bool {
            guard pending == id else {
                // A queued load cancelled before its turn leaves the queue.
                guard outcome == nil, let index = queue.firstIndex(of: id) else { return false }
                queue.remove(at: index)
                return true
            }
            pending = nil
            partial = nil
            (reason, attempt, attempts, wait, lastFailure) = (nil, 0, nil, nil, nil)
            switch outcome {
            case .success(let value)?:
                state = .success(value: value)
                lastValue = value
                returnTo = state
            case .error(let error)?:
                state = .error(error: error)
                returnTo = state
            default: // cancelled
                state = returnTo
            }
            return true
        }

        mutating func reset() {
            let highest = self.highest
            self = Model()
            self.highest = highest
        }

        /// Forgets a settled failure: it becomes the last value's success, or not loaded.
        mutating func clearError() -> TestError? {
            guard case .error(let error) = returnTo else { return nil }
            returnTo = lastValue.map { .success(value: $0) } ?? .notLoaded
            if pending == nil { state = returnTo }
            return error
        }

        mutating func setLocally(_ value: Int) {
            lastValue = value
            partial = nil
            returnTo = .success(value: value)
            state = pending == nil ? .success(value: value) : .refreshing(value: value)
        }
    }

    static let keys = 3

    @Test("100,000 random sequences agree with the reference model")
    func randomSequences() async {
        let run = RandomizedRun(defaultCount: 100_000, sanitizedMaximum: 1_000)
        var steps = 0
        guard await run.playSequences({ Self.play(seed: $0, steps: &steps) }) else { return }
        print("randomized model check: \(run.count) sequences, \(steps) steps, seed \(run.seed)")
        #expect(run.count == 0 || steps > run.count)
    }

    /// Plays one random sequence; returns what went wrong, if anything.
    static func play(seed: UInt64, steps: inout Int) -> String? {
        var random = SplitMix64(seed: seed)
        var resources = Array(repeating: Resource(), count: keys)
        var models = Array(repeating: Model(), count: keys)
        var started = Array(repeating: [UInt64](), count: keys)
        var nextID: UInt64 = 1
        var log: [String] = []
        let length = Int.random(in: 1...24, using: &random)
        for _ in 0..<length {
            steps += 1
            let key = Int.random(in: 0..<keys, using: &random)
            let roll = Int.random(in: 0..<100, using: &random)
            var expectedApplied: Bool?
            var actualApplied: Bool?
            switch roll {
            case 0..<24: // a new load
                let id = nextID
                nextID += 1
                started[key].append(id)
                log.append("k\(key) start #\(id)")
                expectedApplied = models[key].start(id)
                actualApplied = resources[key].apply(.started(LoadID(id))) == .applied
            case 24..<32: // a new load that waits its turn
                let id = nextID
                nextID += 1
                started[key].append(id)
                log.append("k\(key) queued #\(id)")
                expectedApplied = models[key].enqueue(id)
                actualApplied = resources[key].apply(.queued(LoadID(id))) == .applied
            case 32..<38: // a queued load takes its turn (or, with none queued, any start seen)
                let id = models[key].queue.randomElement(using: &random) ?? started[key].randomElement(using: &random) ?? 0
                log.append("k\(key) turn of #\(id)")
                expectedApplied = models[key].start(id)
                actualApplied = resources[key].apply(.started(LoadID(id))) == .applied
            case 38..<41: // a stale or repeated start
                let id = started[key].randomElement(using: &random) ?? 0
                log.append("k\(key) restart #\(id)")
                expectedApplied = models[key].start(id)
                actualApplied = resources[key].apply(.started(LoadID(id))) == .applied
            case 41..<87: // a report, for any ID
                let id: UInt64 =
                    Bool.random(using: &random) || started[key].isEmpty
                    ? UInt64.random(in: 0...(nextID + 1), using: &random)
                    : started[key].randomElement(using: &random)!
                let value = Int.random(in: 0..<1_000, using: &random)
                let action: LoadAction<Int, TestError>
                switch Int.random(in: 0..<6, using: &random) {
                case 0:
                    action = .finished(LoadID(id), value)
                    expectedApplied = models[key].report(id, .success(value: value))
                case 1:
                    action = .failed(LoadID(id), .timedOut)
                    expectedApplied = models[key].report(id, .error(error: .timedOut))
                case 2:
                    action = .cancelled(LoadID(id))
                    expectedApplied = models[key].report(id, nil)
                case 3:
                    let attempt = Int.random(in: 1...4, using: &random)
                    let retry = LoadRetry<TestError>(
                        attempt: attempt, of: attempt + 1, failure: Bool.random(using: &random) ? .offline : .timedOut,
                        wait: .milliseconds(Int.random(in: 0...5_000, using: &random)))
                    action = .retrying(LoadID(id), retry)
                    expectedApplied = models[key].retry(id, retry)
                case 4:
                    let attempts = Int.random(in: 1...5, using: &random)
                    action = .planned(LoadID(id), attempts: attempts)
                    expectedApplied = models[key].plan(id, attempts: attempts)
                default:
                    action = .progress(LoadID(id), value)
                    expectedApplied = models[key].progress(id, value)
                }
                log.append("k\(key) \(action)")
                actualApplied = resources[key].apply(action) == .applied
            case 87..<91: // cancel() the load in flight
                log.append("k\(key) cancel()")
                let pending = models[key].pending
                if let pending { _ = models[key].report(pending, nil) }
                let cancelled = resources[key].cancel()
                if cancelled.map(\.rawValue) != pending {
                    return "cancel() returned \(String(describing: cancelled)), expected \(String(describing: pending))\n"
                        + log.joined(separator: "\n")
                }
            case 91..<95: // reset
                log.append("k\(key) reset()")
                models[key].reset()
                resources[key].reset()
            case 95..<97: // clear a settled failure (what OperationTracker.clearError does)
                log.append("k\(key) clearError()")
                let expected = models[key].clearError()
                let cleared = resources[key].clearError()
                if cleared != expected {
                    return "clearError() returned \(String(describing: cleared)), expected \(String(describing: expected))\n"
                        + log.joined(separator: "\n")
                }
            default: // a local value
                let value = Int.random(in: 0..<1_000, using: &random)
                log.append("k\(key) setValue(\(value))")
                models[key].setLocally(value)
                resources[key].setValue(value)
            }
            if expectedApplied != actualApplied {
                return "applied \(String(describing: actualApplied)), model says \(String(describing: expectedApplied))\n"
                    + log.joined(separator: "\n")
            }
            for k in 0..<keys {
                let (resource, model) = (resources[k], models[k])
                let activity = resource.activity
                guard resource.state == model.state, resource.value == (model.partial ?? model.lastValue),
                    resource.partialValue == model.partial,
                    resource.inFlightID?.rawValue == model.pending, resource.settledState == model.returnTo,
                    resource.queuedIDs.map(\.rawValue) == model.queue, resource.newestID?.rawValue == model.highest,
                    activity?.reason == model.reason, activity?.attempt ?? 0 == model.attempt, activity?.attempts == model.attempts,
                    activity?.wait == model.wait, activity?.lastFailure == model.lastFailure
                else {
                    return "key \(k): \(resource) differs from the model \(model)\n" + log.joined(separator: "\n")
                }
                guard resource.isLoading == resource.state.isLoading else {
                    return "key \(k): loading with nothing in flight, or the reverse: \(resource)\n" + log.joined(separator: "\n")
                }
            }
        }
        return nil
    }
}
