import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

/// `AsyncValue` with retries and streams, and its activity read-outs.
@Suite("AsyncValue: retries, streams, activity")
@MainActor
struct AsyncValueLifecycleTests {
    @Test("a load with a retry policy shows attempt k of n while it waits, then settles")
    func retry() async {
        let clock = TestClock()
        let service = FlakyService()
        let value = AsyncValue<Int, TestError>()
        let policy = RetryPolicy<TestError>(attempts: 3, backoff: .constant(.seconds(4)), clock: clock)
        let load = Task { await value.load(LoadRequest { () async throws(TestError) in try await service.call() }.retry(policy)) }
        service[0].fail(with: TestError.offline)
        await clock.waitForSleepers(1)
        #expect(value.activity?.attempt == 2)
        #expect(value.activity?.attempts == 3)
        #expect(value.activity?.wait == .seconds(4))
        #expect(value.activity?.lastFailure == .offline)
        #expect(value.state == .loading)
        clock.advance(by: .seconds(4))
        service[1].open(with: 1)
        await load.value
        #expect(value.state == .success(value: 1))
        #expect(value.activity == nil)
    }

    // Changed by design (CHANGELOG): a load with a retry policy says how many
    // attempts it makes as it starts (`.planned`), not from its first retry.
    @Test("a load with a retry policy says attempt 1 of n from the start")
    func plannedFromTheStart() async {
        let clock = TestClock()
        let service = FlakyService()
        let value = AsyncValue<Int, TestError>()
        let policy = RetryPolicy<TestError>(attempts: 3, backoff: .constant(.seconds(4)), clock: clock)
        let load = Task { await value.load(LoadRequest { () async throws(TestError) in try await service.call() }.retry(policy)) }
        await service[0].waitForArrivals()
        #expect(value.activity == LoadActivity(reason: .firstLoad, attempt: 1, attempts: 3))
        service[0].open(with: 1)
        await load.value
        #expect(value.state == .success(value: 1))
        #expect(value.activity == nil)
    }

    @Test("cancel() during the backoff wait returns to the previous state and ends the load")
    func cancelDuringWait() async {
        let clock = TestClock()
        let service = FlakyService()
        let value = AsyncValue<Int, TestError>(value: 5)
        let policy = RetryPolicy<TestError>(attempts: 3, backoff: .constant(.seconds(4)), clock: clock)
        let load = Task { await value.load(LoadRequest { () async throws(TestError) in try await service.call() }.retry(policy)) }
        service[0].fail(with: TestError.offline)
        await clock.waitForSleepers(1)
        value.cancel()
        await load.value
        #expect(value.state == .success(value: 5))
        #expect(service.calls == 1)
    }

    @Test("untyped retries become AnyError and are judged by shouldRetry")
    func untypedRetry() async {
        struct Teapot: Error, Equatable {}
        let value = AsyncValue<Int, AnyError>()
        let calls = LockedValue(0)
        let request = LoadRequest<Int, AnyError> {
            calls.withLock { $0 += 1 }
            throw Teapot()
        }
        await value.load(request.retry(RetryPolicy(attempts: 3) { failure, _ in failure != AnyError(Teapot()) }))
        #expect(calls.current == 1)
        #expect(value.error == AnyError(Teapot()))
    }

    @Test("a streamed load shows its parts as they arrive and ends with the accumulated value")
    func stream() async {
        let source = StreamSource()
        let value = AsyncValue<[Int], TestError>(value: [0])
        let load = Task {
            await value.load(
                LoadRequest(stream: { GatedSequence(source: source) }, mode: .append, initial: [], mapError: { _ in .offline }) {
                    $0.append($1)
                })
        }
        source[0].open(with: 1)
        await source[1].waitForArrivals()
        #expect(value.partialValue == [0, 1])
        #expect(value.state == .refreshing(value: [0, 1]))
        #expect(value.activity?.reason == .refresh)
        source[1].fail(with: StreamSource.End())
        await load.value
        #expect(value.state == .success(value: [0, 1]))
    }

    @Test("reload of an appending stream appends to the value shown at the reload, not at the first load")
    func reloadAppendsToCurrentValue() async {
        let sources = [StreamSource(), StreamSource()]
        let calls = LockedValue(0)
        let value = AsyncValue<[Int], TestError>(value: [0])
        let stream: @MainActor @Sendable () -> GatedSequence = {
            let index = calls.withLock { count in
                count += 1
                return count - 1
            }
            return GatedSequence(source: sources[index])
        }
        sources[0][0].open(with: 1)
        sources[0][1].fail(with: StreamSource.End())
        await value.load(LoadRequest(stream: stream, mode: .append, initial: [], mapError: { _ in .offline }) { $0.append($1) })
        #expect(value.state == .success(value: [0, 1]))
        sources[1][0].open(with: 2)
        sources[1][1].fail(with: StreamSource.End())
        await value.reload()
        #expect(value.state == .success(value: [0, 1, 2]))
    }

    @Test("a newer streamed load supersedes the old stream, which can never write")
    func supersededStream() async {
        let old = StreamSource(), new = StreamSource()
        let value = AsyncValue<Int, TestError>()
        let first = Task {
            await value.load(LoadRequest(stream: { GatedSequence(source: old, ignoresCancellation: true) }, mapError: { _ in .offline }))
        }
        await old[0].waitForArrivals()
        let second = Task { await value.load(LoadRequest(stream: { GatedSequence(source: new) }, mapError: { _ in .offline })) }
        await new[0].waitForArrivals()
        old[0].open(with: 1)
        await first.value
        #expect(value.value == nil)
        new[0].open(with: 2)
        new[1].fail(with: StreamSource.End())
        await second.value
        #expect(value.state == .success(value: 2))
    }
}
