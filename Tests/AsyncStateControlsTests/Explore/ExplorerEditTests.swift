import AsyncState
import AsyncStateControls
import Testing

/// Posts that take optimistic likes, over a server that answers a fetch
/// with the posts as they were when the request arrived — so a refresh can
/// miss a like that lands while it travels.
struct LikesFeature: Reducer {
    struct Post: Equatable, Sendable {
        var id: Int
        var isLiked = false
    }

    struct Like: Edit, CustomStringConvertible {
        var id: Int

        func apply(to posts: inout [Post]) -> Bool {
            guard let index = posts.firstIndex(where: { $0.id == id }) else { return false }
            posts[index].isLiked = true
            return true
        }

        var description: String { "like(\(id))" }
    }

    struct State: Equatable {
        var posts = Loadable<[Post], SearchFailure>()
    }

    enum Action: Equatable {
        case refresh
        case like(Int)
        case posts(LoadAction<[Post], SearchFailure>)
    }

    @MainActor
    final class Server: Sendable {
        private var posts = [Post(id: 1), Post(id: 2)]
        private let fetched: @Sendable () async -> Void
        private let liked: @Sendable () async -> Void

        init(_ operations: ControlledOperations) {
            fetched = operations.operation("fetch", returning: ())
            liked = operations.operation("like", returning: ())
        }

        func fetch() async -> [Post] {
            let snapshot = posts
            await fetched()
            return snapshot
        }

        func like(_ id: Int) async {
            await liked()
            if let index = posts.firstIndex(where: { $0.id == id }) { posts[index].isLiked = true }
        }
    }

    let server: Server
    /// Shows a finished load's posts as they came, dropping every edit — a
    /// bug the explorer must find.
    var dropsEditsOnRefresh = false

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        let server = server
        switch action {
        case .refresh:
            return state.posts.load(Action.posts, LoadRequest { () async throws(SearchFailure) in await server.fetch() })
        case .like(let id):
            return state.posts.edit(
                Action.posts, Like(id: id), LoadRequest { () async throws(SearchFailure) in await server.like(id) })
        case .posts(.finished(let id, let posts)) where dropsEditsOnRefresh && state.posts.inFlightID == id:
            state.posts = Loadable(value: posts)
            return .none
        case .posts(let load):
            return state.posts.reduce(load)
        }
    }
}

@Suite("Exploring optimistic edits")
@MainActor
struct ExplorerEditTests {
    @Test("a like across a refresh that read the server before it: every ordering keeps the confirmed like")
    func likeAcrossRefresh() async {
        let report = await explore(LikesFeature.State(), script: [.refresh, .like(1)]) {
            LikesFeature(server: LikesFeature.Server($0))
        }
        #expect(report.failure == nil)
        #expect(report.isComplete)
        #expect(report.orderingCount == 3)
        #expect(report.promises.contains("no confirmed edit lost"))
    }

    @Test("a reducer that drops confirmed edits when a refresh lands is caught, and its minimized recording replays it")
    func lostEditCaught() async throws {
        let report = await explore(LikesFeature.State(), script: [.refresh, .like(1)]) {
            LikesFeature(server: LikesFeature.Server($0), dropsEditsOnRefresh: true)
        }
        let failure = try #require(report.failure)
        #expect(failure.invariant == "no confirmed edit lost")
        #expect(failure.message == "posts: confirmed edit like(1) missing from its value")
        #expect(failure.ordering == ["send(.refresh)", "send(.like(1))", "answer like #0", "answer fetch #0"])
        #expect(failure.minimized.steps.last?.state.posts.value?.first?.isLiked == false)
    }
}
