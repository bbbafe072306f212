import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

/// A paged list of numbers, with cursors that are numbers too.
typealias NumberFeed = Loadable<Pages<Int, Int>, TestError>

/// A page of `count` numbers starting at `first`, followed by the page at `next`.
func numbers(_ first: Int, count: Int = 2, next: Int?) -> Pages<Int, Int> {
    Pages(Array(first..<first + count), next: next)
}

/// A feed showing the first page `[0, 1]` (list load #1), with more at cursor 1.
func loadedNumberFeed(window: Int? = nil) -> NumberFeed {
    var feed = NumberFeed(window: window)
    _ = feed.apply(.started(id(1)))
    _ = feed.apply(.finished(id(1), numbers(0, next: 1)))
    return feed
}

@Suite("Pages: the rules of a paged Loadable")
struct LoadablePagesTests {
    @Test("the first page replaces nothing; a page appends in order")
    func firstPageAndMore() throws {
        var feed = loadedNumberFeed()
        #expect(feed.value?.elements == [0, 1])
        #expect(feed.hasMore && feed.value?.next == 1)
        let request = try #require(feed.nextRequest)
        #expect(request == PageRequest(page: 2, list: id(1)))
        #expect(feed.apply(.more(request, .started(id(2)))) == .applied)
        #expect(feed.isLoadingMore && feed.loadingMore == request && feed.moreID == id(2))
        #expect(feed.moreActivity == LoadActivity(reason: .nextPage))
        #expect(feed.apply(.more(request, .finished(id(2), numbers(2, next: 2)))) == .applied)
        var shown = numbers(0, next: 1)
        shown.append(numbers(2, next: 2))
        #expect(feed == Loadable(expecting: .success(value: shown), newestID: id(1), newestMoreID: id(2)))
        #expect(feed.value?.elements == [0, 1, 2, 3])
        #expect(feed.value?.pageCount == 2 && !feed.isLoadingMore && feed.value?.next == 2)
        #expect(feed.nextRequest == PageRequest(page: 3, list: id(1)))
    }

    // The more lane matches its inner actions in nested patterns; a stamped
    // one (`.at`) must end the "load more" as the plain one does.
    @Test(
        "a stamped page, failure or cancel ends a load more as the plain one does",
        arguments: [
            (LoadAction<Pages<Int, Int>, TestError>.finished(id(2), numbers(2, next: 2)), [0, 1, 2, 3], nil),
            (.failed(id(2), .offline), [0, 1], TestError.offline),
            (.cancelled(id(2)), [0, 1], nil),
        ] as [(LoadAction<Pages<Int, Int>, TestError>, [Int], TestError?)])
    func stampedMore(ending: LoadAction<Pages<Int, Int>, TestError>, elements: [Int], moreError: TestError?) throws {
        var plain = loadedNumberFeed()
        let request = try #require(plain.nextRequest)
        _ = plain.apply(.more(request, .started(id(2))))
        var stamped = plain
        #expect(plain.apply(.more(request, ending)) == .applied)
        #expect(stamped.apply(.more(request, .at(LoadClock.Instant(offset: .seconds(3)), ending))) == .applied)
        #expect(stamped == plain)
        #expect(stamped.value?.elements == elements && stamped.moreError == moreError && !stamped.isLoadingMore)
    }

    @Test("a page of a list replaced since it was asked for is dropped and changes nothing")
    func olderList() {
        var feed = loadedNumberFeed()
        let old = PageRequest(page: 2, list: id(1))
        _ = feed.apply(.more(old, .started(id(2))))
        // A refresh replaces the list.
        _ = feed.apply(.started(id(3)))
        _ = feed.apply(.finished(id(3), numbers(10, next: 1)))
        let before = feed
        #expect(feed.apply(.more(old, .finished(id(2), numbers(2, next: 2)))) == .dropped)
        #expect(feed == before)
        #expect(feed.value?.elements == [10, 11])
        // Even a start for the old list is dropped.
        #expect(feed.apply(.more(old, .started(id(4)))) == .dropped)
        #expect(feed == before)
        #expect(feed.nextRequest == PageRequest(page: 2, list: id(3)))
    }

