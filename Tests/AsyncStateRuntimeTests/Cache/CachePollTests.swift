import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Testing

/// A poll tick reloads a key in use unless a load of it is in flight — one
/// that no invalidation has overtaken, or a "load more", which a reload
/// would supersede, dropping the page a user asked for (found by an outside
/// reading: every tick that landed while a page loaded did so). One rule for
/// both caches.
@Suite("Cache: a poll tick and the loads in flight", .hangGuard)
@MainActor
struct CachePollTests {
    /// Page `number` of three: three rows, numbered `number * 10 + 1…3`.
    static func page(_ number: Int) -> Pages<Int, Int> {
        Pages((1...3).map { number * 10 + $0 }, next: number < 3 ? number + 1 : nil)
    }

    @Test("Cache.poll skips a tick while a load more of the key runs, and reloads on the next one")
    func hostSkipsTickDuringLoadMore() async {
        let clock = TestClock()
        let firstPages = LockedValue(0)
        let cache = Cache<Int, Pages<Int, Int>, TestError>(clock: clock, staleAfter: .seconds(300)) { _ in
            LoadRequest { () async throws(TestError) in
                firstPages.withLock { $0 += 1 }
                return Self.page(1)
            }
        }
        let subscription = cache.subscribe(1)
        await subscription.loaded()
        cache.poll(1, every: .seconds(10))
        let more = Gate<Pages<Int, Int>>()
        let loadingMore = await startCaller {
            await subscription.entry.loadMore { _ in
                LoadRequest { () async throws(TestError) in
                    do { return try await more.wait() } catch { throw .offline }
                }
            }
        }
        await more.waitForArrivals()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        // Asleep again: the tick has been decided.
        await clock.waitForSleepers(1)
        #expect(subscription.entry.isLoadingMore, "the tick left the load more running")
        #expect(firstPages.withLock { $0 } == 1)
        more.open(with: Self.page(2))
        await loadingMore.value
        #expect(subscription.entry.value.map(Array.init) == [11, 12, 13, 21, 22, 23])
        clock.advance(by: .seconds(10))
        await yieldUntil { firstPages.withLock { $0 } == 2 }
        #expect(firstPages.withLock { $0 } == 2, "with nothing in flight, the next tick reloads")
        cache.stopPolling(1)
        withExtendedLifetime(subscription) {}
    }

    /// A reducer's cache of paged lists: each load of key 1's first page
    /// waits on the next gate of `firsts`, and each "load more" on the next
    /// of `more`; an unused entry is collected `collectAfter` later.
    struct PagedFeature: Reducer {
        struct State { var pages = CacheState<Int, Pages<Int, Int>, TestError>() }
        enum Action {
            case more
            case markStale
            case pages(CacheAction<Int, Pages<Int, Int>, TestError>)
        }

        let clock: LoadClock
        let firsts: GateQueue<Pages<Int, Int>>
        let more: GateQueue<Pages<Int, Int>>
        var collectAfter: Duration = .seconds(300)

        var body: some Reducer<State, Action> {
            Scope(state: \.pages, action: Action.pages, extract: { if case .pages(let action) = $0 { action } else { nil } }) {
                CacheReducer(clock: clock, staleAfter: .seconds(300), collectAfter: collectAfter) { [firsts] _ in firsts.request() }
            }
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .more:
                let more = more
                return state.pages.update(1) { $0.loadMore({ Action.pages(.entry(1, $0)) }) { _ in more.request() } } ?? .none
            case .markStale:
                // Invalidated without a reload: the load in flight is overtaken.
                _ = state.pages.update(1) { $0.invalidate() }
                return .none
            case .pages:
                return body.reduce(into: &state, action: action)
            }
        }
    }

    @Test("CacheReducer: .refetch starts nothing while a load of the key runs — the value's, unless overtaken, or a load more")
    func reducerTick() async {
        let clock = TestClock()
        let (firstQueue, moreQueue) = (GateQueue<Pages<Int, Int>>(), GateQueue<Pages<Int, Int>>())
        let (firsts, more) = (firstQueue.prepare(3), moreQueue.prepare(1)[0])
        let feature = PagedFeature(clock: LoadClock(clock), firsts: firstQueue, more: moreQueue)
        let store = Store(initialState: PagedFeature.State(), reducer: feature)
        var ticks: [Bool] = []
        store.observeTransitions { transition in
            if case .pages(.refetch) = transition.action { ticks.append(transition.isDropped) }
        }
        let subscribing = store.send(.pages(.subscribe(1, at: LoadClock(clock).now)))
        await firsts[0].waitForArrivals()
        #expect(store.send(.pages(.refetch(1))).isEmpty, "the first page is loading")
        firsts[0].open(with: Self.page(1))
        await subscribing.finish()

        let loadingMore = store.send(.more)
        await more.waitForArrivals()
        #expect(store.send(.pages(.refetch(1))).isEmpty, "a load more runs: a reload would drop its page")
        #expect(store.pages[1]?.isLoadingMore == true)
        more.open(with: Self.page(2))
        await loadingMore.finish()
        #expect(store.pages[1]?.value.map(Array.init) == [11, 12, 13, 21, 22, 23])

        let ticked = store.send(.pages(.refetch(1)))
        #expect(!ticked.isEmpty, "nothing in flight: the tick reloads")
        await firsts[1].waitForArrivals()
        store.send(.markStale)
        let overtaking = store.send(.pages(.refetch(1)))
        #expect(!overtaking.isEmpty, "the load in flight was overtaken by an invalidation: the tick reloads")
        await firsts[2].waitForArrivals()
        #expect(firsts[1].observedCancellation, "the overtaken load was superseded")
        #expect(store.send(.pages(.refetch(1))).isEmpty, "the new load answers the invalidation")
        firsts[2].open(with: Self.page(1))
        await overtaking.finish()
        await ticked.finish()
        #expect(store.pages[1]?.value.map(Array.init) == [11, 12, 13])
        #expect(store.pages[1]?.isInvalidated == false)
        #expect(ticks == [true, true, false, false, true], "a skipped tick changes nothing: it is reported as dropped")
    }
}
