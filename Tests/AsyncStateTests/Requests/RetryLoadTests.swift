import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

/// Retried loads through a `TestStore`, with every backoff wait driven by a
/// `TestClock`: no sleeps.
@Suite("Retry: loads with a retry policy")
@MainActor
struct RetryLoadTests {
    typealias Feature = RetryingFeature

    let service = FlakyService()
    let clock = TestClock()

    func policy(attempts: Int = 3, shouldRetry: @escaping @Sendable (TestError, Int) -> Bool = { _, _ in true }) -> RetryPolicy<TestError> {
        RetryPolicy(
            attempts: attempts, backoff: .exponential(initial: .seconds(1), maximum: .seconds(10)), clock: clock, shouldRetry: shouldRetry)
    }

    func step(_ attempt: Int, of attempts: Int = 3, _ failure: TestError = .offline, wait: Duration) -> LoadRetry<TestError> {
        LoadRetry(attempt: attempt, of: attempts, failure: failure, wait: wait)
    }

    /// A test store for `feature`. Failures found when the store is
    /// released name the test's line.
    func makeStore(
        _ feature: Feature, checksPurity: Bool = false,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> TestStore<Feature.State, Feature.Action> {
        TestStore(
            initialState: Feature.State(), reducer: feature, checksPurity: checksPurity,
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Load `raw` in flight from nothing, on `attempt` of `attempts`: what
    /// the state holds between `.started` and the load's end.
    func loading(
        _ raw: UInt64 = 1, attempt: Int = 1, of attempts: Int = 3, wait: Duration? = nil, after failure: TestError? = nil
    ) -> Loadable<Int, TestError> {
        Loadable(
            expecting: .loading, inFlightID: id(raw),
            activity: LoadActivity(reason: .firstLoad, attempt: attempt, attempts: attempts, wait: wait, lastFailure: failure))
    }

    /// Starts load `raw`: its `.started`, then — right after — its plan.
    func start(_ store: TestStore<Feature.State, Feature.Action>, id raw: UInt64 = 1, attempts: Int = 3) async {
        store.send(.load)
        await store.receive(.number(.started(id(raw)))) { $0.number = Loadable(expecting: .loading, inFlightID: id(raw)) }
        await store.receive(.number(.planned(id(raw), attempts: attempts))) { $0.number = self.loading(raw, of: attempts) }
    }

    @Test("two failed attempts, then a success: each retry is an action with its attempt, failure and wait")
    func failTwiceThenSucceed() async {
        let store = makeStore(Feature(service: service, retry: policy()), checksPurity: true)
        await start(store)
        #expect(store.state.number.activity?.attempts == 3, "known from the first attempt")
        service[0].fail(with: TestError.offline)
        await store.receive(.number(.retrying(id(1), step(1, wait: .seconds(1))))) {
            $0.number = self.loading(attempt: 2, wait: .seconds(1), after: .offline)
        }
        #expect(store.state.number.activity?.attempt == 2)
        #expect(store.state.number.activity?.attempts == 3)
        #expect(store.state.number.activity?.wait == .seconds(1))
        #expect(store.state.number.state == .loading)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        service[1].fail(with: TestError.timedOut)
        await store.receive(.number(.retrying(id(1), step(2, .timedOut, wait: .seconds(2))))) {
            $0.number = self.loading(attempt: 3, wait: .seconds(2), after: .timedOut)
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        service[2].open(with: 7)
        await store.receive(.number(.finished(id(1), 7))) { $0.number = Loadable(expecting: .success(value: 7), newestID: id(1)) }
        await store.finish()
        #expect(service.calls == 3)
        #expect(store.state.number.activity == nil)
    }

    @Test("the last attempt's failure ends the load when attempts run out")
    func attemptsRunOut() async {
        let store = makeStore(Feature(service: service, retry: policy(attempts: 2)))
        await start(store, attempts: 2)
        service[0].fail(with: TestError.offline)
        await store.receive(.number(.retrying(id(1), step(1, of: 2, wait: .seconds(1))))) {
            $0.number = self.loading(attempt: 2, of: 2, wait: .seconds(1), after: .offline)
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        service[1].fail(with: TestError.timedOut)
        await store.receive(.number(.failed(id(1), .timedOut))) {
            $0.number = Loadable(expecting: .error(error: .timedOut), newestID: id(1))
        }
        await store.finish()
        #expect(store.state.number.state == .error(error: .timedOut))
    }

    @Test("shouldRetry sees the typed failure and the attempt number; false ends the load at once")
    func shouldRetryDeclines() async {
        let seen = LockedValue<[String]>([])
        let retry = policy(attempts: 5) { failure, attempt in
            seen.withLock { $0.append("\(failure) \(attempt)") }
            return failure != .timedOut
        }
        let store = makeStore(Feature(service: service, retry: retry))
        await start(store, attempts: 5)
        service[0].fail(with: TestError.offline)
        await store.receive(.number(.retrying(id(1), step(1, of: 5, wait: .seconds(1))))) {
            $0.number = self.loading(attempt: 2, of: 5, wait: .seconds(1), after: .offline)
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        service[1].fail(with: TestError.timedOut)
        await store.receive(.number(.failed(id(1), .timedOut))) {
            $0.number = Loadable(expecting: .error(error: .timedOut), newestID: id(1))
        }
        await store.finish()
        #expect(seen.current == ["offline 1", "timedOut 2"])
        #expect(service.calls == 2)
    }

    @Test("cancelling during an attempt is .cancelled, never a failure")
    func cancelDuringAttempt() async {
        let store = makeStore(Feature(service: service, retry: policy()))
        await start(store)
        service[0].fail(with: TestError.offline)
        await store.receive(.number(.retrying(id(1), step(1, wait: .seconds(1))))) {
            $0.number = self.loading(attempt: 2, wait: .seconds(1), after: .offline)
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        await service[1].waitForArrivals()
        store.send(.cancel) { $0.number = Loadable(expecting: .notLoaded, newestID: id(1)) }
        await store.receive(.number(.cancelled(id(1)))) // already settled by cancel(): dropped
        await store.finish()
        #expect(store.state.number.state == .notLoaded)
        #expect(service[1].observedCancellation)
        #expect(service.calls == 2)
    }

    @Test("cancelling during the backoff wait is .cancelled, and no further attempt runs")
    func cancelDuringWait() async {
        let store = makeStore(Feature(service: service, retry: policy()))
        await start(store)
        service[0].fail(with: TestError.offline)
        await store.receive(.number(.retrying(id(1), step(1, wait: .seconds(1))))) {
            $0.number = self.loading(attempt: 2, wait: .seconds(1), after: .offline)
        }
        await clock.waitForSleepers(1)
        store.send(.cancel) { $0.number = Loadable(expecting: .notLoaded, newestID: id(1)) }
        await store.receive(.number(.cancelled(id(1))))
        await store.finish()
        #expect(clock.sleeperCount == 0)
        clock.advance(by: .seconds(5))
        #expect(service.calls == 1)
        #expect(store.state.number.error == nil)
    }

    @Test("a newer load supersedes the whole chain: the old chain stops and nothing of it applies")
    func supersededChain() async {
        let store = makeStore(Feature(service: service, retry: policy()))
        await start(store)
        service[0].fail(with: TestError.offline)
        await store.receive(.number(.retrying(id(1), step(1, wait: .seconds(1))))) {
            $0.number = self.loading(attempt: 2, wait: .seconds(1), after: .offline)
        }
        await clock.waitForSleepers(1)
        // The newer load continues the chain, which began with nothing loaded,
        // from its own first attempt.
        await start(store, id: 2)
        await store.receive(.number(.cancelled(id(1)))) // the old chain, cancelled in its wait: dropped
        #expect(store.state.number.activity?.attempt == 1)
        service[1].open(with: 2) // load #2's first attempt is the service's second call
        await store.receive(.number(.finished(id(2), 2))) { $0.number = Loadable(expecting: .success(value: 2), newestID: id(2)) }
        await store.finish()
        clock.advance(by: .seconds(5))
        #expect(service.calls == 2)
    }

    @Test("an attempt timeout fails that attempt, which is then retried")
    func attemptTimeout() async {
        let retry = RetryPolicy<TestError>(
            attempts: 2, backoff: .constant(.seconds(1)), attemptTimeout: LoadTimeout(.seconds(3), clock: clock, failure: .timedOut),
            clock: clock)
        let store = makeStore(Feature(service: service, retry: retry))
        await start(store, attempts: 2)
        await service[0].waitForArrivals()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(3))
        await store.receive(.number(.retrying(id(1), step(1, of: 2, .timedOut, wait: .seconds(1))))) {
            $0.number = self.loading(attempt: 2, of: 2, wait: .seconds(1), after: .timedOut)
        }
        #expect(service[0].observedCancellation)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        service[1].open(with: 9)
        await store.receive(.number(.finished(id(1), 9))) { $0.number = Loadable(expecting: .success(value: 9), newestID: id(1)) }
        await store.finish()
    }

    @Test("the load's timeout bounds the whole chain, waits included, and is not retried")
    func chainTimeout() async {
        let feature = Feature(
            service: service, retry: RetryPolicy(attempts: 5, backoff: .constant(.seconds(10)), clock: clock),
            timeout: LoadTimeout(.seconds(6), clock: clock, failure: .timedOut))
        let store = makeStore(feature)
        await start(store, attempts: 5)
        await clock.waitForSleepers(1) // the chain's timer
        clock.advance(by: .seconds(1))
        service[0].fail(with: TestError.offline)
        await store.receive(.number(.retrying(id(1), step(1, of: 5, wait: .seconds(10))))) {
            $0.number = self.loading(attempt: 2, of: 5, wait: .seconds(10), after: .offline)
        }
        await clock.waitForSleepers(2) // the timer and the backoff wait
        clock.advance(by: .seconds(5)) // to 6 s: the chain's limit passes during the wait, which would end at 11 s
        await store.receive(.number(.failed(id(1), .timedOut))) {
            $0.number = Loadable(expecting: .error(error: .timedOut), newestID: id(1))
        }
        await store.finish()
        #expect(service.calls == 1)
    }

    @Test("a retry after a failure keeps that failure readable while it runs")
    func retryAfterFailureKeepsTheFailure() async {
        var number = Loadable<Int, TestError>()
        _ = number.apply(.started(id(1)))
        _ = number.apply(.failed(id(1), .offline))
        _ = number.apply(.started(id(2)))
        #expect(number.error == nil)
        #expect(number.activity?.reason == .retryAfterFailure)
        #expect(number.activity?.lastFailure == .offline)
        _ = number.apply(.retrying(id(2), step(1, .timedOut, wait: .seconds(4))))
        let activity = number.activity
        #expect(activity?.lastFailure == .timedOut)
        #expect(
            activity.map { "Retrying (\($0.attempt) of \($0.attempts ?? 0)) in \($0.wait ?? .zero)…" }
                == "Retrying (2 of 3) in 4.0 seconds…")
    }
}
