import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

// The code of the "Lists and writes" guide
// (Sources/AsyncState/Documentation.docc/ListsAndWrites.md), copied line for
// line so it is known to compile and behave (`SampleCoverageTests` checks the
// copy). `Post`, `FeedAPI` and `FeedError` are the guide's unstated types.

enum ListsGuide {
    struct Post: Equatable, Sendable {
        var id: Int
        var isLiked = false
    }

    enum FeedError: Error, Equatable { case offline }

    struct FeedAPI: Sendable {
        /// Two pages of two posts: 11, 12, then 21, 22.
        func posts(after cursor: Int?) async throws(FeedError) -> Pages<Post, Int> {
            let page = cursor ?? 1
            return Pages([Post(id: page * 10 + 1), Post(id: page * 10 + 2)], next: page < 2 ? page + 1 : nil)
        }

        func like(_ id: Int) async throws(FeedError) {}
    }

    struct Feed: Reducer {
        struct State: Equatable {
            var posts = Loadable<Pages<Post, Int>, FeedError>()
        }

        enum Action {
            case appeared, pulledToRefresh, lastRowAppeared
            case posts(LoadAction<Pages<Post, Int>, FeedError>)
        }

        let api: FeedAPI

        func page(_ cursor: Int?) -> LoadRequest<Pages<Post, Int>, FeedError> {
            let api = api
            return LoadRequest { () async throws(FeedError) in try await api.posts(after: cursor) }
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .appeared, .pulledToRefresh:
                return state.posts.load(Action.posts, page(nil))
            case .lastRowAppeared:
                return state.posts.loadMore(Action.posts, page)
            case .posts(let action):
                return state.posts.reduce(action)
            }
        }
    }

    struct SetLiked: Edit {
        var postID: Int
        var liked: Bool

        func apply(to posts: inout Pages<Post, Int>) -> Bool {
            guard let index = posts.firstIndex(where: { $0.id == postID }) else { return false }
            posts[index].isLiked = liked
            return true
        }
    }

    /// The guide's feed with the like the guide adds to it.
    struct Likes: Reducer {
        typealias State = Feed.State

        enum Action {
            case likeTapped(Int)
            case posts(LoadAction<Pages<Post, Int>, FeedError>)
        }

        let api: FeedAPI

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .likeTapped(let id):
                return state.posts.edit(
                    Action.posts, SetLiked(postID: id, liked: true),
                    LoadRequest { () async throws(FeedError) in
                        try await api.like(id)
                    })
            case .posts(let action):
                return state.posts.reduce(action)
            }
        }
    }

    @MainActor
    static func withoutReducers(api: FeedAPI) async -> (
        AsyncValue<Pages<Post, Int>, FeedError>, EditAction<Pages<Post, Int>, FeedError>?, Int
    ) {
        let page = Feed(api: api).page
        let posts = AsyncValue<Pages<Post, Int>, FeedError>()
        await posts.load(page(nil))
        await posts.loadMore(page)
        let like = await posts.edit(SetLiked(postID: 3, liked: true), LoadRequest { () async throws(FeedError) in try await api.like(3) })

        // Saves that must all arrive, in order: each waits for the one before.
        let operations = OperationTracker<String, FeedError>()
        await operations.run("save", LoadRequest { () async throws(FeedError) in try await api.like(4) }, overlap: .queue)
        let waiting = operations.waitingCount("save")
        return (posts, like, waiting)
    }
}

@Suite("Guide: lists and writes")
@MainActor
struct ListsAndWritesGuideTests {
    @Test("the pages example loads, appends and ends")
    func pages() async {
        let store = Store(initialState: ListsGuide.Feed.State(), reducer: ListsGuide.Feed(api: ListsGuide.FeedAPI()))
        await store.send(.appeared).finish()
        await store.send(.lastRowAppeared).finish()
        #expect(store.posts.value?.map(\.id) == [11, 12, 21, 22])
        #expect(!store.posts.hasMore)
        #expect(store.send(.lastRowAppeared).isEmpty)
    }

    @Test("the edit example confirms a like")
    func likes() async {
        var state = ListsGuide.Feed.State()
        state.posts = Loadable(value: Pages([ListsGuide.Post(id: 1)], next: nil))
        let store = Store(initialState: state, reducer: ListsGuide.Likes(api: ListsGuide.FeedAPI()))
        await store.send(.likeTapped(1)).finish()
        #expect(store.posts.confirmedValue?.first?.isLiked == true)
        #expect(store.posts.pendingEdits.isEmpty)
    }

    @Test("the example without reducers runs")
    func withoutReducers() async {
        let (posts, like, waiting) = await ListsGuide.withoutReducers(api: ListsGuide.FeedAPI())
        #expect(posts.value?.map(\.id) == [11, 12, 21, 22])
        guard case .confirmed = like else { Issue.record("the like was \(String(describing: like))"); return }
        // Post 3 is not loaded, so the confirmed like changes nothing shown.
        #expect(posts.value?.contains(where: \.isLiked) == false)
        #expect(waiting == 0)
    }
}
