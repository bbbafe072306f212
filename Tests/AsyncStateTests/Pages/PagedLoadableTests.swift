import AsyncState
import AsyncStateControls
import AsyncStateTesting
import Testing

typealias Feed = PagedLoadable<Int, Int, TestError>
typealias FeedAction = PageAction<Int, Int, TestError>

/// A page of `count` elements starting at `first`, followed by `next`.
func page(_ first: Int, count: Int = 2, next: Int?) -> Page<Int, Int> {
    Page(Array(first..<first + count), next: next)
}

/// A feed showing the first page `[0, 1]` (generation 1, list load #1), with more at cursor 1.
func loadedFeed(window: Int? = nil) -> Feed {
    var feed = Feed(window: window)
    _ = feed.apply(.list(.started(id(1))))
    _ = feed.apply(.list(.finished(id(1), page(0, next: 1))))
    return feed
}

@Suite("PagedLoadable: the rules")
struct PagedLoadableTests {
    @Test("the first page replaces nothing and starts generation 1; a page appends in order")
    func firstPageAndMore() throws {
        var feed = loadedFeed()
        #expect(feed.elements == [0, 1])
        #expect(feed.generation == ListGeneration(1))
        #expect(feed.hasMore && feed.nextCursor == 1)
        let request = try #require(feed.nextRequest)
        #expect(request == PageRequest(generation: ListGeneration(1), cursor: 1))
        #expect(feed.apply(.more(request, .started(id(2)))) == .applied)
        #expect(feed.isLoadingMore && feed.loadingMore == request && feed.loadingMoreID == id(2))
        #expect(feed.apply(.more(request, .finished(id(2), page(2, next: 2)))) == .applied)
        #expect(feed.elements == [0, 1, 2, 3])
        #expect(feed.pageCount == 2 && !feed.isLoadingMore && feed.nextCursor == 2)
    }

    @Test("a page from an older list generation is dropped and changes nothing")
    func olderGeneration() {
        var feed = loadedFeed()
        let old = PageRequest(generation: ListGeneration(1), cursor: 1)
        _ = feed.apply(.more(old, .started(id(2))))
        // A refresh replaces the list: generation 2.
        _ = feed.apply(.list(.started(id(3))))
        _ = feed.apply(.list(.finished(id(3), page(10, next: 1))))
        let before = feed
        #expect(feed.apply(.more(old, .finished(id(2), page(2, next: 2)))) == .dropped)
        #expect(feed == before)
        #expect(feed.elements == [10, 11])
        // Even a start tagged with the old generation is dropped.
        #expect(feed.apply(.more(old, .started(id(4)))) == .dropped)
        #expect(feed == before)
    }

    @Test("a stale page is reported to the store as dropped")
    @MainActor
    func reportedAsDropped() async {
        let store = Store(initialState: loadedFeed(), reducer: FeedReducer())
        var drops: [FeedAction] = []
        store.observeTransitions { if $0.isDropped { drops.append($0.action) } }
        let stale = FeedAction.more(PageRequest(generation: ListGeneration(0), cursor: 1), .finished(id(9), page(2, next: nil)))
        store.send(stale)
        #expect(drops == [stale])
    }

    @Test("a second load more for the same cursor while one is in flight is ignored")
    func duplicateLoadMore() throws {
        var feed = loadedFeed()
        let request = try #require(feed.nextRequest)
        _ = feed.apply(.more(request, .started(id(2))))
        #expect(feed.nextRequest == nil, "loadMore starts nothing")
        let before = feed
        #expect(feed.apply(.more(request, .started(id(3)))) == .dropped)
        #expect(feed == before)
        #expect(feed.apply(.more(request, .finished(id(3), page(2, next: nil)))) == .dropped)
        #expect(feed.apply(.more(request, .finished(id(2), page(2, next: 2)))) == .applied)
        #expect(feed.elements == [0, 1, 2, 3], "the page is appended once")
    }

    @Test("a refresh supersedes a load more in flight: its page is dropped")
    func refreshSupersedes() throws {
        var feed = loadedFeed()
        let request = try #require(feed.nextRequest)
        _ = feed.apply(.more(request, .started(id(2))))
        _ = feed.apply(.list(.started(id(3))))
        #expect(!feed.isLoadingMore && feed.isLoadingList)
        #expect(feed.elements == [0, 1], "the pages stay shown while refreshing")
        #expect(feed.apply(.more(request, .finished(id(2), page(2, next: 2)))) == .dropped)
        #expect(feed.apply(.more(request, .cancelled(id(2)))) == .dropped)
        #expect(feed.apply(.list(.finished(id(3), page(20, count: 3, next: 5)))) == .applied)
        #expect(feed.elements == [20, 21, 22] && feed.pageCount == 1 && feed.generation == ListGeneration(2))
    }

