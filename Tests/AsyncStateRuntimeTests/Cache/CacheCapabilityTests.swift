import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Testing

/// What a cache entry can do now that it is an `AsyncValue`: pages,
/// optimistic edits, prefetching, cancelling one entry, awaiting a reload.
@Suite("Cache: entries are AsyncValues", .hangGuard)
@MainActor
struct CacheCapabilityTests {
    typealias Feeds = Cache<String, Pages<Post, Int>, TestError>

    /// A cache of paged feeds whose first pages come from `firstPages`.
    func makeFeeds(_ firstPages: CacheBackend<String, Pages<Post, Int>>) -> (Feeds, TestClock) {
        let clock = TestClock()
        let feeds = Feeds(clock: clock, staleAfter: .seconds(30), collectAfter: .seconds(60), request: firstPages.request)
        return (feeds, clock)
    }

    @Test("a cache of paged lists: loadMore on one entry appends a page every user of it sees, and no other entry")
    func pagedEntries() async throws {
        let firstPages = CacheBackend<String, Pages<Post, Int>>()
        let morePages = CacheBackend<Int, Pages<Post, Int>>()
        let (feeds, _) = makeFeeds(firstPages)
        let home = feeds.subscribe("home"), homeAgain = feeds.subscribe("home"), other = feeds.subscribe("other")
        await firstPages.waitForCalls(2)
        firstPages.answer("home", with: page(1...3, next: 2))
        firstPages.answer("other", with: page(100...101, next: 2))
        await home.loaded()
        await other.loaded()
        #expect(home.hasMore)
        let entry = try #require(feeds["home"])
        let loadingMore = await startCaller { await entry.loadMore(morePages.request) }
        await morePages.waitForCalls(1)
        #expect(morePages.calls.first?.key == 2, "asked with the next page's cursor")
        #expect(homeAgain.isLoadingMore)
        await feeds["home"]?.loadMore(morePages.request)
        #expect(morePages.calls.count == 1, "a second load more while one runs starts nothing")
        morePages.answer(2, with: page(4...5, next: nil))
        await loadingMore.value
        #expect(homeAgain.value?.map(\.id) == [1, 2, 3, 4, 5])
        #expect(homeAgain.value?.pageCount == 2 && !homeAgain.hasMore)
        #expect(other.value?.map(\.id) == [100, 101])
        await feeds["home"]?.loadMore(morePages.request)
        #expect(morePages.calls.count == 1, "at the end, load more starts nothing")
    }

    // From an outside reading: a feed cached per key grew without bound,
    // since the cache made every entry without a window.
    @Test("a cache of paged lists with a window: every entry it makes — subscribed, prefetched, made again — keeps that many pages")
    func pagedEntriesKeepTheWindow() async throws {
        let clock = TestClock()
        let feeds = Feeds(clock: clock, staleAfter: .seconds(30), collectAfter: .seconds(60), window: 2) { _ in
            LoadRequest { () async throws(TestError) in page(1...2, next: 2) }
        }
        let home = feeds.subscribe("home")
        await feeds.prefetch("other")
        #expect(feeds["other"]?.loadable.window == 2)
        await home.loaded()
        for _ in 1...2 {
            await feeds["home"]?.loadMore { cursor in
                LoadRequest { () async throws(TestError) in page(cursor * 10...cursor * 10, next: cursor + 1) }
            }
        }
        #expect(home.value?.map(\.id) == [20, 30], "the first of three pages went")
        home.cancel()
        await clock.waitForSleepers(2) // both entries' collection timers
        clock.advance(by: .seconds(60))
        await yieldUntil { feeds.count == 0 }
        let again = feeds.subscribe("home")
        await again.loaded()
        #expect(again.value == page(1...2, next: 2))
        #expect(feeds["home"]?.loadable.window == 2)
        again.cancel()
    }

    @Test("CacheReducer of paged lists with a window: every entry it makes keeps that many pages")
    func reducerEntriesKeepTheWindow() throws {
        let clock = LoadClock(TestClock())
        let reducer = CacheReducer<String, Pages<Post, Int>, TestError>(clock: clock, staleAfter: .seconds(30), window: 2) { _ in
            LoadRequest { () async throws(TestError) in page(1...2, next: 2) }
        }
        var state = CacheState<String, Pages<Post, Int>, TestError>()
        _ = reducer.reduce(into: &state, action: .subscribe("home", at: clock.now))
        _ = reducer.reduce(into: &state, action: .prefetch("other", at: clock.now))
        #expect(state["home"]?.window == 2 && state["other"]?.window == 2)
        var entry = try #require(state["home"])
        _ = entry.apply(.started(LoadID(1)))
        _ = entry.apply(.finished(LoadID(1), page(1...1, next: 2)))
        for cursor in 2...3 {
            let request = try #require(entry.nextRequest)
            _ = entry.apply(.more(request, .started(LoadID(UInt64(cursor)))))
            _ = entry.apply(.more(request, .finished(LoadID(UInt64(cursor)), page(cursor...cursor, next: cursor + 1))))
        }
        #expect(entry.value?.map(\.id) == [2, 3])
    }

