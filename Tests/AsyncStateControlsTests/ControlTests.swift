import AsyncState
import AsyncStateTesting
import Testing

@Suite("Gate")
struct GateTests {
    @Test("a gate opened before anyone waits remembers its value")
    func openedEarly() async throws {
        let gate = Gate<Int>()
        gate.open(with: 3)
        #expect(try await gate.wait() == 3)
        #expect(try await gate.wait() == 3)
    }

    @Test("every waiter gets the value; the first open wins")
    func manyWaiters() async throws {
        let gate = Gate<Int>()
        async let a = gate.wait()
        async let b = gate.wait()
        await gate.waitForArrivals(2)
        gate.open(with: 1)
        gate.open(with: 2)
        #expect(try await [a, b] == [1, 1])
    }

    @Test("a failed gate throws its error")
    func fails() async {
        struct Boom: Error {}
        let gate = Gate<Int>()
        gate.fail(with: Boom())
        await #expect(throws: Boom.self) { try await gate.wait() }
    }

    @Test("a cancelled waiter throws CancellationError and is counted")
    func cancelled() async {
        let gate = Gate<Int>()
        let waiter = Task { try await gate.wait() }
        await gate.waitForArrivals()
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(gate.cancellationCount == 1)
    }

    @Test("value() ignores cancellation and waits for the test")
    func ignoresCancellation() async {
        let gate = Gate<Int>()
        let waiter = Task { await gate.value() }
        await gate.waitForArrivals()
        waiter.cancel()
        gate.open(with: 9)
        #expect(await waiter.value == 9)
    }
}

@Suite("TestClock")
struct TestClockTests {
    @Test("sleepers wake in deadline order only when time is advanced past them")
    func order() async throws {
        let clock = TestClock()
        let woke = WakeLog()
        let late = Task {
            try await clock.sleep(for: .seconds(2)); await woke.add(2)
        }
        let early = Task {
            try await clock.sleep(for: .seconds(1)); await woke.add(1)
        }
        await clock.waitForSleepers(2)
        clock.advance(by: .milliseconds(999))
        #expect(clock.sleeperCount == 2)
        clock.advance(by: .seconds(5))
        try await early.value
        try await late.value
        #expect(await woke.values.sorted() == [1, 2])
        #expect(clock.now.offset == .milliseconds(5999))
    }

    @Test("a sleep whose deadline has passed returns at once")
    func pastDeadline() async throws {
        let clock = TestClock()
        clock.advance(by: .seconds(1))
        try await clock.sleep(until: .init(offset: .zero))
    }

    @Test("a cancelled sleeper throws and leaves the clock")
    func cancelled() async {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers()
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test("time never goes backward")
    func monotonic() {
        let clock = TestClock()
        clock.advance(by: .seconds(2))
        clock.advance(to: .init(offset: .seconds(1)))
        #expect(clock.now.offset == .seconds(2))
    }
}

actor WakeLog {
    var values: [Int] = []
    func add(_ value: Int) { values.append(value) }
}

/// What the controls do when a test goes wrong or pushes them to the edge
/// (an outside reading): a wait that can never end returns when its task is
/// cancelled, and no amount of time traps the clock. (That a gate resumes
/// its waiters in the order they came is not tested here: each waiter goes
/// on through the global pool, whose threads reorder them in turn.)
@Suite("Controls at their edges", .timeLimit(.minutes(10)))
@MainActor
struct ControlEdgeTests {
    @Test("waiting for sleepers or arrivals that never come returns when the waiting task is cancelled")
    func waitsEndWithTheirTask() async {
        let clock = TestClock()
        let gate = Gate<Int>()
        let sleepers = Task { @MainActor in await clock.waitForSleepers(1) }
        let arrivals = Task { @MainActor in await gate.waitForArrivals(1) }
        // Both run on the main actor up to their wait before this goes on:
        // registered, so their cancellation handlers let them go.
        await Task.yield()
        sleepers.cancel()
        arrivals.cancel()
        await sleepers.value
        await arrivals.value
        // Still counted right afterwards: a later waiter is not disturbed.
        let later = Task { await clock.waitForSleepers(1) }
        let sleeper = Task { try? await clock.sleep(for: .seconds(1)) }
        await later.value
        clock.advance(by: .seconds(1))
        await sleeper.value
    }

    @Test("advancing by any amount, however often, never traps: time stops at its far end")
    func advanceByAnyAmount() {
        let clock = TestClock()
        for _ in 0..<20 { clock.advance(by: .seconds(Int64.max)) }
        #expect(clock.now == TestClock.Instant(offset: .seconds(Int64.max) * 2))
    }

    @Test("waitUntilIdle with no rounds allowed says it never became idle")
    func idleWithoutRounds() async {
        let store = Store(initialState: 0, reducer: Reduce<Int, Int> { _, _ in .none })
        #expect(await store.waitUntilIdle(on: TestClock(), maximumRounds: -1) == false)
        #expect(await store.waitUntilIdle(on: TestClock(), maximumRounds: 0) == false)
    }
}
