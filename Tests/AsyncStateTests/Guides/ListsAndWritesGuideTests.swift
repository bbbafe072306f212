import AsyncState
import AsyncStateTesting
import Testing

// The code of "Lists and writes" in README.md and in
// Sources/AsyncState/Documentation.docc/ListsAndWrites.md, copied verbatim so
// it is known to compile and work. Change them together.

enum ListsGuide {
    enum FeedError: Error, Equatable, Sendable { case offline }

    struct Post: Identifiable, Equatable, Sendable {
        var id: Int
        var title: String
        var isLiked = false
    }

    struct FeedAPI: Sendable {
        var posts: @MainActor @Sendable (_ page: Int) async throws(FeedError) -> Page<Post, Int>
        var like: @MainActor @Sendable (_ id: Int) async throws(FeedError) -> Void
    }

    // MARK: Pages

    struct Feed: Reducer {
        struct State: Equatable {
            var posts = PagedLoadable<Post, Int, FeedError>()
        }

        enum Action {
            case appeared, pulledToRefresh, lastRowAppeared
            case posts(PageAction<Post, Int, FeedError>)
        }

        let api: FeedAPI

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            let api = api
            switch action {
            case .appeared, .pulledToRefresh:
                return state.posts.refresh(Action.posts) { () async throws(FeedError) in try await api.posts(1) }
            case .lastRowAppeared:
                return state.posts.loadMore(Action.posts) { page async throws(FeedError) in try await api.posts(page) }
            case .posts(let action):
                return state.posts.reduce(action)
            }
        }
    }

    // MARK: Optimistic updates

    enum PostEdit: Edit, Sendable {
        case like(Int)

        func apply(to posts: inout [Post]) -> Bool {
            switch self {
            case .like(let id):
                guard let index = posts.firstIndex(where: { $0.id == id }) else { return false }
                posts[index].isLiked = true
                return true
            }
        }
    }

    struct Likes: Reducer {
        struct State: Equatable {
            var posts = Optimistic<PostEdit, FeedError>()
        }

        enum Action {
            case likeTapped(Int)
            case posts(EditAction<PostEdit, FeedError>)
        }

        let api: FeedAPI

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            let api = api
            switch action {
            case .likeTapped(let id):
                return state.posts.mutate(Action.posts, .like(id)) { () async throws(FeedError) in try await api.like(id) }
            case .posts(let action):
                return state.posts.reduce(action)
            }
        }
    }

    // MARK: Without reducers

    @MainActor
    static func withoutReducers(api: FeedAPI) async {
        let posts = OptimisticValue<PostEdit, FeedError>()
        let operations = OperationTracker<String, FeedError>()

        await posts.load { () async throws(FeedError) in try await api.posts(1).elements }
        await operations.run("like", editing: posts, .like(3)) { () async throws(FeedError) in try await api.like(3) }

        // Saves that must all arrive, in order: each waits for the one before.
        await operations.run("save", overlap: .queue) { () async throws(FeedError) in try await api.like(4) }
        _ = operations.waitingCount("save")
    }
}

@Suite("Guide: lists and writes")
@MainActor
struct ListsAndWritesGuideTests {
    let api = ListsGuide.FeedAPI(
        posts: { page in Page((1...2).map { ListsGuide.Post(id: page * 10 + $0, title: "post") }, next: page < 2 ? page + 1 : nil) },
        like: { _ in }
    )

    @Test("the pages example loads, appends and ends")
    func pages() async {
        let store = Store(initialState: ListsGuide.Feed.State(), reducer: ListsGuide.Feed(api: api))
        await store.send(.appeared).finish()
        await store.send(.lastRowAppeared).finish()
        #expect(store.posts.elements.map(\.id) == [11, 12, 21, 22])
        #expect(!store.posts.hasMore)
        #expect(store.send(.lastRowAppeared).isEmpty)
    }

    @Test("the optimistic example confirms a like")
    func likes() async {
        let store = Store(
            initialState: ListsGuide.Likes.State(posts: Optimistic(confirmed: [ListsGuide.Post(id: 1, title: "a")])),
            reducer: ListsGuide.Likes(api: api))
        await store.send(.likeTapped(1)).finish()
        #expect(store.posts.confirmed.value?.first?.isLiked == true)
    }

    @Test("the example without reducers runs")
    func withoutReducers() async {
        await ListsGuide.withoutReducers(api: api)
    }
}