    @Test(
        "a page asked of pages that setValue then replaced with others ends the load more without being appended",
        arguments: [
            (
                "another number of pages",
                {
                    var pages = numbers(10, next: 5); pages.append(numbers(12, next: 6)); return pages
                }()
            ),
            ("no page after them", numbers(10, next: nil)),
        ] as [(String, Pages<Int, Int>)])
    func setValueDuringMore(_ replacement: String, replaced: Pages<Int, Int>) throws {
        var feed = loadedNumberFeed()
        let request = try #require(feed.nextRequest)
        _ = feed.apply(.more(request, .started(id(2))))
        feed.setValue(replaced)
        #expect(feed.apply(.more(request, .finished(id(2), numbers(2, next: 2)))) == .applied)
        #expect(feed.value == replaced, "the old list's page 2 is not appended to \(replacement)")
        #expect(!feed.isLoadingMore && feed.moreError == nil)
    }

    @Test("a page asked of pages that setValue changed in place is still appended: the list is the same")
    func setValueInPlaceDuringMore() throws {
        var feed = loadedNumberFeed()
        let request = try #require(feed.nextRequest)
        _ = feed.apply(.more(request, .started(id(2))))
        var edited = try #require(feed.value)
        edited[0] = -1
        feed.setValue(edited)
        #expect(feed.apply(.more(request, .finished(id(2), numbers(2, next: 2)))) == .applied)
        #expect(feed.value?.elements == [-1, 1, 2, 3])
    }

    @Test("a stale page is reported to the store as dropped")
    @MainActor
    func reportedAsDropped() async {
        let store = Store(initialState: loadedNumberFeed(), reducer: LoadReducer<Pages<Int, Int>, TestError>())
        var drops: [LoadAction<Pages<Int, Int>, TestError>] = []
        store.observeTransitions { if $0.isDropped { drops.append($0.action) } }
        let stale = LoadAction<Pages<Int, Int>, TestError>.more(PageRequest(page: 2, list: nil), .finished(id(9), numbers(2, next: nil)))
        store.send(stale)
        #expect(drops == [stale])
    }

    @Test("a second load more for the same page while one is in flight supersedes it, as a newer load does in the value lane")
    func duplicateLoadMore() throws {
        var feed = loadedNumberFeed()
        let request = try #require(feed.nextRequest)
        _ = feed.apply(.more(request, .started(id(2))))
        #expect(feed.nextRequest == nil, "loadMore under .firstWins starts nothing")
        // `loadMore(overlap: .latestWins)` starts the same page again: the newer start takes over.
        #expect(feed.apply(.more(request, .started(id(3)))) == .applied)
        #expect(feed.moreID == id(3))
        #expect(feed.apply(.more(request, .finished(id(2), numbers(2, next: 2)))) == .dropped, "the superseded page never shows")
        #expect(feed.apply(.more(request, .started(id(3)))) == .dropped, "an ID is never started twice")
        #expect(feed.apply(.more(request, .finished(id(3), numbers(2, next: nil)))) == .applied)
        #expect(feed.value?.elements == [0, 1, 2, 3], "the page is appended once")
    }

    @Test("a refresh supersedes a load more in flight: its page is dropped")
    func refreshSupersedes() throws {
        var feed = loadedNumberFeed()
        let request = try #require(feed.nextRequest)
        _ = feed.apply(.more(request, .started(id(2))))
        _ = feed.apply(.started(id(3)))
        #expect(!feed.isLoadingMore && feed.isLoading)
        #expect(feed.value?.elements == [0, 1], "the pages stay shown while refreshing")
        #expect(feed.apply(.more(request, .finished(id(2), numbers(2, next: 2)))) == .dropped)
        #expect(feed.apply(.more(request, .cancelled(id(2)))) == .dropped)
        #expect(feed.apply(.finished(id(3), numbers(20, count: 3, next: 5))) == .applied)
        #expect(feed.value?.elements == [20, 21, 22] && feed.value?.pageCount == 1)
        #expect(feed == Loadable(expecting: .success(value: numbers(20, count: 3, next: 5)), newestID: id(3), newestMoreID: id(2)))
    }

