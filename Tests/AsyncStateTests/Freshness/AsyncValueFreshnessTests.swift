import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Testing

@Suite("Freshness: AsyncValue.loadIfNeeded(maxAge:)")
@MainActor
struct AsyncValueFreshnessTests {
    typealias Value = AsyncValue<Int, AnyError>

    /// A counter of loads, each returning its own number.
    final class Loads {
        var count = 0
        func next() -> Int {
            count += 1
            return count
        }
    }

    @Test("a success younger than maxAge is kept; an older one reloads")
    func reloadsWhenOld() async {
        let clock = TestClock()
        let value = Value(clock: clock)
        let loads = Loads()
        await value.loadIfNeeded(maxAge: .seconds(60)) { loads.next() }
        clock.advance(by: .seconds(59))
        await value.loadIfNeeded(maxAge: .seconds(60)) { loads.next() }
        #expect(value.value == 1)
        #expect(!value.isStale(maxAge: .seconds(60)))
        clock.advance(by: .seconds(1))
        #expect(value.isStale(maxAge: .seconds(60)))
        await value.loadIfNeeded(maxAge: .seconds(60)) { loads.next() }
        #expect(value.value == 2)
    }

    @Test("a maxAge of zero or less reloads every time", arguments: [0, -1])
    func zeroOrNegative(seconds: Int) async {
        let clock = TestClock()
        let value = Value(clock: clock)
        let loads = Loads()
        await value.loadIfNeeded(maxAge: .seconds(seconds)) { loads.next() }
        await value.loadIfNeeded(maxAge: .seconds(seconds)) { loads.next() }
        #expect(loads.count == 2)
    }

    @Test("without a clock every success counts as stale")
    func noClock() async {
        let value = Value()
        let loads = Loads()
        await value.loadIfNeeded(maxAge: .seconds(3_600)) { loads.next() }
        await value.loadIfNeeded(maxAge: .seconds(3_600)) { loads.next() }
        #expect(loads.count == 2)
        #expect(value.isStale(maxAge: .seconds(3_600)))
    }

    @Test("without maxAge a success stays fresh until it is invalidated")
    func noMaxAge() async {
        let clock = TestClock()
        let value = Value(clock: clock)
        let loads = Loads()
        await value.loadIfNeeded { loads.next() }
        clock.advance(by: .seconds(100_000))
        await value.loadIfNeeded { loads.next() }
        #expect(loads.count == 1)
        await value.invalidate()
        #expect(loads.count == 2)
        #expect(value.value == 2 && !value.isInvalidated)
    }

    @Test("a value given at creation with a clock is fresh until maxAge passes")
    func initialValue() async {
        let clock = TestClock()
        let value = Value(value: 5, clock: clock)
        await value.loadIfNeeded(maxAge: .seconds(10)) { 6 }
        #expect(value.value == 5)
        clock.advance(by: .seconds(10))
        await value.loadIfNeeded(maxAge: .seconds(10)) { 6 }
        #expect(value.value == 6)
    }

    @Test("a caller during a load joins it, as before")
    func joinsInFlight() async {
        let clock = TestClock()
        let value = Value(clock: clock)
        let gate = Gate<Int>()
        let loads = Loads()
        let first = await startCaller { await value.load { try await gate.wait() } }
        await gate.waitForArrivals()
        let second = await startCaller { await value.loadIfNeeded(maxAge: .seconds(60)) { loads.next() } }
        #expect(value.callerCount == 2)
        gate.open(with: 1)
        await first.value
        await second.value
        #expect(loads.count == 0)
        #expect(value.value == 1)
    }

    @Test("the age counts from when the load settled, not when it started")
    func ageFromSettle() async {
        let clock = TestClock()
        let value = Value(clock: clock)
        let gate = Gate<Int>()
        let task = await startCaller { await value.loadIfNeeded(maxAge: .seconds(10)) { try await gate.wait() } }
        await gate.waitForArrivals()
        clock.advance(by: .seconds(8))
        gate.open(with: 1)
        await task.value
        clock.advance(by: .seconds(9))
        #expect(!value.isStale(maxAge: .seconds(10)))
        #expect(value.loadable.settledAt == LoadClock.Instant(offset: .seconds(8)))
    }

    @Test("invalidate() during a load supersedes it and returns once the reload has settled")
    func invalidateDuringLoad() async {
        let clock = TestClock()
        let value = Value(clock: clock)
        let first = Gate<Int>()
        let loading = await startCaller { await value.load { try await first.wait() } }
        await first.waitForArrivals()
        // The reload repeats the last request, so it waits on the same gate.
        let invalidating = await startCaller { await value.invalidate() }
        #expect(value.isInvalidated && value.loadable.inFlightID == LoadID(2))
        await loading.value
        #expect(first.observedCancellation)
        first.open(with: 2)
        await invalidating.value
        #expect(value.value == 2 && !value.isInvalidated && !value.isLoading)
    }
}
