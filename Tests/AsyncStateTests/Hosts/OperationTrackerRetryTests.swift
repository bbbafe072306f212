import AsyncState
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
}
