import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

@Suite("Retry: backoff", .hangGuard)
struct BackoffTests {
    @Test(
        "waits before each retry",
        arguments: [
            (Backoff.none, [0, 0, 0]),
            (.constant(.seconds(2)), [2, 2, 2]),
            (.exponential(initial: .seconds(1), maximum: .seconds(5)), [1, 2, 4, 5, 5]),
            (.exponential(initial: .seconds(1), multiplier: 3, maximum: .seconds(100)), [1, 3, 9, 27]),
        ])
    func waits(backoff: Backoff, seconds: [Int]) {
        #expect((1...seconds.count).map { backoff.wait(after: $0) } == seconds.map { .seconds($0) })
    }

    @Test(
        "bad input has a defined wait and never traps",
        arguments: [
            (Backoff.constant(.seconds(-3)), 1, Duration.zero),
            (.exponential(initial: .seconds(-1), maximum: .seconds(5)), 3, .zero),
            (.exponential(initial: .seconds(1), maximum: .seconds(-5)), 3, .zero),
            (.exponential(initial: .seconds(9), maximum: .seconds(5)), 1, .seconds(5)),
            // An initial wait past the maximum is the maximum also when nothing grows it
            // (mutation testing: with the default multiplier, a later clamp hid a missing one).
            (.exponential(initial: .seconds(9), multiplier: 1, maximum: .seconds(5)), 3, .seconds(5)),
            (.exponential(initial: .seconds(9), multiplier: 0.5, maximum: .seconds(5)), 1, .seconds(5)),
            (.exponential(initial: .seconds(2), multiplier: 0.5, maximum: .seconds(5)), 4, .seconds(2)),
            (.exponential(initial: .seconds(2), multiplier: -2, maximum: .seconds(5)), 4, .seconds(2)),
            (.exponential(initial: .seconds(2), multiplier: .nan, maximum: .seconds(5)), 4, .seconds(2)),
            (.exponential(initial: .seconds(1), maximum: .seconds(60)), Int.max, .seconds(60)),
            (.exponential(initial: .seconds(1), multiplier: .infinity, maximum: .seconds(60)), 2, .seconds(60)),
            // Changed by design: no wait is longer than about 146 years (2^62 ns), the most a clock can be asked to sleep,
            // whatever `maximum` says; before, a maximum past a clock's range was kept and trapped the sleep.
            (.exponential(initial: .seconds(1), maximum: .seconds(Int64.max)), 10_000, .nanoseconds(Int64.max / 2)),
            (.constant(.seconds(Int64.max)), 1, .nanoseconds(Int64.max / 2)),
            (.exponential(initial: .seconds(1), maximum: .seconds(60)), 0, .seconds(1)),
            (.exponential(initial: .seconds(1), maximum: .seconds(60)), -7, .seconds(1)),
            // Zero stays zero, however large the power (from an outside reading: a power that
            // overflowed in floating point read as the maximum, and a whole one looped once per attempt).
            (.exponential(initial: .zero, multiplier: 1.5, maximum: .seconds(10)), 2_000, .zero),
            (.exponential(initial: .seconds(-1), multiplier: 1e300, maximum: .seconds(10)), 3, .zero),
            (.exponential(initial: .zero, maximum: .seconds(10)), Int.max, .zero),
            (.exponential(initial: .seconds(1), maximum: .zero), Int.max, .zero),
        ])
    func badInput(backoff: Backoff, attempt: Int, wait: Duration) {
        #expect(backoff.wait(after: attempt) == wait)
    }
}

@Suite("Retry: jitter and policy")
@MainActor
struct RetryPolicyTests {
    @Test("fewer than one attempt means one: the operation runs once and its failure ends the load", arguments: [0, -1, Int.min])
    func attemptsBelowOne(attempts: Int) async {
        let policy = RetryPolicy<TestError>(attempts: attempts, backoff: .constant(.seconds(1)))
        #expect(policy.attempts == 1)
        let value = AsyncValue<Int, TestError>()
        let calls = LockedValue(0)
        let request = LoadRequest { () async throws(TestError) -> Int in
            calls.withLock { $0 += 1 }
            throw .offline
        }
        await value.load(request.retry(policy))
        #expect(calls.current == 1)
        #expect(value.state == .error(error: .offline))
    }