    @Test("in a store, a refresh cancels the work of the load more in flight")
    @MainActor
    func refreshCancelsWork() async {
        let first = Gate<Pages<Int, Int>>(), more = Gate<Pages<Int, Int>>(), refresh = Gate<Pages<Int, Int>>()
        let store = Store(initialState: ScrollingNumbers.State(), reducer: ScrollingNumbers(first: first, more: more, refresh: refresh))
        let appeared = store.send(.refresh)
        first.open(with: numbers(0, next: 1))
        await appeared.finish()
        let loadingMore = store.send(.lastRowAppeared)
        await more.waitForArrivals()
        #expect(store.feed.moreID == LoadID(2))
        #expect(store.send(.lastRowAppeared).isEmpty, "a second load more for the same page starts nothing")
        let refreshing = store.send(.refresh)
        await loadingMore.finish()
        #expect(more.observedCancellation)
        refresh.open(with: numbers(40, next: nil))
        await refreshing.finish()
        #expect(store.feed.value?.elements == [40, 41] && !store.feed.hasMore)
        #expect(store.send(.lastRowAppeared).isEmpty, "at the end, load more starts nothing")
    }

    // Decided after an outside reading, which read `firstWins` as measured
    // against the whole list: a pull to refresh is a load of the value lane.
    @Test(
        "a refresh under every policy starts while only a load more is in flight, and supersedes it",
        arguments: [
            OverlapPolicy.latestWins, .latestWins(cancellingEarlier: false), .firstWins, .join, .queue,
        ])
    @MainActor
    func refreshUnderEveryPolicySupersedesMore(policy: OverlapPolicy) async {
        let first = Gate<Pages<Int, Int>>(), more = Gate<Pages<Int, Int>>(), refresh = Gate<Pages<Int, Int>>()
        let store = Store(
            initialState: ScrollingNumbers.State(),
            reducer: ScrollingNumbers(first: first, more: more, refresh: refresh, refreshOverlap: policy))
        let appeared = store.send(.refresh)
        first.open(with: numbers(0, next: 1))
        await appeared.finish()
        let loadingMore = store.send(.lastRowAppeared)
        await more.waitForArrivals()
        let refreshing = store.send(.refresh)
        #expect(store.feed.isLoading && !store.feed.isLoadingMore)
        more.open(with: numbers(2, next: 2)) // what a page's work that ran on brings is dropped
        await loadingMore.finish()
        #expect(store.feed.value == numbers(0, next: 1) && store.feed.isLoading)
        refresh.open(with: numbers(40, next: 41))
        await refreshing.finish()
        #expect(store.feed.value == numbers(40, next: 41))
    }

    @Test("the cursor a load more asks with is the next page's")
    @MainActor
    func cursorOfNextPage() async {
        var cursors: [Int] = []
        let store = Store(
            initialState: loadedNumberFeed(),
            reducer: Reduce<NumberFeed, LoadAction<Pages<Int, Int>, TestError>?> { feed, action in
                guard let action else {
                    return feed.loadMore({ $0 }) { cursor in
                        cursors.append(cursor)
                        return LoadRequest { () async throws(TestError) in numbers(cursor * 2, next: cursor + 1) }
                    }
                }
                return feed.reduce(action)
            })
        await store.send(nil).finish()
        await store.send(nil).finish()
        #expect(cursors == [1, 2])
        #expect(store.state.value?.elements == [0, 1, 2, 3, 4, 5])
    }

    @Test("a load more cannot start while the list is loading: its page would belong to the list being replaced")
    func noMoreWhileRefreshing() {
        var feed = loadedNumberFeed()
        _ = feed.apply(.started(id(2)))
        #expect(feed.nextRequest == nil)
        #expect(feed.apply(.more(PageRequest(page: 2, list: id(1)), .started(id(3)))) == .dropped)
        #expect(feed.apply(.more(PageRequest(page: 2, list: id(2)), .started(id(3)))) == .dropped)
    }

