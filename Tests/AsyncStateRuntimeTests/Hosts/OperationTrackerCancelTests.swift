import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Testing

/// Cancelling a tracker's operations stops every run `isActive` counts
/// (found by an outside reading: a run a newer one superseded but let finish
/// ran on through `cancelAll()`).
@Suite("OperationTracker: cancelling stops every run", .hangGuard)
@MainActor
struct OperationTrackerCancelTests {
    enum Operation: Hashable, Sendable { case save }
    typealias Tracker = OperationTracker<Operation, AnyError>

    /// A run of `.save` superseded by one that let it finish and ended first:
    /// only the superseded run is left, and `isActive` counts it.
    static func supersededRunLeft(_ tracker: Tracker, _ first: Gate<Int>) async -> Task<OperationResult<Int, AnyError>, Never> {
        let second = Gate<Int>()
        let one = await startCaller { await tracker.run(.save) { try await first.wait() } }
        await first.waitForArrivals()
        let two = await startCaller {
            await tracker.run(.save, overlap: .latestWins(cancellingEarlier: false)) { try await second.wait() }
        }
        await second.waitForArrivals()
        second.open(with: 2)
        #expect(await two.value == .success(2))
        #expect(tracker.isActive(.save), "the superseded run still works")
        return one
    }

    @Test(
        "cancel(key) and cancelAll() stop a run a newer one superseded but let finish; its caller gets .cancelled",
        arguments: [false, true])
    func cancelStopsSupersededRun(all: Bool) async {
        let tracker = Tracker()
        let first = Gate<Int>()
        let one = await Self.supersededRunLeft(tracker, first)
        if all { tracker.cancelAll() } else { tracker.cancel(.save) }
        #expect(first.observedCancellation, "the superseded run ran on")
        first.open(with: 1) // too late for a cancelled run
        #expect(await one.value == .cancelled)
        #expect(!tracker.isAnyActive)
    }

    @Test(
        "a run with a timeout stops counting at its deadline, or at once when cancelled, though its operation still runs",
        arguments: [false, true])
    func timedRunStopsCounting(cancelled: Bool) async {
        let clock = TestClock()
        let tracker = OperationTracker<Operation, TestError>()
        let gate = Gate<Int>()
        // An operation that ignores cancellation: it returns only when the gate opens.
        let save = LoadRequest<Int, TestError> { () async throws(TestError) in await gate.value() ?? -1 }
            .timeout(LoadTimeout(.seconds(5), clock: clock, failure: .timedOut))
        let run = await startCaller { await tracker.run(.save, save) }
        await gate.waitForArrivals()
        if cancelled {
            tracker.cancel(.save)
            #expect(await run.value == .cancelled)
        } else {
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(5))
            #expect(await run.value == .failure(.timedOut))
        }
        await yieldUntil { !tracker.isActive(.save) }
        #expect(!tracker.isActive(.save), "the timeout abandoned the operation, which still waits on its gate")
        gate.open(with: 1)
    }

    @Test("a .queue run whose caller's task is already cancelled never runs")
    func preCancelledQueuedRun() async {
        let tracker = Tracker()
        let gate = Gate<Int>()
        let ran = LockedValue(false)
        let first = await startCaller { await tracker.run(.save, overlap: .queue) { try await gate.wait() } }
        await gate.waitForArrivals()
        let late = Task { @MainActor in
            withUnsafeCurrentTask { $0?.cancel() }
            return await tracker.run(.save, overlap: .queue) { () async throws -> Int in
                ran.withLock { $0 = true }
                return 2
            }
        }
        #expect(await late.value == .cancelled)
        #expect(tracker.waitingCount(.save) == 0)
        gate.open(with: 1)
        #expect(await first.value == .success(1))
        await yieldUntil { !tracker.isActive(.save) }
        #expect(!ran.current)
        #expect(!tracker.isActive(.save))
    }

    @Test("a reader of waitingCount is told when a queued caller leaves; a reader of isActive when a let-finish run ends")
    func observedQueueAndActivity() async {
        let tracker = Tracker()
        let gate = Gate<Int>(), queuedGate = Gate<Int>()
        let first = await startCaller { await tracker.run(.save) { await gate.value() ?? -1 } }
        await gate.waitForArrivals()
        let queued = await startCaller { await tracker.run(.save, overlap: .queue) { try await queuedGate.wait() } }
        #expect(tracker.waitingCount(.save) == 1)
        let waitingChanged = tracking { _ = tracker.waitingCount(.save) }
        queued.cancel()
        _ = await queued.value
        #expect(tracker.waitingCount(.save) == 0)
        #expect(waitingChanged.isSet)
        let second = Gate<Int>()
        let two = await startCaller {
            await tracker.run(.save, overlap: .latestWins(cancellingEarlier: false)) { try await second.wait() }
        }
        await second.waitForArrivals()
        second.open(with: 2)
        _ = await two.value
        #expect(tracker.isActive(.save))
        let activeChanged = tracking { _ = tracker.isActive(.save) }
        gate.open(with: 1)
        _ = await first.value
        #expect(!tracker.isActive(.save))
        #expect(activeChanged.isSet)
    }
}
