import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

/// `OperationTracker.run(_:_:overlap:)` with a request that has a retry
/// policy: an operation retried as its policy says, one run from the
/// caller's point of view.
@Suite("OperationTracker: runs with a retry policy")
@MainActor
struct OperationTrackerRetryTests {
    enum Op: Hashable, Sendable { case save }

    @Test("a failed attempt is retried after the wait; the run succeeds with the value, and no error remains")
    func retriedThenSucceeds() async {
        let clock = TestClock()
        let service = FlakyService()
        let tracker = OperationTracker<Op, TestError>()
        let policy = RetryPolicy<TestError>(attempts: 3, backoff: .constant(.seconds(2)), clock: clock)
        let run = Task { await tracker.run(.save, LoadRequest { () async throws(TestError) in try await service.call() }.retry(policy)) }
        service[0].fail(with: TestError.offline)
        await clock.waitForSleepers(1)
        #expect(tracker.isActive(.save)) // still active while it waits to try again
        #expect(tracker.error(for: .save) == nil)
        clock.advance(by: .seconds(2))
        service[1].open(with: 7)
        #expect(await run.value == .success(7))
        #expect(service.calls == 2)
        #expect(!tracker.isActive(.save))
        #expect(!tracker.hasErrors)
    }

    @Test("when every attempt fails, the run fails with the last failure")
    func runsOutOfAttempts() async {
        let clock = TestClock()
        let service = FlakyService()
        let tracker = OperationTracker<Op, TestError>()
        let policy = RetryPolicy<TestError>(attempts: 2, backoff: .constant(.seconds(1)), clock: clock)
        let run = Task { await tracker.run(.save, LoadRequest { () async throws(TestError) in try await service.call() }.retry(policy)) }
        service[0].fail(with: TestError.offline)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        service[1].fail(with: TestError.timedOut)
        #expect(await run.value == .failure(.timedOut))
        #expect(service.calls == 2)
        #expect(tracker.error(for: .save) == .timedOut)
    }

    @Test("cancelling during the wait between attempts is cancellation, not failure")
    func cancelDuringWait() async {
        let clock = TestClock()
        let service = FlakyService()
        let tracker = OperationTracker<Op, TestError>()
        let policy = RetryPolicy<TestError>(attempts: 3, backoff: .constant(.seconds(5)), clock: clock)
        let run = Task { await tracker.run(.save, LoadRequest { () async throws(TestError) in try await service.call() }.retry(policy)) }
        service[0].fail(with: TestError.offline)
        await clock.waitForSleepers(1)
        tracker.cancel(.save)
        #expect(await run.value == .cancelled)
        #expect(service.calls == 1)
        #expect(!tracker.isActive(.save))
        #expect(tracker.error(for: .save) == nil)
    }
    // MARK: Timeouts: a run's result is how its load ended

    /// A save whose operation ignores cancellation, as a slow server call
    /// that cannot be stopped does.
    private func stubbornSave(_ gate: Gate<Int>) -> LoadRequest<Int, TestError> {
        LoadRequest { () async throws(TestError) in await gate.value() ?? -1 }
    }

    /// Two attempts one after the other, each cut off after 5 s with `.timedOut`.
    private func twoAttemptsOfFiveSeconds(on clock: TestClock) -> RetryPolicy<TestError> {
        RetryPolicy(attempts: 2, backoff: .none, attemptTimeout: LoadTimeout(.seconds(5), clock: clock, failure: .timedOut), clock: clock)
    }

    @Test("a load timeout during an attempt fails the run with the timeout's failure, as error(for:) says")
    func timeoutDuringAttempt() async {
        let clock = TestClock()
        let gate = Gate<Int>()
        let tracker = OperationTracker<Op, TestError>()
        let save = stubbornSave(gate).timeout(LoadTimeout(.seconds(5), clock: clock, failure: .timedOut))
        let run = Task { await tracker.run(.save, save) }
        await gate.waitForArrivals()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        #expect(await run.value == .failure(.timedOut))
        #expect(tracker.error(for: .save) == .timedOut)
        #expect(!tracker.isActive(.save))
        gate.open(with: 1)
    }