    @Test("a failed load more keeps every page and records its error apart from the list's")
    func failedLoadMore() throws {
        var feed = loadedNumberFeed()
        let request = try #require(feed.nextRequest)
        _ = feed.apply(.more(request, .started(id(2))))
        #expect(feed.apply(.more(request, .failed(id(2), .offline))) == .applied)
        #expect(feed.value?.elements == [0, 1])
        #expect(feed.moreError == .offline && feed.error == nil)
        #expect(feed.nextRequest == request, "a retry asks for the same page")
        _ = feed.apply(.more(request, .started(id(3))))
        #expect(feed.moreError == .offline, "the retry row keeps its error until a page loads")
        #expect(feed.moreActivity == LoadActivity(reason: .retryAfterFailure, lastFailure: .offline))
        _ = feed.apply(.more(request, .finished(id(3), numbers(2, next: nil))))
        #expect(feed.moreError == nil && feed.value?.elements == [0, 1, 2, 3])
    }

    @Test("a refresh that replaces the list clears the error of a load more of the old list")
    func refreshClearsMoreError() throws {
        var feed = loadedNumberFeed()
        let request = try #require(feed.nextRequest)
        _ = feed.apply(.more(request, .started(id(2))))
        _ = feed.apply(.more(request, .failed(id(2), .offline)))
        #expect(feed.moreError == .offline)
        _ = feed.apply(.started(id(3)))
        _ = feed.apply(.finished(id(3), numbers(10, next: 1)))
        // `moreError` is documented as the failure "until a page loads or the list is replaced".
        #expect(feed.moreError == nil)
        #expect(feed == Loadable(expecting: .success(value: numbers(10, next: 1)), newestID: id(3), newestMoreID: id(2)))
    }

    @Test("a failed refresh keeps every page and records the list's error apart from the more lane's")
    func failedRefresh() {
        var feed = loadedNumberFeed()
        _ = feed.apply(.started(id(2)))
        _ = feed.apply(.failed(id(2), .timedOut))
        #expect(feed == Loadable(expecting: .error(error: .timedOut), value: numbers(0, next: 1), newestID: id(2)))
        #expect(feed.moreError == nil)
        #expect(feed.value?.next == 1)
        // The next page is asked of the newest list load.
        #expect(feed.nextRequest == PageRequest(page: 2, list: id(2)))
    }

    @Test("hasMore is false after a page without a next cursor; load more then starts nothing")
    func endOfList() {
        var feed = NumberFeed()
        #expect(!feed.hasMore && feed.nextRequest == nil && feed.value == nil)
        _ = feed.apply(.started(id(1)))
        _ = feed.apply(.finished(id(1), numbers(0, next: nil)))
        #expect(!feed.hasMore && feed.nextRequest == nil && feed.value != nil)
        #expect(feed.description == "success(value: 2 elements in 1 page, end)")
    }

    @Test("cancellation returns to the pages shown before", arguments: ["more", "refresh", "cancelMore()", "cancel()", "cancel(load:)"])
    func cancellation(how: String) throws {
        var feed = loadedNumberFeed()
        let request = try #require(feed.nextRequest)
        _ = feed.apply(.more(request, .started(id(2))))
        _ = feed.apply(.more(request, .finished(id(2), numbers(2, next: 2))))
        let shown = feed.value
        let next = try #require(feed.nextRequest)
        switch how {
        case "more":
            _ = feed.apply(.more(next, .started(id(3))))
            #expect(feed.apply(.more(next, .cancelled(id(3)))) == .applied)
        case "refresh":
            _ = feed.apply(.started(id(3)))
            #expect(feed.apply(.cancelled(id(3))) == .applied)
        case "cancelMore()":
            _ = feed.apply(.more(next, .started(id(3))))
            #expect(feed.cancelMore() == id(3))
            #expect(feed.apply(.more(next, .cancelled(id(3)))) == .dropped, "the late report is stale")
        case "cancel(load:)":
            _ = feed.apply(.more(next, .started(id(3))))
            #expect(feed.cancel(load: id(3)) == id(3))
        default:
            _ = feed.apply(.started(id(3)))
            #expect(feed.cancel() == id(3))
        }
        #expect(feed.value == shown)
        #expect(!feed.isLoadingMore && !feed.isLoading && feed.error == nil && feed.moreError == nil)
        #expect(feed.state == .success(value: shown!))
    }