    @Test("in a store, a refresh cancels the work of the load more in flight")
    @MainActor
    func refreshCancelsWork() async {
        let first = Gate<Page<Int, Int>>(), more = Gate<Page<Int, Int>>(), refresh = Gate<Page<Int, Int>>()
        let store = Store(initialState: ScrollingFeed.State(), reducer: ScrollingFeed(first: first, more: more, refresh: refresh))
        let appeared = store.send(.refresh)
        first.open(with: page(0, next: 1))
        await appeared.finish()
        let loadingMore = store.send(.lastRowAppeared)
        await more.waitForArrivals()
        #expect(store.send(.lastRowAppeared).isEmpty, "a second load more for the same cursor starts nothing")
        let refreshing = store.send(.refresh)
        await loadingMore.finish()
        #expect(more.observedCancellation)
        refresh.open(with: page(40, next: nil))
        await refreshing.finish()
        #expect(store.feed.elements == [40, 41] && !store.feed.hasMore)
    }

    @Test("a load more cannot start while the list is loading: its page would belong to the list being replaced")
    func noMoreWhileRefreshing() {
        var feed = loadedFeed()
        _ = feed.apply(.list(.started(id(2))))
        #expect(feed.nextRequest == nil)
        #expect(feed.apply(.more(PageRequest(generation: ListGeneration(1), cursor: 1), .started(id(3)))) == .dropped)
    }

    @Test("a failed load more keeps every page and records the page error apart from the list error")
    func failedLoadMore() throws {
        var feed = loadedFeed()
        let request = try #require(feed.nextRequest)
        _ = feed.apply(.more(request, .started(id(2))))
        #expect(feed.apply(.more(request, .failed(id(2), .offline))) == .applied)
        #expect(feed.elements == [0, 1])
        #expect(feed.pageError == .offline && feed.listError == nil)
        #expect(feed.nextRequest == request, "a retry asks for the same page")
        _ = feed.apply(.more(request, .started(id(3))))
        #expect(feed.pageError == .offline, "the retry row keeps its error until a page loads")
        _ = feed.apply(.more(request, .finished(id(3), page(2, next: nil))))
        #expect(feed.pageError == nil && feed.elements == [0, 1, 2, 3])
    }

    @Test("a failed refresh keeps every page and records the list error apart from the page error")
    func failedRefresh() {
        var feed = loadedFeed()
        _ = feed.apply(.list(.started(id(2))))
        _ = feed.apply(.list(.failed(id(2), .timedOut)))
        #expect(feed.elements == [0, 1] && feed.listError == .timedOut && feed.pageError == nil)
        #expect(feed.generation == ListGeneration(1) && feed.nextCursor == 1)
    }

    @Test("hasMore is false after a page without a next cursor; load more then starts nothing")
    func endOfList() {
        var feed = Feed()
        #expect(!feed.hasMore && feed.nextRequest == nil && !feed.hasLoaded)
        _ = feed.apply(.list(.started(id(1))))
        _ = feed.apply(.list(.finished(id(1), page(0, next: nil))))
        #expect(!feed.hasMore && feed.nextRequest == nil && feed.hasLoaded)
        #expect(feed.description == "g1: 2 elements in 1 pages, end")
    }