    @Test("a load timeout during the wait between attempts fails the run with the timeout's failure, not the attempt's")
    func timeoutDuringBackoff() async {
        let clock = TestClock()
        let service = FlakyService()
        let tracker = OperationTracker<Op, TestError>()
        let policy = RetryPolicy<TestError>(attempts: 3, backoff: .constant(.seconds(10)), clock: clock)
        let save = LoadRequest { () async throws(TestError) in try await service.call() }
            .retry(policy)
            .timeout(LoadTimeout(.seconds(5), clock: clock, failure: .timedOut))
        let run = Task { await tracker.run(.save, save) }
        service[0].fail(with: TestError.offline)
        await clock.waitForSleepers(2) // the load's timeout and the wait to retry
        clock.advance(by: .seconds(5))
        #expect(await run.value == .failure(.timedOut))
        #expect(tracker.error(for: .save) == .timedOut)
        #expect(service.calls == 1)
    }

    @Test("the last attempt's timeout fails the run with that timeout's failure")
    func lastAttemptTimesOut() async {
        let clock = TestClock()
        let first = Gate<Int>(), stubborn = Gate<Int>()
        let attempts = AttemptCount()
        let tracker = OperationTracker<Op, TestError>()
        let policy = twoAttemptsOfFiveSeconds(on: clock)
        // The first attempt fails; the second ignores cancellation.
        let save = LoadRequest { () async throws(TestError) in
            attempts.count += 1
            if attempts.count == 1 {
                do { return try await first.wait() } catch { throw .offline }
            }
            return await stubborn.value() ?? -1
        }.retry(policy)
        let run = Task { await tracker.run(.save, save) }
        await first.waitForArrivals()
        first.fail(with: TestError.offline)
        await stubborn.waitForArrivals()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        #expect(await run.value == .failure(.timedOut))
        #expect(tracker.error(for: .save) == .timedOut)
        stubborn.open(with: 2)
    }

    @Test("a value that an attempt cut off by its timeout returns late is not the run's result")
    func lateValueOfTimedOutAttempt() async {
        let clock = TestClock()
        let first = StubbornCall(), second = StubbornCall()
        let attempts = AttemptCount()
        let tracker = OperationTracker<Op, TestError>()
        let policy = twoAttemptsOfFiveSeconds(on: clock)
        let save = LoadRequest { () async throws(TestError) in
            attempts.count += 1
            return attempts.count == 1 ? await first.value() : await second.value()
        }.retry(policy)
        let run = Task { await tracker.run(.save, save) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5)) // the first attempt times out; the second starts
        await clock.waitForSleepers(1)
        #expect(attempts.count == 2)
        second.answer(2) // the second attempt ends the load…
        first.answer(1) // …and then the first one returns, late
        #expect(await run.value == .success(2))
    }

    @Test("a caller that joined a run cancelled during the wait between attempts gets .cancelled, not the attempt's failure")
    func joinedRunCancelledDuringBackoff() async {
        let clock = TestClock()
        let service = FlakyService()
        let tracker = OperationTracker<Op, TestError>()
        let policy = RetryPolicy<TestError>(attempts: 3, backoff: .constant(.seconds(5)), clock: clock)
        let save = LoadRequest { () async throws(TestError) in try await service.call() }.retry(policy)
        let first = Task { await tracker.run(.save, save) }
        await service[0].waitForArrivals()
        let joined = await startCaller { await tracker.run(.save, save, overlap: .join) }
        service[0].fail(with: TestError.offline)
        await clock.waitForSleepers(1)
        tracker.cancel(.save)
        #expect(await first.value == .cancelled)
        #expect(await joined.value == .cancelled)
        #expect(tracker.error(for: .save) == nil)
    }
}

/// How many attempts an operation has made.
@MainActor
private final class AttemptCount {
    var count = 0
}

/// A call that ignores cancellation and returns what the test answers, on
/// the main actor, so an answer reaches the caller before the next one.
@MainActor
private final class StubbornCall {
    private var continuation: CheckedContinuation<Int, Never>?

    func value() async -> Int {
        await withCheckedContinuation { continuation = $0 }
    }

    func answer(_ value: Int) {
        continuation?.resume(returning: value)
        continuation = nil
    }
}
