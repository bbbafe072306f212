import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

/// The ten defects outside tests found where the capabilities met (issue 25),
/// each as the behaviour that now holds. Every test here failed before the
/// capabilities became layers of one model.
@Suite("Issue 25's findings")
@MainActor
struct FindingsTests {
    /// A feature that loads with one request, whatever it is.
    struct Loader: Reducer {
        struct State: Equatable { var value = Loadable<Int, TestError>() }
        enum Action: Equatable {
            case load
            case cancel
            case value(LoadAction<Int, TestError>)
        }
        let request: LoadRequest<Int, TestError>

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .load: state.value.load(Action.value, request)
            case .cancel: .cancel(load: state.value.cancel())
            case .value(let load): state.value.reduce(load)
            }
        }
    }

    @Test(
        "1. cancelling a load whose attempt runs under a timeout ends it cancelled, even if its operation ignores cancellation",
        arguments: [true, false])
    func cancellationBeatsTimeout(perAttempt: Bool) async {
        let clock = TestClock()
        let gate = Gate<Int>()
        let timeout = LoadTimeout<TestError>(.seconds(5), clock: clock, failure: .timedOut)
        // An operation that ignores cancellation: it waits for the gate whatever happens.
        var request = LoadRequest<Int, TestError> { () async throws(TestError) in await gate.value() ?? -1 }
        request = perAttempt ? request.retry(RetryPolicy(attempts: 2, attemptTimeout: timeout, clock: clock)) : request.timeout(timeout)
        let store = TestStore(initialState: Loader.State(), reducer: Loader(request: request))
        store.exhaustivity = .off
        store.send(.load)
        await gate.waitForArrivals()
        let task = store.send(.cancel)
        await task.finish()
        // The timer has passed by now: it must not turn the cancellation into a failure.
        clock.advance(by: .seconds(10))
        await store.receive(.value(.cancelled(LoadID(1))))
        gate.open(with: 1)
        await store.finish()
        #expect(store.state.value.error == nil)
        #expect(store.state.value.state == .notLoaded)
    }

    @Test("4. a key stays active while an earlier run it superseded but let finish still runs")
    func trackerActiveWhileEarlierRunRuns() async {
        let operations = OperationTracker<String, TestError>()
        let first = Gate<Int>(), second = Gate<Int>()
        let save = { (gate: Gate<Int>) in
            LoadRequest<Int, TestError> { () async throws(TestError) in
                do { return try await gate.wait() } catch { throw .offline }
            }
        }
        let earlier = await startCaller { await operations.run("save", save(first), overlap: .latestWins(cancellingEarlier: false)) }
        await first.waitForArrivals()
        let later = await startCaller { await operations.run("save", save(second), overlap: .latestWins(cancellingEarlier: false)) }
        await second.waitForArrivals()
        second.open(with: 2)
        #expect(await later.value == .success(2))
        #expect(operations.isActive("save"), "the earlier save still runs")
        first.open(with: 1)
        _ = await earlier.value
        #expect(!operations.isActive("save"))
    }

    @Test("5. exponential backoff waits exact durations")
    func exactBackoff() {
        let backoff = Backoff.exponential(initial: .milliseconds(300), maximum: .seconds(10))
        #expect(backoff.wait(after: 1) == .milliseconds(300))
        #expect(backoff.wait(after: 2) == .milliseconds(600))
        #expect("\(backoff.wait(after: 1))" == "0.3 seconds")
        let fractional = Backoff.exponential(initial: .milliseconds(300), multiplier: 1.5, maximum: .seconds(10))
        #expect(fractional.wait(after: 3) == .milliseconds(675))
    }

    @Test("6. a wait too long for any clock is clamped, never a trap")
    func hugeWaitsDoNotTrap() async {
        let backoff = Backoff.exponential(initial: .milliseconds(10), multiplier: 1e300, maximum: .seconds(Int64.max))
        #expect(backoff.wait(after: 2) <= .seconds(Int64.max / 1_000_000_000))
        // Sleeping that long on a real clock starts, and is cancelled cleanly.
        let sleeper = Task { try? await LoadClock(ContinuousClock()).sleep(for: backoff.wait(after: 2)) }
        sleeper.cancel()
        await sleeper.value
    }

    @Test("10. a caller waiting in a queue whose task is cancelled leaves at once, and is no longer counted")
    func queuedCallerWithdraws() async {
        let value = AsyncValue<Int, TestError>()
        let first = Gate<Int>()
        let request = { (gate: Gate<Int>) in
            LoadRequest<Int, TestError> { () async throws(TestError) in
                do { return try await gate.wait() } catch { throw .offline }
            }
        }
        let running = await startCaller { await value.load(request(first), overlap: .queue) }
        await first.waitForArrivals()
        let waiting = await startCaller { await value.load(request(Gate()), overlap: .queue) }
        #expect(value.waitingCount == 1)
        waiting.cancel()
        await waiting.value
        #expect(value.waitingCount == 0)
        first.open(with: 1)
        await running.value
        #expect(value.value == 1)
    }
}
