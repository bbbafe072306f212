import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Testing

/// A clock whose sleep ignores cancellation: it returns only when `base`
/// reaches the deadline, to a task that may have been cancelled meanwhile.
struct CancellationIgnoringClock: Clock {
    let base: TestClock
    var now: TestClock.Instant { base.now }
    var minimumResolution: Duration { base.minimumResolution }
    func sleep(until deadline: TestClock.Instant, tolerance: Duration?) async throws {
        // An unstructured task: the caller's cancellation does not reach it.
        let base = base
        try? await Task { try await base.sleep(until: deadline, tolerance: tolerance) }.value
    }
}

/// A retry wait on a clock that ignores cancellation (found by mutation
/// testing): the load's doc promises that it ends cancelled either way.
@Suite("Retry: cancelled during a wait that ignores cancellation", .hangGuard)
@MainActor
struct RetryWaitCancellationTests {
    @Test("cancelled during a backoff wait whose clock ignores cancellation, no further attempt runs")
    func noAttemptAfterCancelledWait() async {
        let clock = TestClock()
        let calls = LockedValue(0)
        let value = AsyncValue<Int, TestError>()
        let policy = RetryPolicy<TestError>(
            attempts: 3, backoff: .constant(.seconds(1)), clock: CancellationIgnoringClock(base: clock))
        let request = LoadRequest<Int, TestError> { () async throws(TestError) in
            calls.withLock { $0 += 1 }
            throw .offline
        }.retry(policy)
        let loading = await startCaller { await value.load(request) }
        await clock.waitForSleepers(1)
        #expect(calls.withLock { $0 } == 1)
        value.cancel()
        await loading.value
        clock.advance(by: .seconds(1))
        await yieldUntil { value.runningCount == 0 }
        for _ in 0..<100 { await Task.yield() }
        #expect(calls.withLock { $0 } == 1, "an attempt ran after the load was cancelled")
        #expect(value.error == nil)
    }
}