    @Test("cancellation returns to the pages shown before", arguments: ["more", "refresh", "cancelMore()", "cancelList()"])
    func cancellation(how: String) throws {
        var feed = loadedFeed()
        let request = try #require(feed.nextRequest)
        _ = feed.apply(.more(request, .started(id(2))))
        _ = feed.apply(.more(request, .finished(id(2), page(2, next: 2))))
        let shown = feed
        switch how {
        case "more":
            let next = try #require(feed.nextRequest)
            _ = feed.apply(.more(next, .started(id(3))))
            #expect(feed.apply(.more(next, .cancelled(id(3)))) == .applied)
        case "refresh":
            _ = feed.apply(.list(.started(id(3))))
            #expect(feed.apply(.list(.cancelled(id(3)))) == .applied)
        case "cancelMore()":
            let next = try #require(feed.nextRequest)
            _ = feed.apply(.more(next, .started(id(3))))
            #expect(feed.cancelMore() == id(3))
            #expect(feed.apply(.more(next, .cancelled(id(3)))) == .dropped, "the late report is stale")
        default:
            _ = feed.apply(.list(.started(id(3))))
            #expect(feed.cancelList() == id(3))
        }
        #expect(feed.elements == shown.elements && feed.nextCursor == shown.nextCursor && feed.generation == shown.generation)
        #expect(!feed.isLoadingMore && !feed.isLoadingList && feed.listError == nil && feed.pageError == nil)
    }

    @Test("a window keeps at most N pages, letting the oldest go")
    func window() throws {
        var feed = loadedFeed(window: 2)
        for (k, loadID) in zip(1...3, 2...4) {
            let request = try #require(feed.nextRequest)
            _ = feed.apply(.more(request, .started(id(UInt64(loadID)))))
            _ = feed.apply(.more(request, .finished(id(UInt64(loadID)), page(k * 2, next: k + 1))))
        }
        #expect(feed.pageCount == 2)
        #expect(feed.elements == [4, 5, 6, 7])
        #expect(feed.nextCursor == 4)
    }

    @Test("a window of zero (or less) keeps one page: the list shows the page it loaded last", arguments: [0, -3])
    func windowOfZero(window: Int) throws {
        var feed = loadedFeed(window: window)
        #expect(feed.window == 1)
        let request = try #require(feed.nextRequest)
        _ = feed.apply(.more(request, .started(id(2))))
        _ = feed.apply(.more(request, .finished(id(2), page(2, next: 2))))
        #expect(feed.elements == [2, 3] && feed.pageCount == 1)
    }

    @Test("a load more for an unknown cursor is dropped", arguments: [7, 0])
    func unknownCursor(cursor: Int) {
        var feed = loadedFeed()
        let before = feed
        let request = PageRequest(generation: feed.generation, cursor: cursor)
        #expect(feed.apply(.more(request, .started(id(2)))) == .dropped)
        #expect(feed.apply(.more(request, .finished(id(2), page(9, next: nil)))) == .dropped)
        #expect(feed == before)
    }

    @Test("a report for the load more in flight with another cursor is dropped")
    func mismatchedRequest() throws {
        var feed = loadedFeed()
        let request = try #require(feed.nextRequest)
        _ = feed.apply(.more(request, .started(id(2))))
        let other = PageRequest(generation: request.generation, cursor: 5)
        #expect(feed.apply(.more(other, .finished(id(2), page(9, next: nil)))) == .dropped)
        #expect(feed.isLoadingMore)
    }

    @Test("a refresh while a refresh is in flight: the last started wins")
    func refreshTwice() {
        var feed = loadedFeed()
        _ = feed.apply(.list(.started(id(2))))
        _ = feed.apply(.list(.started(id(3))))
        #expect(feed.apply(.list(.finished(id(2), page(50, next: nil)))) == .dropped)
        #expect(feed.apply(.list(.finished(id(3), page(30, next: nil)))) == .applied)
        #expect(feed.elements == [30, 31] && feed.generation == ListGeneration(2))
    }
}

/// The reducer of one feed, for store tests.
struct FeedReducer: Reducer {
    func reduce(into state: inout Feed, action: FeedAction) -> Effect<FeedAction> {
        state.reduce(action)
    }
}

/// A feed whose first page, load more and refresh wait on gates.
struct ScrollingFeed: Reducer {
    struct State: Equatable { var feed = Feed() }
    enum Action { case refresh, lastRowAppeared, feed(FeedAction) }

    let first: Gate<Page<Int, Int>>, more: Gate<Page<Int, Int>>, refresh: Gate<Page<Int, Int>>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .refresh:
            let gate = state.feed.hasLoaded ? refresh : first
            return state.feed.refresh(Action.feed) { () async throws(TestError) in
                do { return try await gate.wait() } catch { throw .offline }
            }
        case .lastRowAppeared:
            return state.feed.loadMore(Action.feed) { [more] _ async throws(TestError) in
                do { return try await more.wait() } catch { throw .offline }
            }
        case .feed(let action):
            return state.feed.reduce(action)
        }
    }
}