    @Test("invalidating a paged entry reloads its first page, replacing every page")
    func pagedInvalidation() async throws {
        let firstPages = CacheBackend<String, Pages<Post, Int>>()
        let morePages = CacheBackend<Int, Pages<Post, Int>>()
        let (feeds, _) = makeFeeds(firstPages)
        let home = feeds.subscribe("home")
        await firstPages.waitForCalls(1)
        firstPages.answer("home", with: page(1...2, next: 2))
        await home.loaded()
        let entry = try #require(feeds["home"])
        let loadingMore = await startCaller { await entry.loadMore(morePages.request) }
        await morePages.waitForCalls(1)
        let invalidating = await startCaller { await entry.invalidate() }
        await firstPages.waitForCalls(2)
        await loadingMore.value
        #expect(morePages.calls[0].gate.observedCancellation, "the refresh supersedes the load more in flight")
        firstPages.answer("home", with: page(10...12, next: 2))
        await invalidating.value
        #expect(home.value?.map(\.id) == [10, 11, 12] && home.value?.pageCount == 1)
        #expect(!home.isInvalidated)
    }

    @Test("an optimistic edit of one entry shows at once and is applied again over a load that started before it")
    func editOverEarlierLoad() async throws {
        let firstPages = CacheBackend<String, Pages<Post, Int>>()
        let (feeds, clock) = makeFeeds(firstPages)
        let home = feeds.subscribe("home"), other = feeds.subscribe("other")
        await firstPages.waitForCalls(2)
        firstPages.answer("home", with: page(1...3, next: nil))
        firstPages.answer("other", with: page(1...3, next: nil))
        await home.loaded()
        await other.loaded()
        // A refetch starts, reading the server before the like.
        clock.advance(by: .seconds(31))
        feeds.refetchStale()
        await firstPages.waitForCalls(4)
        let like = Gate<Bool>()
        let entry = try #require(feeds["home"])
        let liking = await startCaller { await entry.edit(SetLiked(postID: 2, liked: true), saving(like)) }
        await like.waitForArrivals()
        #expect(home.value?.filter(\.isLiked).map(\.id) == [2], "shown at once")
        #expect(other.value?.contains(where: \.isLiked) == false, "and on this entry only")
        like.open(with: true)
        let ended = await liking.value
        guard case .confirmed = ended else {
            Issue.record("the like ended \(String(describing: ended))")
            return
        }
        // The refetch answers with what it read: the post not liked yet.
        firstPages.answer("home", with: page(1...3, next: nil))
        firstPages.answer("other", with: page(1...3, next: nil))
        await yieldUntil { !home.isLoading && !other.isLoading }
        #expect(home.value?.filter(\.isLiked).map(\.id) == [2], "the confirmed like is not lost")
        #expect(home.entry.loadable.confirmedValue?.filter(\.isLiked).map(\.id) == [2])
        #expect(other.value?.contains(where: \.isLiked) == false)
    }

    @Test("a failed edit of one entry rolls back only itself")
    func failedEdit() async throws {
        let (cache, _, backend) = makeCache()
        let user = cache.subscribe(7)
        await backend.waitForCalls(1)
        backend.answer(7, with: "Lee")
        await user.loaded()
        let entry = try #require(cache[7])
        let save = Gate<Bool>()
        let renaming = await startCaller { await entry.edit(Rename(to: "Ada"), saving(save)) }
        await save.waitForArrivals()
        #expect(user.value == "Ada")
        save.open(with: false)
        let ended = await renaming.value
        guard case .failed(_, .offline) = ended else {
            Issue.record("the rename ended \(String(describing: ended))")
            return
        }
        #expect(user.value == "Lee" && user.editError == .offline && user.error == nil)
    }

    @Test("prefetch loads an entry with no user; it is collected collectAfter later")
    func prefetchIsCollected() async {
        let (cache, clock, backend) = makeCache(staleAfter: .seconds(600), collectAfter: .seconds(60))
        let prefetching = await startCaller { await cache.prefetch(7) }
        await backend.waitForCalls(1)
        #expect(cache.users(of: 7) == 0 && cache[7]?.isLoading == true)
        backend.answer(7, with: "Lee")
        await prefetching.value
        #expect(cache[7]?.value == "Lee")
        #expect(cache.users(of: 7) == 0)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(59))
        #expect(cache[7]?.value == "Lee")
        clock.advance(by: .seconds(1))
        await yieldUntil { cache.count == 0 }
        #expect(cache[7] == nil)
    }

