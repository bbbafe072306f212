import AsyncState
import AsyncStateTesting
import DemoFeatures
import Testing

/// The social feed of issue 25 — pages, a retried first page, staleness on
/// appear, optimistic likes across a refresh — written on one `Loadable`
/// with no state copied between two types and no staleness written by hand,
/// tested step by step with every state given by value.
@Suite("Demo feature: social feed")
@MainActor
struct SocialFeatureTests {
    typealias Post = SocialFeature.Post
    typealias Posts = SocialFeature.Posts

    /// The server's first page: posts 1–4, liked by `id % 4` people.
    static let firstPage = Pages((1...4).map { Post(id: $0, likes: $0 % 4) }, next: 4)
    static let secondPage = Pages((5...8).map { Post(id: $0, likes: $0 % 4) }, next: 8)

    static func at(_ milliseconds: Int64) -> LoadClock.Instant { LoadClock.Instant(offset: .milliseconds(milliseconds)) }

    @MainActor
    struct Harness {
        let base = DemoHarness()
        let clock: LoadClock

        init() { clock = LoadClock(base.clock) }

        func store(_ state: SocialFeature.State = .init(), firstLoadID: LoadID = LoadID(1)) -> TestStore<
            SocialFeature.State, SocialFeature.Action
        > {
            TestStore(
                initialState: state, reducer: SocialFeature.screen(clock: clock, network: base.network), firstLoadID: firstLoadID)
        }
    }

    /// A feed that shows the first page, settled at 0.15 s by load #1.
    static var loaded: SocialFeature.State {
        var state = SocialFeature.State()
        state.posts = Posts(expecting: .success(value: firstPage), newestID: LoadID(1), settledAt: at(150))
        return state
    }

    @Test("the first page is retried behind a \"Retrying (2 of 3)\" banner, and its attempts are known from the start")
    func retriedFirstPage() async {
        let harness = Harness()
        let store = harness.store()
        harness.base.network.failNext(1)
        store.send(.appeared(Self.at(0)))
        await store.receive(.posts(.started(LoadID(1)))) {
            $0.posts = Posts(expecting: .loading, inFlightID: LoadID(1))
        }
        await store.receive(.posts(.planned(LoadID(1), attempts: 3))) {
            $0.posts = Posts(
                expecting: .loading, inFlightID: LoadID(1), activity: LoadActivity(reason: .firstLoad, attempts: 3))
        }
        #expect(store.state.banner == nil)
        await harness.base.answer()
        let retry = LoadRetry<DemoAPI.Failure>(attempt: 1, of: 3, failure: .serverError, wait: .milliseconds(400))
        await store.receive(.posts(.retrying(LoadID(1), retry))) {
            $0.posts = Posts(
                expecting: .loading, inFlightID: LoadID(1),
                activity: LoadActivity(reason: .firstLoad, attempt: 2, attempts: 3, wait: .milliseconds(400), lastFailure: .serverError))
        }
        #expect(store.state.banner == "Retrying (2 of 3)…")
        await harness.base.clock.waitForSleepers(1)
        harness.base.clock.advance(by: .milliseconds(400))
        await harness.base.answer()
        await store.receive(.posts(.at(Self.at(700), .finished(LoadID(1), Self.firstPage)))) {
            $0.posts = Posts(expecting: .success(value: Self.firstPage), newestID: LoadID(1), settledAt: Self.at(700))
        }
        #expect(store.state.banner == nil)
        await store.finish()
    }

    @Test("appearing reloads only a stale feed: not before a minute, at once after it")
    func staleOnAppear() async {
        let harness = Harness()
        let store = harness.store(Self.loaded, firstLoadID: LoadID(2))
        store.send(.appeared(Self.at(30_000)))
        store.send(.appeared(Self.at(60_150)))
        await store.receive(.posts(.started(LoadID(2)))) {
            $0.posts = Posts(
                expecting: .refreshing(value: Self.firstPage), settledState: .success(value: Self.firstPage), inFlightID: LoadID(2),
                settledAt: Self.at(150))
        }
        await store.receive(.posts(.planned(LoadID(2), attempts: 3))) {
            $0.posts = Posts(
                expecting: .refreshing(value: Self.firstPage), settledState: .success(value: Self.firstPage), inFlightID: LoadID(2),
                activity: LoadActivity(reason: .refresh, attempts: 3), settledAt: Self.at(150))
        }
        store.exhaustivity = .off
        await harness.base.answer()
        await store.receive(.posts(.at(Self.at(150), .finished(LoadID(2), Self.firstPage))))
        await store.finish()
    }

