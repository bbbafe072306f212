import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Testing

/// What a cache counts as in use, what its triggers join and what its release
/// stops, for both caches (pinned after mutation testing): a poll tick skips
/// a key no one uses; a reducer's refetch trigger joins no load; releasing
/// a reducer's entry stops its "load more".
@Suite("Cache: polls, triggers and releases, both caches", .hangGuard)
@MainActor
struct CacheUseAndReleaseTests {
    @Test("Cache.poll reloads no key that no one uses, though the entry is still cached")
    func pollSkipsAnUnusedKey() async {
        let (cache, clock, backend) = makeCache(collectAfter: .seconds(600))
        let subscription = cache.subscribe(1)
        await backend.waitForCalls(1)
        backend.answer(1, with: "a")
        await subscription.loaded()
        cache.poll(1, every: .seconds(10))
        subscription.cancel()
        #expect(cache.users(of: 1) == 0 && cache[1] != nil, "kept unused until its collection")
        await clock.waitForSleepers(2) // the poll and the collection timer
        clock.advance(by: .seconds(10))
        await clock.waitForSleepers(2) // the poll asleep again: the tick has been decided
        #expect(cache[1]?.isLoading == false, "the tick loaded a key no one uses")
        #expect(backend.count(1) == 1)
        cache.stopPolling(1)
    }

    @Test("a key one of its two users left is still in use: a bounded cache does not evict it")
    func oneOfTwoUsersLeavingKeepsTheEntry() async {
        let (cache, _, backend) = makeCache(capacity: 1)
        let first = cache.subscribe(1)
        let second = cache.subscribe(1)
        first.cancel()
        #expect(cache.users(of: 1) == 1)
        let other = cache.subscribe(2)
        #expect(cache[1] != nil && cache[1] === second.entry, "evicted while its other user holds it")
        await backend.waitForCalls(2)
        backend.answer(1, with: "a")
        backend.answer(2, with: "b")
        await second.loaded()
        await other.loaded()
        #expect(second.entry.value == "a")
        other.cancel()
        second.cancel()
    }

    @Test("CacheReducer: .refetchStale joins no load in flight — its task is empty, as Cache.refetchStale joins nothing")
    func reducerTriggerJoinsNothing() async {
        let clock = LoadClock(TestClock())
        let loads = GateQueue<String>()
        let first = loads.prepare(1)[0]
        let store = Store(
            initialState: CacheState<Int, String, TestError>(),
            reducer: CacheReducer(clock: clock, staleAfter: .seconds(30)) { _ in loads.request() })
        let subscribing = store.send(.subscribe(1, at: clock.now))
        await first.waitForArrivals()
        #expect(store.send(.refetchStale(at: clock.now)).isEmpty, "the trigger joined the load in flight")
        first.open(with: "a")
        await subscribing.finish()
        #expect(store.state[1]?.value == "a")
    }

    @Test("CacheReducer: releasing an entry cancels its load more too")
    func reducerReleaseCancelsLoadMore() async {
        let clock = LoadClock(TestClock())
        let (firstQueue, moreQueue) = (GateQueue<Pages<Int, Int>>(), GateQueue<Pages<Int, Int>>())
        let (first, more) = (firstQueue.prepare(1)[0], moreQueue.prepare(1)[0])
        let feature = CachePollTests.PagedFeature(clock: clock, firsts: firstQueue, more: moreQueue, collectAfter: .zero)
        let store = Store(initialState: CachePollTests.PagedFeature.State(), reducer: feature)
        let subscribing = store.send(.pages(.subscribe(1, at: clock.now)))
        await first.waitForArrivals()
        first.open(with: CachePollTests.page(1))
        await subscribing.finish()
        let loadingMore = store.send(.more)
        await more.waitForArrivals()
        #expect(store.pages[1]?.isLoadingMore == true)
        store.send(.pages(.unsubscribe(1)))
        #expect(store.pages.count == 0, "collected at once")
        for _ in 0..<1_000 where !more.observedCancellation { await Task.yield() }
        #expect(more.observedCancellation, "the released entry's load more runs on")
        more.open(with: CachePollTests.page(2)) // lets a load more that ran on end
        await loadingMore.finish()
        #expect(store.runningEffectCount == 0)
    }
}
