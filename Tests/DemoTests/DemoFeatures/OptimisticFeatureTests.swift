import AsyncState
import AsyncStateTesting
import Testing

@testable import DemoFeatures

@Suite("Demo feature: optimistic edits")
@MainActor
struct OptimisticFeatureTests {
    typealias Posts = Loadable<[OptimisticFeature.Post], DemoAPI.Failure>
    typealias Post = OptimisticFeature.Post

    static let posts = (1...3).map { Post(id: $0, title: "Post \($0)") }

    /// The posts after they loaded with load #1.
    static var loaded: OptimisticFeature.State {
        var state = OptimisticFeature.State()
        state.posts = Posts(expecting: .success(value: posts), newestID: LoadID(1))
        return state
    }

    /// `posts` with post `id` liked.
    static func liking(_ id: Int) -> [Post] {
        posts.map { post in
            var post = post
            if post.id == id { post.isLiked = true }
            return post
        }
    }

    func makeStore(_ harness: DemoHarness) -> TestStore<OptimisticFeature.State, OptimisticFeature.Action> {
        TestStore(
            initialState: Self.loaded, reducer: OptimisticFeature(clock: harness.clock, network: harness.network),
            firstLoadID: LoadID(2))
    }

    @Test("a like shows at once, pending, and joins the confirmed posts when the server confirms it")
    func likeConfirmed() async {
        let harness = DemoHarness()
        let store = makeStore(harness)
        store.send(.likeTapped(1))
        let like = AnyEdit(OptimisticFeature.PostEdit.like(1))
        await store.receive(.posts(.edit(.started(LoadID(2), like)))) {
            $0.posts = Posts(
                expecting: .success(value: Self.liking(1)), value: Self.posts, newestID: LoadID(1), pendingEdits: [LoadID(2): like])
        }
        #expect(store.state.face == #"1 "Post 1" ♥ · 2 "Post 2" · 3 "Post 3" | pending: #2 like(1)"#)
        await harness.answer()
        await store.receive(.posts(.edit(.confirmed(LoadID(2))))) {
            $0.posts = Posts(expecting: .success(value: Self.liking(1)), newestID: LoadID(1), newestEditID: LoadID(2))
        }
        await store.finish()
        #expect(store.state.posts.confirmedValue == Self.liking(1))
    }

    @Test("a failed like rolls back and shows a banner; it is the edit's failure, not the list's")
    func likeFails() async {
        let harness = DemoHarness()
        let store = makeStore(harness)
        harness.network.setOffline(true)
        store.send(.likeTapped(2))
        let like = AnyEdit(OptimisticFeature.PostEdit.like(2))
        await store.receive(.posts(.edit(.started(LoadID(2), like)))) {
            $0.posts = Posts(
                expecting: .success(value: Self.liking(2)), value: Self.posts, newestID: LoadID(1), pendingEdits: [LoadID(2): like])
        }
        await harness.answer()
        await store.receive(.posts(.edit(.failed(LoadID(2), .offline)))) {
            $0.posts = Posts(expecting: .success(value: Self.posts), newestID: LoadID(1), editError: .offline, newestEditID: LoadID(2))
        }
        await store.finish()
        #expect(store.state.posts.error == nil)
        #expect(store.state.face == #"1 "Post 1" · 2 "Post 2" · 3 "Post 3" [banner: offline]"#)
    }
}
