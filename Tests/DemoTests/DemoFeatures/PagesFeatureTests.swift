import AsyncState
import AsyncStateTesting
import DemoFeatures
import Testing

@Suite("Demo feature: pages")
@MainActor
struct PagesFeatureTests {
    typealias Feed = PagesFeature.Feed

    /// Page `number` of the list's version `version`, as the pretend server makes it.
    static func page(_ version: Int, _ number: Int) -> Pages<String, Int> {
        Pages((1...3).map { "\(version).\((number - 1) * 3 + $0)" }, next: number < 4 ? number + 1 : nil)
    }

    /// The feed after its first page loaded with load #1.
    static var loaded: PagesFeature.State {
        var state = PagesFeature.State()
        state.version = 1
        state.feed = Feed(expecting: .success(value: page(1, 1)), newestID: LoadID(1))
        return state
    }

    func makeStore(_ state: PagesFeature.State, _ harness: DemoHarness, firstLoadID: LoadID = LoadID(2))
        -> TestStore<PagesFeature.State, PagesFeature.Action>
    {
        TestStore(
            initialState: state, reducer: PagesFeature(clock: harness.clock, network: harness.network), firstLoadID: firstLoadID)
    }

    @Test("appearing loads the first page; the last row appearing loads the next one and appends it")
    func firstPageThenMore() async {
        let harness = DemoHarness()
        let store = makeStore(PagesFeature.State(), harness, firstLoadID: LoadID(1))
        store.send(.appeared) { $0.version = 1 }
        await store.receive(.feed(.started(LoadID(1)))) {
            $0.feed = Feed(expecting: .loading, inFlightID: LoadID(1))
        }
        await harness.answer()
        await store.receive(.feed(.finished(LoadID(1), Self.page(1, 1)))) {
            $0.feed = Feed(expecting: .success(value: Self.page(1, 1)), newestID: LoadID(1))
        }
        store.send(.lastRowAppeared)
        let more = PageRequest(page: 2, list: LoadID(1))
        await store.receive(.feed(.more(more, .started(LoadID(2))))) {
            $0.feed = Feed(expecting: .success(value: Self.page(1, 1)), newestID: LoadID(1), loadingMore: (LoadID(2), more))
        }
        #expect(store.state.feed.moreActivity == LoadActivity(reason: .nextPage))
        #expect(store.state.face == "1 page · rows 1.1…1.3 (3) · loading-more row")
        await harness.answer()
        var both = Self.page(1, 1)
        both.append(Self.page(1, 2))
        await store.receive(.feed(.more(more, .finished(LoadID(2), Self.page(1, 2))))) {
            $0.feed = Feed(expecting: .success(value: both), newestID: LoadID(1), newestMoreID: LoadID(2))
        }
        await store.finish()
        #expect(store.state.face == "2 pages · rows 1.1…1.6 (6) · more at page 3")
    }

    @Test("a failed load more keeps the rows and shows a retry row; retrying loads the page")
    func failedLoadMoreRetries() async {
        let harness = DemoHarness()
        let store = makeStore(Self.loaded, harness)
        harness.network.setOffline(true)
        store.send(.lastRowAppeared)
        let more = PageRequest(page: 2, list: LoadID(1))
        await store.receive(.feed(.more(more, .started(LoadID(2))))) {
            $0.feed = Feed(expecting: .success(value: Self.page(1, 1)), newestID: LoadID(1), loadingMore: (LoadID(2), more))
        }
        await harness.answer()
        await store.receive(.feed(.more(more, .failed(LoadID(2), .offline)))) {
            $0.feed = Feed(expecting: .success(value: Self.page(1, 1)), newestID: LoadID(1), newestMoreID: LoadID(2), moreError: .offline)
        }
        #expect(store.state.feed.error == nil, "the list itself did not fail")
        #expect(store.state.face == "1 page · rows 1.1…1.3 (3) · retry row (offline)")
        harness.network.setOffline(false)
        store.send(.retryTapped)
        await store.receive(.feed(.more(more, .started(LoadID(3))))) {
            $0.feed = Feed(
                expecting: .success(value: Self.page(1, 1)), newestID: LoadID(1), loadingMore: (LoadID(3), more),
                moreActivity: LoadActivity(reason: .retryAfterFailure, lastFailure: .offline), moreError: .offline)
        }
        await harness.answer()
        var both = Self.page(1, 1)
        both.append(Self.page(1, 2))
        await store.receive(.feed(.more(more, .finished(LoadID(3), Self.page(1, 2))))) {
            $0.feed = Feed(expecting: .success(value: both), newestID: LoadID(1), newestMoreID: LoadID(3))
        }
        await store.finish()
    }

    @Test("a pull to refresh supersedes the load more in flight: its work is cancelled and its page never shows")
    func refreshSupersedesLoadMore() async {
        let harness = DemoHarness()
        let store = makeStore(Self.loaded, harness)
        store.send(.lastRowAppeared)
        let more = PageRequest(page: 2, list: LoadID(1))
        await store.receive(.feed(.more(more, .started(LoadID(2))))) {
            $0.feed = Feed(expecting: .success(value: Self.page(1, 1)), newestID: LoadID(1), loadingMore: (LoadID(2), more))
        }
        await harness.clock.waitForSleepers(1)
        store.send(.pulledToRefresh) { $0.version = 2 }
        await store.receive(.feed(.started(LoadID(3)))) {
            $0.feed = Feed(
                expecting: .refreshing(value: Self.page(1, 1)), settledState: .success(value: Self.page(1, 1)),
                inFlightID: LoadID(3), newestMoreID: LoadID(2))
        }
        await store.receive(.feed(.more(more, .cancelled(LoadID(2))))) // dropped: no longer in flight
        await harness.answer()
        await store.receive(.feed(.finished(LoadID(3), Self.page(2, 1)))) {
            $0.feed = Feed(expecting: .success(value: Self.page(2, 1)), newestID: LoadID(3), newestMoreID: LoadID(2))
        }
        await store.finish()
        #expect(store.state.face == "1 page · rows 2.1…2.3 (3) · more at page 2")
    }
}
