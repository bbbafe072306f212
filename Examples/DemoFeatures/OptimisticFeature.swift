import AsyncState
import AsyncStateControls

/// A list of posts with likes and renames shown at once: each edit is pending
/// on top of the confirmed posts until the server answers; a failure rolls
/// back only its own edit, and a refresh that lands in between keeps every
/// pending edit.
public struct OptimisticFeature: Reducer {
    public struct Post: Equatable, Sendable, Codable, CustomStringConvertible {
        public var id: Int
        public var title: String
        public var isLiked = false

        public var description: String { "\(id) \(title.debugDescription)\(isLiked ? " ♥" : "")" }
    }

    /// An edit says what a post becomes, so applying it again is harmless.
    public enum PostEdit: Edit, Sendable, Codable, CustomStringConvertible {
        case like(Int)
        case rename(Int, String)

        public func apply(to posts: inout [Post]) -> Bool {
            switch self {
            case .like(let id):
                guard let index = posts.firstIndex(where: { $0.id == id }) else { return false }
                posts[index].isLiked = true
            case .rename(let id, let title):
                guard let index = posts.firstIndex(where: { $0.id == id }) else { return false }
                posts[index].title = title
            }
            return true
        }

        public var description: String {
            switch self {
            case .like(let id): "like(\(id))"
            case .rename(let id, let title): "rename(\(id), \(title.debugDescription))"
            }
        }
    }

    public struct State: Equatable, Sendable {
        public var posts = Loadable<[Post], DemoAPI.Failure>()
        public init() {}

        /// What the screen shows: the posts with pending edits and a banner
        /// for a failed load or edit, a failure face only when there is
        /// nothing to show, or a skeleton.
        public var face: String {
            guard let shown = posts.value else {
                if let error = posts.error, !posts.isLoading { return "failure face: \(error)" }
                return posts.isLoading ? "skeleton (loading)" : "skeleton"
            }
            var text = (posts.isLoading ? "⟳ " : "") + shown.map(\.description).joined(separator: " · ")
            if !self.posts.pendingEdits.isEmpty {
                text += " | pending: " + self.posts.pendingEdits.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            }
            if let error = self.posts.error { text += " [banner: \(error)]" }
            if let error = self.posts.editError { text += " [banner: \(error)]" }
            return text
        }
    }

    public enum Action: Equatable, Sendable, Codable {
        case appeared
        case pulledToRefresh
        case likeTapped(Int)
        case renamed(Int, String)
        case posts(LoadAction<[Post], DemoAPI.Failure>)
    }

    let server: PostsServer

    /// A feature whose server answers over `wire`.
    public init(wire: Wire) {
        server = PostsServer(wire: wire)
    }

    /// A feature whose server answers after `network`'s latencies on `clock`.
    public init(clock: any Clock<Duration>, network: Network) {
        self.init(wire: Wire(clock: clock, network: network))
    }

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        let server = server
        switch action {
        case .appeared, .pulledToRefresh:
            return state.posts.load(Action.posts, LoadRequest { () async throws(DemoAPI.Failure) in try await server.posts() })
        case .likeTapped(let id):
            return state.posts.edit(
                Action.posts, PostEdit.like(id), LoadRequest { () async throws(DemoAPI.Failure) in try await server.apply(.like(id)) })
        case .renamed(let id, let title):
            return state.posts.edit(
                Action.posts, PostEdit.rename(id, title),
                LoadRequest { () async throws(DemoAPI.Failure) in try await server.apply(.rename(id, title)) })
        case .posts(let action):
            return state.posts.reduce(action)
        }
    }
}

/// The pretend server of ``OptimisticFeature``: it keeps the posts, applies
/// an edit when it answers, and answers a fetch with the posts as they
/// were when the request arrived — so a refresh can miss a like that lands
/// while it travels.
@MainActor
public final class PostsServer: Sendable {
    private var posts: [OptimisticFeature.Post] = (1...3).map { .init(id: $0, title: "Post \($0)") }
    private let wire: Wire

    nonisolated init(wire: Wire) {
        self.wire = wire
    }

    func posts() async throws(DemoAPI.Failure) -> [OptimisticFeature.Post] {
        let snapshot = posts
        try await wire.respond(to: "posts")
        return snapshot
    }

    func apply(_ edit: OptimisticFeature.PostEdit) async throws(DemoAPI.Failure) {
        try await wire.respond(to: "edit")
        _ = edit.apply(to: &posts)
    }
}