    @Test("a window keeps at most N pages, letting the oldest go")
    func window() throws {
        var feed = loadedNumberFeed(window: 2)
        for (k, loadID) in zip(1...3, 2...4) {
            let request = try #require(feed.nextRequest)
            _ = feed.apply(.more(request, .started(id(UInt64(loadID)))))
            _ = feed.apply(.more(request, .finished(id(UInt64(loadID)), numbers(k * 2, next: k + 1))))
        }
        #expect(feed.value?.pageCount == 2)
        #expect(feed.value?.elements == [4, 5, 6, 7])
        #expect(feed.value?.next == 4)
        // Pages 1 and 2 went: the next page is still counted from the first.
        #expect(feed.nextRequest == PageRequest(page: 5, list: id(1)))
    }

    // From an outside reading: the window held for "load more" only; a
    // refetch of every page shown, or a value set, kept every page.
    @Test("a window holds in every lane: a load's result, what it streams and a value set keep the newest N pages too")
    func windowInEveryLane() {
        var three = numbers(0, next: 2)
        three.append(numbers(2, next: 3))
        three.append(numbers(4, next: 4))
        var loaded = Loadable<Pages<Int, Int>, TestError>(window: 2)
        _ = loaded.apply(.started(id(1)))
        _ = loaded.apply(.finished(id(1), three))
        var set = Loadable<Pages<Int, Int>, TestError>(window: 2)
        set.setValue(three)
        var streaming = Loadable<Pages<Int, Int>, TestError>(window: 2)
        _ = streaming.apply(.started(id(1)))
        _ = streaming.apply(.progress(id(1), three))
        for feed in [loaded, set, streaming] {
            #expect(feed.value?.pageCount == 2)
            #expect(feed.value?.elements == [2, 3, 4, 5])
        }
        #expect(loaded.nextRequest?.page == 4, "the pages that went are still counted")
        #expect(set.nextRequest?.page == 4)
    }

    // From a second reading: an expected loadable kept a window below one
    // as given, and its first value set trapped (or kept no page at all).
    @Test("a window below one page keeps one in an expected loadable too", arguments: [0, -1, Int.min])
    func expectedWindowBelowOne(window: Int) {
        var expected = Loadable<Pages<Int, Int>, TestError>(expecting: .notLoaded, window: window)
        var real = Loadable<Pages<Int, Int>, TestError>(window: window)
        #expect(expected == real)
        var three = numbers(0, next: 2)
        three.append(numbers(2, next: 3))
        three.append(numbers(4, next: 4))
        expected.setValue(three)
        real.setValue(three)
        #expect(expected.value?.elements == [4, 5])
        #expect(expected == real)
    }

    @Test("a window of zero (or less) keeps one page: the list shows the page it loaded last", arguments: [0, -3])
    func windowOfZero(window: Int) throws {
        var feed = loadedNumberFeed(window: window)
        #expect(feed.window == 1)
        let request = try #require(feed.nextRequest)
        _ = feed.apply(.more(request, .started(id(2))))
        _ = feed.apply(.more(request, .finished(id(2), numbers(2, next: 2))))
        #expect(feed.value?.elements == [2, 3] && feed.value?.pageCount == 1)
    }

    @Test("a load more for a page that is not the next one is dropped", arguments: [7, 0, 1])
    func unknownPage(page: Int) {
        var feed = loadedNumberFeed()
        let before = feed
        let request = PageRequest(page: page, list: id(1))
        #expect(feed.apply(.more(request, .started(id(2)))) == .dropped)
        #expect(feed.apply(.more(request, .finished(id(2), numbers(9, next: nil)))) == .dropped)
        #expect(feed == before)
    }

    @Test("a report for the load more in flight with another request is dropped")
    func mismatchedRequest() throws {
        var feed = loadedNumberFeed()
        let request = try #require(feed.nextRequest)
        _ = feed.apply(.more(request, .started(id(2))))
        let other = PageRequest(page: 5, list: request.list)
        let before = feed
        #expect(feed.apply(.more(other, .finished(id(2), numbers(9, next: nil)))) == .dropped)
        #expect(feed == before)
        #expect(feed.isLoadingMore)
    }

    @Test("a partial page is never shown: progress in the more lane is dropped")
    func noProgressInMoreLane() throws {
        var feed = loadedNumberFeed()
        let request = try #require(feed.nextRequest)
        _ = feed.apply(.more(request, .started(id(2))))
        let before = feed
        #expect(feed.apply(.more(request, .progress(id(2), numbers(2, next: nil)))) == .dropped)
        #expect(feed == before)
    }

