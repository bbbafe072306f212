import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Testing

/// Cancelling a lane of an `AsyncValue` — by the caller's task or by
/// `reset()` — ends its work without a failure and runs nothing queued
/// behind it (probes from an outside reading, which held).
@Suite("AsyncValue: cancelling lanes", .hangGuard)
@MainActor
struct AsyncValueCancelTests {
    static func rows(_ number: Int, of count: Int) -> Pages<Int, Int> {
        Pages((1...3).map { number * 10 + $0 }, next: number < count ? number + 1 : nil)
    }

    @Test("a load more cancelled during its retry wait leaves no more error and no activity, and keeps the rows")
    func loadMoreCancelledInRetryWait() async {
        let clock = TestClock()
        let feed = AsyncValue<Pages<Int, Int>, TestError>()
        await feed.load(LoadRequest { () async throws(TestError) in Self.rows(1, of: 3) })
        let retried = LoadRequest { () async throws(TestError) -> Pages<Int, Int> in throw .offline }
            .retry(RetryPolicy(attempts: 3, backoff: .constant(.seconds(5)), clock: clock))
        let more = await startCaller { await feed.loadMore { _ in retried } }
        await clock.waitForSleepers(1)
        #expect(feed.isLoadingMore)
        more.cancel()
        await more.value
        await yieldUntil { !feed.isLoadingMore }
        #expect(!feed.isLoadingMore)
        #expect(feed.moreError == nil, "cancellation is not failure")
        #expect(feed.moreActivity == nil)
        #expect(feed.value == Self.rows(1, of: 3))
    }

    /// Appends `n`: an edit of a `[Int]`.
    struct Add: Edit {
        var n: Int
        func apply(to value: inout [Int]) -> Bool {
            value.append(n)
            return true
        }
    }

    @Test("reset() while a queued edit waits: its request never runs, and both edits' callers get .cancelled")
    func resetWithQueuedEdit() async {
        let value = AsyncValue<[Int], TestError>(value: [1])
        let calls = LockedValue<[String]>([])
        let first = Gate<Void>(), second = Gate<Void>()
        func save(_ name: String, _ gate: Gate<Void>) -> LoadRequest<Void, TestError> {
            LoadRequest { () async throws(TestError) in
                calls.withLock { $0.append(name) }
                do { try await gate.wait() } catch { throw .offline }
            }
        }
        let a = await startCaller { await value.edit(Add(n: 2), save("a", first), overlap: .queue) }
        await first.waitForArrivals()
        let b = await startCaller { await value.edit(Add(n: 3), save("b", second), overlap: .queue) }
        #expect(value.value == [1, 2, 3])
        value.reset()
        let resultA = await a.value
        let resultB = await b.value
        first.open(with: ())
        second.open(with: ())
        await yieldUntil { value.runningCount == 0 }
        #expect(calls.current == ["a"], "the queued save the reset forgot never runs")
        if case .cancelled = resultA {} else { Issue.record("a: \(String(describing: resultA))") }
        if case .cancelled = resultB {} else { Issue.record("b: \(String(describing: resultB))") }
        #expect(value.state == .notLoaded)
        #expect(value.runningCount == 0)
    }

    /// How a caller stops everything an `AsyncValue` runs.
    enum Stop: String, CaseIterable, CustomTestStringConvertible {
        case cancel, reset
        var testDescription: String { "\(rawValue)()" }
    }

    @Test(
        "cancel() and reset() stop a load a newer one superseded but let finish; its caller ends",
        arguments: Stop.allCases)
    func stopsSupersededLoad(_ stop: Stop) async {
        let value = AsyncValue<Int, TestError>()
        let first = Gate<Int>(), second = Gate<Int>()
        func gated(_ gate: Gate<Int>) -> LoadRequest<Int, TestError> {
            LoadRequest { () async throws(TestError) in
                do { return try await gate.wait() } catch { throw .offline }
            }
        }
        let one = await startCaller { await value.load(gated(first)) }
        await first.waitForArrivals()
        let two = await startCaller { await value.load(gated(second), overlap: .latestWins(cancellingEarlier: false)) }
        await second.waitForArrivals()
        second.open(with: 2)
        await two.value
        #expect(value.runningCount == 1, "superseded, its work still runs")
        switch stop {
        case .cancel: value.cancel()
        case .reset: value.reset()
        }
        await yieldUntil { first.observedCancellation }
        #expect(first.observedCancellation, "its work runs on")
        first.open(with: 1)
        await one.value
        // Its callers returned at once; the work's own end comes when it returns.
        await yieldUntil { value.runningCount == 0 }
        #expect(value.runningCount == 0)
        #expect(value.state == (stop == .cancel ? .success(value: 2) : .notLoaded))
    }
}
