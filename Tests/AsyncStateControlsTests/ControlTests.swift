import AsyncState
import AsyncStateTesting
import Testing

@Suite("Gate", .timeLimit(.minutes(10)))
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

    // Found by a mutation round: a later open replaced the result for
    // waiters that came after it, and nothing noticed.
    @Test("a later open or fail changes nothing, for a waiter that comes after it too")
    func firstResolutionStays() async throws {
        struct Boom: Error {}
        let gate = Gate<Int>()
        gate.open(with: 1)
        gate.open(with: 2)
        gate.fail(with: Boom())
        #expect(try await gate.wait() == 1)
    }

    @Test("a call that finds the gate open counts as an arrival", .timeLimit(.minutes(1)))
    func arrivalAtAnOpenGate() async throws {
        let gate = Gate<Int>()
        gate.open(with: 1)
        #expect(try await gate.wait() == 1)
        // Returns at once; were the call not counted, only the time limit would end it.
        await gate.waitForArrivals(1)
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    @Test("waiters are resumed in the order they came")
    func resumesInArrivalOrder() async throws {
        let gate = Gate<Int>()
        // One job at a time, in the order they come: the waiters go on in
        // the order the gate resumes them.
        let executor = SerialTaskExecutor()
        let order = LockedValue<[String]>([])
        let first = Task(executorPreference: executor) {
            _ = try await gate.wait()
            order.withLock { $0.append("first") }
        }
        await gate.waitForArrivals(1)
        let second = Task(executorPreference: executor) {
            _ = try await gate.wait()
            order.withLock { $0.append("second") }
        }
        await gate.waitForArrivals(2)
        gate.open(with: 1)
        try await first.value
        try await second.value
        #expect(order.current == ["first", "second"])
    }

    @Test("waiting for fewer arrivals than have come returns at once", .timeLimit(.minutes(1)))
    func fewerArrivalsThanCame() async {
        let gate = Gate<Int>()
        async let a = gate.value()
        async let b = gate.value()
        await gate.waitForArrivals(2)
        // Returns at once; were it waiting for exactly one, only the time limit would end it.
        await gate.waitForArrivals(1)
        gate.open(with: 1)
        #expect(await [a, b] == [1, 1])
    }
}

@Suite("TestClock", .timeLimit(.minutes(10)))
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

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    @Test("due sleepers wake earliest deadline first, whatever the order they fell asleep in")
    func wakesEarliestFirst() async throws {
        let clock = TestClock()
        // One job at a time, in the order they come: the sleepers go on in
        // the order the clock wakes them.
        let executor = SerialTaskExecutor()
        let woke = LockedValue<[Int]>([])
        let late = Task(executorPreference: executor) {
            try await clock.sleep(for: .seconds(2))
            woke.withLock { $0.append(2) }
        }
        await clock.waitForSleepers(1)
        let early = Task(executorPreference: executor) {
            try await clock.sleep(for: .seconds(1))
            woke.withLock { $0.append(1) }
        }
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(2))
        try await late.value
        try await early.value
        #expect(woke.current == [1, 2])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    @Test("waitForSleepers() with no count waits for one sleeper")
    func waitsForOneSleeperByDefault() async {
        let clock = TestClock()
        // One job at a time: the waiter runs up to its wait before the sleeper starts.
        let executor = SerialTaskExecutor()
        let waiter = Task(executorPreference: executor) {
            await clock.waitForSleepers()
            return clock.sleeperCount
        }
        let sleeper = Task(executorPreference: executor) { try? await clock.sleep(for: .seconds(1)) }
        #expect(await waiter.value == 1)
        sleeper.cancel()
        await sleeper.value
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    @Test("waitForSleepers(2) does not return at the first sleeper")
    func waitsForTheCountGiven() async {
        let clock = TestClock()
        // One job at a time: the waiter runs up to its wait before the first
        // sleeper starts, and reads the count before the second starts.
        let executor = SerialTaskExecutor()
        let waiter = Task(executorPreference: executor) {
            await clock.waitForSleepers(2)
            return clock.sleeperCount
        }
        let first = Task(executorPreference: executor) { try? await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(1)
        let second = Task(executorPreference: executor) { try? await clock.sleep(for: .seconds(1)) }
        #expect(await waiter.value == 2)
        first.cancel()
        second.cancel()
        await first.value
        await second.value
    }
}

actor WakeLog {
    var values: [Int] = []
    func add(_ value: Int) { values.append(value) }
}

/// What the controls do when a test goes wrong or pushes them to the edge
/// (an outside reading): a wait that can never end returns when its task is
/// cancelled, and no amount of time traps the clock. (That a gate resumes
/// its waiters in the order they came is tested with the gate: there each
/// waiter goes on through a `SerialTaskExecutor`, not the global pool,
/// whose threads would reorder them in turn.)
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

    // From a mutation round: an instant that added the duration unclamped
    // passed every test here, which advanced by at most Int64.max seconds.
    @Test("advancing by a duration past Int64.max seconds never traps: time stops at its far end")
    func advanceByAHugeAmount() {
        let clock = TestClock()
        let huge = Duration.seconds(Int64.max) * 18
        clock.advance(by: huge)
        clock.advance(by: huge)
        #expect(clock.now == TestClock.Instant(offset: .seconds(Int64.max)))
    }

    @Test("waitUntilIdle with no rounds allowed says it never became idle")
    func idleWithoutRounds() async {
        let store = Store(initialState: 0, reducer: Reduce<Int, Int> { _, _ in .none })
        #expect(await store.waitUntilIdle(on: TestClock(), maximumRounds: -1) == false)
        #expect(await store.waitUntilIdle(on: TestClock(), maximumRounds: 0) == false)
    }

    @Test("waitUntilIdle counts 8 quiet rounds before it answers: a bound below them answers false for an idle store")
    func idleNeedsEightRounds() async {
        let store = Store(initialState: 0, reducer: Reduce<Int, Int> { _, _ in .none })
        #expect(await store.waitUntilIdle(on: TestClock(), maximumRounds: 7) == false)
        #expect(await store.waitUntilIdle(on: TestClock(), maximumRounds: 8) == true)
    }
}