    @Test("a retried load more says so in its activity, and keeps the pages")
    func retriedLoadMore() throws {
        var feed = loadedNumberFeed()
        let request = try #require(feed.nextRequest)
        _ = feed.apply(.more(request, .started(id(2))))
        #expect(feed.apply(.more(request, .planned(id(2), attempts: 3))) == .applied)
        #expect(feed.moreActivity == LoadActivity(reason: .nextPage, attempts: 3))
        let retry = LoadRetry<TestError>(attempt: 1, of: 3, failure: .timedOut, wait: .seconds(2))
        #expect(feed.apply(.more(request, .retrying(id(2), retry))) == .applied)
        #expect(
            feed.moreActivity == LoadActivity(reason: .nextPage, attempt: 2, attempts: 3, wait: .seconds(2), lastFailure: .timedOut))
        #expect(feed.value?.elements == [0, 1] && feed.activity == nil)
    }

    @Test("a refresh while a refresh is in flight: the last started wins")
    func refreshTwice() {
        var feed = loadedNumberFeed()
        _ = feed.apply(.started(id(2)))
        _ = feed.apply(.started(id(3)))
        #expect(feed.apply(.finished(id(2), numbers(50, next: nil))) == .dropped)
        #expect(feed.apply(.finished(id(3), numbers(30, next: nil))) == .applied)
        #expect(feed.value?.elements == [30, 31])
        #expect(feed == Loadable(expecting: .success(value: numbers(30, next: nil)), newestID: id(3)))
    }

    @Test("a queued load that takes its turn supersedes a load more in flight, as any refresh does")
    func queuedTurnSupersedesMore() throws {
        var feed = loadedNumberFeed()
        _ = feed.apply(.started(id(2)))
        _ = feed.apply(.queued(id(3))) // waits behind the refresh
        _ = feed.apply(.finished(id(2), numbers(0, next: 1)))
        let request = try #require(feed.nextRequest)
        _ = feed.apply(.more(request, .started(id(4))))
        #expect(feed.apply(.started(id(3))) == .applied)
        #expect(!feed.isLoadingMore, "a load more never runs while the list loads")
        #expect(feed.apply(.more(request, .finished(id(4), numbers(2, next: nil)))) == .dropped)
        #expect(feed.value?.elements == [0, 1])
    }

    @Test("reset keeps the window: it is how the list is kept, not what it holds")
    func resetKeepsWindow() {
        var feed = loadedNumberFeed(window: 2)
        feed.reset()
        #expect(feed.window == 2)
        #expect(feed.value == nil && !feed.isLoading)
    }

    @Test("the more lane of a value that is not Pages drops everything")
    func notPages() {
        var plain = Loadable<Int, TestError>(value: 1)
        #expect(plain.apply(.more(PageRequest(page: 2, list: nil), .started(id(1)))) == .dropped)
        #expect(plain == Loadable(value: 1))
        #expect(!plain.hasMore && plain.nextRequest == nil)
    }
}

/// A feed whose first page, load more and refresh wait on gates.
struct ScrollingNumbers: Reducer {
    struct State: Equatable { var feed = NumberFeed() }
    enum Action { case refresh, lastRowAppeared, feed(LoadAction<Pages<Int, Int>, TestError>) }

    let first: Gate<Pages<Int, Int>>, more: Gate<Pages<Int, Int>>, refresh: Gate<Pages<Int, Int>>
    /// The policy of a refresh, once the first page shows.
    var refreshOverlap = OverlapPolicy.latestWins

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .refresh:
            let gate = state.feed.value == nil ? first : refresh
            return state.feed.load(
                Action.feed,
                LoadRequest { () async throws(TestError) in
                    do { return try await gate.wait() } catch { throw .offline }
                },
                overlap: state.feed.value == nil ? .latestWins : refreshOverlap)
        case .lastRowAppeared:
            let more = more
            return state.feed.loadMore(Action.feed) { _ in
                LoadRequest { () async throws(TestError) in
                    do { return try await more.wait() } catch { throw .offline }
                }
            }
        case .feed(let action):
            return state.feed.reduce(action)
        }
    }
}