    @Test("a like confirmed while a refresh that read the server before it runs stays after the refresh lands")
    func likeAcrossRefresh() async {
        let harness = Harness()
        let store = harness.store(Self.loaded, firstLoadID: LoadID(2))
        let like = AnyEdit(SocialFeature.SetLiked(postID: 2, liked: true))
        var liked = Self.firstPage
        liked[1] = Post(id: 2, likes: 3, isLiked: true)
        store.send(.likeTapped(2))
        await store.receive(.posts(.edit(.started(LoadID(2), like)))) {
            $0.posts = Posts(
                expecting: .success(value: liked), value: Self.firstPage, newestID: LoadID(1), settledAt: Self.at(150),
                pendingEdits: [LoadID(2): like])
        }
        // The pull comes 20 ms later: with this seed, the like answers first.
        await harness.base.clock.waitForSleepers(1)
        harness.base.clock.advance(by: .milliseconds(20))
        store.send(.pulledToRefresh)
        await store.receive(.posts(.started(LoadID(3)))) {
            $0.posts = Posts(
                expecting: .refreshing(value: liked), value: Self.firstPage, settledState: .success(value: Self.firstPage),
                inFlightID: LoadID(3), settledAt: Self.at(150), pendingEdits: [LoadID(2): like])
        }
        await store.receive(.posts(.planned(LoadID(3), attempts: 3))) {
            $0.posts = Posts(
                expecting: .refreshing(value: liked), value: Self.firstPage, settledState: .success(value: Self.firstPage),
                inFlightID: LoadID(3), activity: LoadActivity(reason: .refresh, attempts: 3), settledAt: Self.at(150),
                pendingEdits: [LoadID(2): like])
        }
        // Each request answers at its own deadline, in turn.
        await harness.base.clock.waitForSleepers(2)
        harness.base.clock.advance(to: harness.base.clock.nextDeadline!)
        await store.receive(.posts(.edit(.confirmed(LoadID(2))))) {
            $0.posts = Posts(
                expecting: .refreshing(value: liked), value: liked, settledState: .success(value: liked), inFlightID: LoadID(3),
                activity: LoadActivity(reason: .refresh, attempts: 3), settledAt: Self.at(150), reappliedEdits: [like],
                newestEditID: LoadID(2))
        }
        // The refresh brings the page as the server had it when it asked — without the like — and the like stays.
        let refreshed = harness.base.clock.nextDeadline!
        harness.base.clock.advance(to: refreshed)
        let stamp = LoadClock.Instant(offset: refreshed.offset)
        await store.receive(.posts(.at(stamp, .finished(LoadID(3), Self.firstPage)))) {
            $0.posts = Posts(expecting: .success(value: liked), newestID: LoadID(3), settledAt: stamp, newestEditID: LoadID(2))
        }
        await store.finish()
        #expect(store.state.face == "1 2♥ 3 4 · more below")
    }

    @Test("a like that fails rolls back alone and says so in the banner")
    func failedLikeRollsBack() async {
        let harness = Harness()
        let store = harness.store(Self.loaded, firstLoadID: LoadID(2))
        let like = AnyEdit(SocialFeature.SetLiked(postID: 3, liked: true))
        var liked = Self.firstPage
        liked[2] = Post(id: 3, likes: 4, isLiked: true)
        harness.base.network.setOffline(true)
        store.send(.likeTapped(3))
        await store.receive(.posts(.edit(.started(LoadID(2), like)))) {
            $0.posts = Posts(
                expecting: .success(value: liked), value: Self.firstPage, newestID: LoadID(1), settledAt: Self.at(150),
                pendingEdits: [LoadID(2): like])
        }
        await harness.base.answer()
        await store.receive(.posts(.edit(.failed(LoadID(2), .offline)))) {
            $0.posts = Posts(
                expecting: .success(value: Self.firstPage), newestID: LoadID(1), settledAt: Self.at(150), editError: .offline,
                newestEditID: LoadID(2))
        }
        await store.finish()
        #expect(store.state.banner == "Could not save a like: offline")
    }

    @Test("a retried \"load more\" shows \"retrying this page\", then appends the page")
    func retriedPage() async {
        let harness = Harness()
        let store = harness.store(Self.loaded, firstLoadID: LoadID(2))
        let request = PageRequest(page: 2, list: LoadID(1))
        harness.base.network.failNext(1)
        store.send(.lastRowAppeared)
        await store.receive(.posts(.more(request, .started(LoadID(2))))) {
            $0.posts = Posts(
                expecting: .success(value: Self.firstPage), newestID: LoadID(1), settledAt: Self.at(150),
                loadingMore: (LoadID(2), request))
        }
        await store.receive(.posts(.more(request, .planned(LoadID(2), attempts: 3)))) {
            $0.posts = Posts(
                expecting: .success(value: Self.firstPage), newestID: LoadID(1), settledAt: Self.at(150),
                loadingMore: (LoadID(2), request), moreActivity: LoadActivity(reason: .nextPage, attempts: 3))
        }
        await harness.base.answer()
        let retry = LoadRetry<DemoAPI.Failure>(attempt: 1, of: 3, failure: .serverError, wait: .milliseconds(400))
        await store.receive(.posts(.more(request, .retrying(LoadID(2), retry)))) {
            $0.posts = Posts(
                expecting: .success(value: Self.firstPage), newestID: LoadID(1), settledAt: Self.at(150),
                loadingMore: (LoadID(2), request),
                moreActivity: LoadActivity(
                    reason: .nextPage, attempt: 2, attempts: 3, wait: .milliseconds(400), lastFailure: .serverError))
        }
        #expect(store.state.banner == "Retrying this page (2 of 3)…")
        await harness.base.clock.waitForSleepers(1)
        harness.base.clock.advance(by: .milliseconds(400))
        await harness.base.answer()
        var both = Self.firstPage
        both.append(Self.secondPage)
        await store.receive(.posts(.more(request, .finished(LoadID(2), Self.secondPage)))) {
            $0.posts = Posts(
                expecting: .success(value: both), newestID: LoadID(1), settledAt: Self.at(150), newestMoreID: LoadID(2))
        }
        await store.finish()
        #expect(store.state.face == "1 2 3 4 5 6 7 8 · more below")
    }
}