    @Test("jitter shortens each wait by at most its fraction, reproducibly from a seed")
    func jitterIsSeeded() async {
        let clock = TestClock()
        func waits(seed: UInt64) async -> [Duration] {
            let value = AsyncValue<Int, TestError>()
            var seen: [Duration] = []
            value.observeTransitions { if case .retrying(_, let retry)? = $0.action { seen.append(retry.wait) } }
            let policy = RetryPolicy<TestError>(
                attempts: 4, backoff: .constant(.seconds(8)), jitter: .proportional(0.5, using: SplitMix64(seed: seed)), clock: clock)
            let request = LoadRequest { () async throws(TestError) -> Int in throw .offline }
            let load = Task { await value.load(request.retry(policy)) }
            for _ in 0..<3 {
                await clock.waitForSleepers(1)
                clock.advance(to: clock.nextDeadline!)
            }
            await load.value
            return seen
        }
        let first = await waits(seed: 7)
        #expect(first.count == 3)
        #expect(first.allSatisfy { $0 >= .seconds(4) && $0 <= .seconds(8) })
        #expect(Set(first).count > 1)
        #expect(await waits(seed: 7) == first)
        #expect(await waits(seed: 8) != first)
    }

    /// A generator that always draws `value`.
    struct ConstantGenerator: RandomNumberGenerator, Sendable {
        var value: UInt64
        mutating func next() -> UInt64 { value }
    }

    @Test("jitter rounds to the millisecond but never waits past the backoff's wait")
    func jitterNotPastTheWait() async {
        let clock = TestClock()
        let value = AsyncValue<Int, TestError>()
        var seen: [Duration] = []
        value.observeTransitions { if case .retrying(_, let retry)? = $0.action { seen.append(retry.wait) } }
        // A draw of 0 shortens 1.5 ms by nothing, and 1.5 ms rounds to 2.
        let policy = RetryPolicy<TestError>(
            attempts: 2, backoff: .constant(.microseconds(1_500)), jitter: .proportional(0.2, using: ConstantGenerator(value: 0)),
            clock: clock)
        let load = Task { await value.load(LoadRequest { () async throws(TestError) -> Int in throw .offline }.retry(policy)) }
        await clock.waitForSleepers(1)
        clock.advance(to: clock.nextDeadline!)
        await load.value
        #expect(seen == [.microseconds(1_500)])
    }

    @Test("jitter fractions outside 0...1 are clamped; none, zero, negative and NaN add nothing", arguments: [-1, 0, .nan])
    func jitterWithoutEffect(fraction: Double) {
        #expect(Jitter.proportional(fraction, using: SplitMix64(seed: 1)).description == "none")
    }

    @Test("a jitter fraction above 1 counts as 1")
    func jitterAboveOne() {
        #expect(Jitter.proportional(3, using: SplitMix64(seed: 1)).description == "proportional(1.0)")
    }

    @Test("a reducer that starts a load with jitter stays pure: the draw happens in the effect")
    func jitterKeepsReducerPure() async {
        let service = FlakyService()
        let clock = TestClock()
        let policy = RetryPolicy<TestError>(
            attempts: 2, backoff: .constant(.seconds(10)), jitter: .proportional(1, using: SplitMix64(seed: 3)), clock: clock)
        let store = TestStore(
            initialState: RetryingFeature.State(), reducer: RetryingFeature(service: service, retry: policy), checksPurity: true)
        store.exhaustivity = .off
        store.send(.load)
        service[0].fail(with: TestError.offline)
        await clock.waitForSleepers(1)
        let wait = clock.nextDeadline?.offset ?? .zero
        #expect(wait <= .seconds(10))
        clock.advance(by: .seconds(10))
        service[1].open(with: 1)
        await store.finish()
        store.skipReceivedActions()
        #expect(store.state.number.value == 1)
        #expect(service.calls == 2)
    }
}
