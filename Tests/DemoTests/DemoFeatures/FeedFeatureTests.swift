import AsyncState
import AsyncStateTesting
import DemoFeatures
import Testing

@Suite("Demo feature: feed")
@MainActor
struct FeedFeatureTests {
    typealias Posts = Loadable<[String], DemoAPI.Failure>
    static let firstPage = ["post 1", "post 2", "post 3"]

    /// A feed that has loaded its first posts with load #1.
    static var loaded: FeedFeature.State {
        var state = FeedFeature.State()
        state.version = 1
        state.posts = Posts(expecting: .success(value: firstPage), newestID: LoadID(1))
        return state
    }

    @Test("a pull to refresh keeps the posts on screen and brings newer ones")
    func refreshKeepsPosts() async {
        let harness = DemoHarness()
        let store = TestStore(initialState: Self.loaded, reducer: FeedFeature(api: harness.api), firstLoadID: LoadID(2))
        store.send(.pulledToRefresh) { $0.version = 2 }
        await store.receive(.posts(.started(LoadID(2)))) {
            $0.posts = Posts(
                expecting: .refreshing(value: Self.firstPage), settledState: .success(value: Self.firstPage),
                inFlightID: LoadID(2))
        }
        #expect(store.state.face == "post 1, post 2, post 3")
        await harness.answer()
        await store.receive(.posts(.finished(LoadID(2), ["post 4", "post 5", "post 6"]))) {
            $0.posts = Posts(expecting: .success(value: ["post 4", "post 5", "post 6"]), newestID: LoadID(2))
        }
        await store.finish()
    }

    @Test("a failed refresh keeps the posts and shows a banner")
    func failedRefreshShowsBanner() async {
        let harness = DemoHarness()
        let store = TestStore(initialState: Self.loaded, reducer: FeedFeature(api: harness.api), firstLoadID: LoadID(2))
        harness.network.setOffline(true)
        store.send(.pulledToRefresh) { $0.version = 2 }
        await store.receive(.posts(.started(LoadID(2)))) {
            $0.posts = Posts(
                expecting: .refreshing(value: Self.firstPage), settledState: .success(value: Self.firstPage),
                inFlightID: LoadID(2))
        }
        await harness.answer()
        await store.receive(.posts(.failed(LoadID(2), .offline))) {
            $0.posts = Posts(expecting: .error(error: .offline), value: Self.firstPage, newestID: LoadID(2))
        }
        await store.finish()
        #expect(store.state.face == "post 1, post 2, post 3  [banner: offline]")
    }

    @Test("a first load that fails shows the failure face")
    func firstLoadFails() async {
        let harness = DemoHarness()
        let store = TestStore(initialState: FeedFeature.State(), reducer: FeedFeature(api: harness.api))
        harness.network.setOffline(true)
        store.send(.appeared) { $0.version = 1 }
        await store.receive(.posts(.started(LoadID(1)))) {
            $0.posts = Posts(expecting: .loading, inFlightID: LoadID(1))
        }
        #expect(store.state.face == "skeleton (loading)")
        await harness.answer()
        await store.receive(.posts(.failed(LoadID(1), .offline))) {
            $0.posts = Posts(expecting: .error(error: .offline), newestID: LoadID(1))
        }
        await store.finish()
        #expect(store.state.face == "failure face: offline")
    }
}