    @Test("a prefetched entry that is subscribed before its collection is kept, and a fresh one is not loaded again")
    func prefetchThenSubscribe() async {
        let (cache, clock, backend) = makeCache(staleAfter: .seconds(600), collectAfter: .seconds(60))
        let prefetching = await startCaller { await cache.prefetch(7) }
        await backend.waitForCalls(1)
        backend.answer(7, with: "Lee")
        await prefetching.value
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(30))
        let user = cache.subscribe(7)
        await user.loaded()
        #expect(user.value == "Lee")
        #expect(backend.calls.count == 1, "fresh: no second load")
        clock.advance(by: .seconds(600))
        await yieldUntil { clock.sleeperCount == 0 }
        #expect(cache[7]?.value == "Lee", "in use: never collected")
        #expect(cache.users(of: 7) == 1)
    }

    @Test("a user who subscribes while a prefetch loads shares its load")
    func subscribeDuringPrefetch() async {
        let (cache, _, backend) = makeCache()
        let prefetching = await startCaller { await cache.prefetch(7) }
        await backend.waitForCalls(1)
        let user = cache.subscribe(7)
        backend.answer(7, with: "Lee")
        await user.loaded()
        await prefetching.value
        #expect(backend.calls.count == 1)
        #expect(user.value == "Lee")
    }

    @Test("with collectAfter zero a prefetch of a key not cached keeps and loads nothing, and evicts nothing for it")
    func prefetchWithNothingToKeep() async {
        let (cache, _, backend) = makeCache(collectAfter: .zero, capacity: 1)
        let user = cache.subscribe(8)
        await backend.waitForCalls(1)
        backend.answer(8, with: "Kim")
        await user.loaded()
        let added = tracking { _ = cache[7] }
        await cache.prefetch(7)
        #expect(backend.calls.count == 1, "not loaded")
        #expect(cache[7] == nil && cache.count == 1)
        #expect(!added.isSet, "nothing was added or removed")
        await cache.prefetch(8)
        #expect(cache.users(of: 8) == 1 && backend.calls.count == 1, "a key in use is prefetched as ever: fresh, so not loaded")
        user.cancel()
    }

    @Test("a key not equal to itself: reported, its subscription loads an entry of its own, and nothing is cached or kept")
    func keyNotEqualToItself() async {
        let cache = Cache<Double, String, TestError>(clock: TestClock(), staleAfter: .seconds(30), collectAfter: .zero) { key in
            LoadRequest { () async throws(TestError) in "\(key)" }
        }
        var issues: [String] = []
        cache.onIssue = { issues.append($0) }
        let first = cache.subscribe(.nan), second = cache.subscribe(.nan)
        await first.loaded()
        await second.loaded()
        #expect(first.value == "nan" && second.value == "nan")
        #expect(first.entry !== second.entry, "not shared: one could never be found again")
        #expect(cache.count == 0 && cache[.nan] == nil)
        await cache.prefetch(.nan)
        cache.poll(.nan, every: .seconds(1))
        #expect(cache.count == 0)
        #expect(issues.count == 4)
        #expect(
            issues.first
                == "Cache key nan is not equal to itself (a NaN?), so the cache could never find its entry again: the subscription gets an entry of its own, loaded for it alone and not cached. Use keys that equal themselves."
        )
        first.cancel()
        second.cancel()
        #expect(!first.isActive && !second.isActive)
    }

    @Test("prefetching a fresh entry loads nothing")
    func prefetchFresh() async {
        let (cache, _, backend, subscription) = await loadedCache()
        await cache.prefetch(7)
        #expect(backend.calls.count == 1)
        withExtendedLifetime(subscription) {}
    }

    @Test("cancelling one entry's load returns it to its settled state, never a failure, and leaves other entries loading")
    func cancelOneEntry() async {
        let (cache, _, backend) = makeCache()
        let seven = cache.subscribe(7), eight = cache.subscribe(8)
        await backend.waitForCalls(2)
        await backend.calls[0].gate.waitForArrivals()
        cache[7]?.cancel()
        #expect(cache[7]?.state == .notLoaded)
        #expect(cache[7]?.error == nil)
        await seven.loaded()
        #expect(backend.calls[0].gate.observedCancellation)
        #expect(cache[8]?.isLoading == true)
        #expect(!backend.calls[1].gate.observedCancellation)
        backend.answer(8, with: "Kim")
        await eight.loaded()
        #expect(eight.value == "Kim")
        #expect(cache.users(of: 7) == 1, "cancelling a load is not leaving the entry")
    }

    @Test("cancelling a reload keeps the value shown")
    func cancelReload() async {
        let (cache, clock, backend, subscription) = await loadedCache()
        clock.advance(by: .seconds(31))
        cache.refetchStale()
        await backend.waitForCalls(2)
        cache[7]?.cancel()
        #expect(cache[7]?.state == .success(value: "v1"))
        withExtendedLifetime(subscription) {}
    }

    @Test("awaiting an entry's invalidate() returns once the reload it starts has settled")
    func awaitInvalidation() async {
        let (cache, _, backend, subscription) = await loadedCache()
        let invalidating = await startCaller { await cache[7]?.invalidate() }
        #expect(cache[7]?.isInvalidated == true)
        await backend.waitForCalls(2)
        #expect(cache[7]?.state == .refreshing(value: "v1"))
        backend.answer(7, with: "v2")
        await invalidating.value
        #expect(cache[7]?.state == .success(value: "v2"))
        #expect(cache[7]?.isInvalidated == false)
        #expect(!cache.isStale(7))
        withExtendedLifetime(subscription) {}
    }
}

/// Renames a user, shown at once.
struct Rename: Edit {
    var to: String
    func apply(to name: inout String) -> Bool {
        name = to
        return true
    }
}
