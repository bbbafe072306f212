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
