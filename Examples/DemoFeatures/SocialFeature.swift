import AsyncState
import AsyncStateControls

/// The social feed a newcomer builds on day one, on one piece of state: an
/// infinite list with pull to refresh, whose first page is retried with
/// backoff behind a "Retrying (2 of 3)…" banner, which goes stale after a
/// minute (reloaded on appear only then), and whose rows take optimistic
/// likes that roll back on failure while a refresh may land — plus a
/// debounced search and a detail child per post.
///
/// The posts are one `Loadable<Pages<Post, Int>, …>`: pages, freshness,
/// edits, retries and activity are its layers, so no state is copied between
/// two types and no staleness is written by hand. What rows bind to,
/// `posts.value`, is the one value shown — the confirmed pages with the
/// pending likes on top.
public struct SocialFeature: Reducer {
    /// One post, as a row shows it.
    public struct Post: Equatable, Sendable, Codable, CustomStringConvertible {
        public var id: Int
        public var likes: Int
        public var isLiked = false

        public init(id: Int, likes: Int, isLiked: Bool = false) {
            self.id = id
            self.likes = likes
            self.isLiked = isLiked
        }

        public var description: String { "\(id)\(isLiked ? "♥" : "")" }
    }

    /// Sets whether a post is liked. It says what the post becomes, so
    /// applying it again — over a refresh that read the server before it —
    /// changes nothing twice.
    public struct SetLiked: Edit, Codable, CustomStringConvertible {
        public var postID: Int
        public var liked: Bool

        public init(postID: Int, liked: Bool) {
            self.postID = postID
            self.liked = liked
        }

        public func apply(to posts: inout Pages<Post, Int>) -> Bool {
            guard let index = posts.firstIndex(where: { $0.id == postID }) else { return false }
            if posts[index].isLiked != liked {
                posts[index].isLiked = liked
                posts[index].likes += liked ? 1 : -1
            }
            return true
        }

        public var description: String { "\(liked ? "like" : "unlike")(\(postID))" }
    }

    /// What a post's detail screen loads.
    public struct Detail: Equatable, Sendable, Codable, CustomStringConvertible {
        public var postID: Int
        public var comments: Int

        public var description: String { "post \(postID): \(comments) comments" }
    }

    public typealias Failure = DemoAPI.Failure
    public typealias Posts = Loadable<Pages<Post, Int>, Failure>

    public struct State: Equatable, Sendable {
        /// The feed: pages, freshness, likes, retries — one loadable.
        public var posts = Posts()
        public var query = ""
        /// The posts matching the query.
        public var results = Loadable<[Int], Failure>()
        /// One detail child per post opened.
        public var details: KeyedStates<Int, Loadable<Detail, Failure>> = [:]

        public init() {}

        /// The banner over the list, from the list's layers alone.
        public var banner: String? {
            if let activity = posts.activity, activity.isRetry, let attempts = activity.attempts {
                return "Retrying (\(activity.attempt) of \(attempts))…"
            }
            if let activity = posts.moreActivity, activity.isRetry, let attempts = activity.attempts {
                return "Retrying this page (\(activity.attempt) of \(attempts))…"
            }
            if let error = posts.editError { return "Could not save a like: \(error)" }
            if let error = posts.error, posts.value != nil { return "Could not refresh: \(error)" }
            return nil
        }

        /// What the screen shows, from top to bottom.
        public var face: String {
            var parts: [String] = []
            if let banner { parts.append("[\(banner)]") }
            if let pages = posts.value {
                let rows = pages.map(\.description).joined(separator: " ")
                parts.append((posts.isLoading ? "⟳ " : "") + (rows.isEmpty ? "no posts" : rows))
                parts.append(
                    posts.isLoadingMore
                        ? "loading more" : posts.moreError.map { "retry row (\($0))" } ?? (pages.hasMore ? "more below" : "end"))
            } else {
                parts.append(posts.error.map { "failure face: \($0)" } ?? (posts.isLoading ? "skeleton (loading)" : "skeleton"))
            }
            if !posts.pendingEdits.isEmpty { parts.append("saving: " + posts.pendingEdits.map { "\($0.value)" }.joined(separator: ", ")) }
            if let hits = results.value { parts.append("search \(query.debugDescription): \(hits.count) posts") }
            for (id, detail) in details {
                parts.append(detail.value.map { "\($0)" } ?? "post \(id): \(detail.isLoading ? "loading" : "closed")")
            }
            return parts.joined(separator: " · ")
        }
    }

    public enum Action: Equatable, Sendable, Codable {
        /// The feed appeared at `now`: it loads only if what it shows is stale.
        case appeared(LoadClock.Instant)
        case pulledToRefresh
        case lastRowAppeared
        case likeTapped(Int)
        case queryChanged(String)
        case search(String)
        case opened(Int)
        case posts(LoadAction<Pages<Post, Int>, Failure>)
        case results(LoadAction<[Int], Failure>)
        case detail(Int, LoadAction<Detail, Failure>)
    }

    let server: SocialServer
    let clock: LoadClock
    let retry: RetryPolicy<Failure>
    /// How old the feed may be when it appears before it reloads.
    let maxAge: Duration

    /// A feed whose server answers over `wire`, retrying and stamping on
    /// `clock`, stale after `maxAge`.
    public init(clock: LoadClock, wire: Wire, maxAge: Duration = .seconds(60)) {
        server = SocialServer(wire: wire)
        self.clock = clock
        self.maxAge = maxAge
        retry = RetryPolicy(attempts: 3, backoff: .exponential(initial: .milliseconds(400), maximum: .seconds(2)), clock: clock)
    }

    /// The request for the page after `cursor` (`nil`: the first page) — one
    /// function for the first page, a refresh and every "load more".
    func page(_ cursor: Int?) -> LoadRequest<Pages<Post, Int>, Failure> {
        let server = server
        return LoadRequest { () async throws(Failure) in try await server.posts(after: cursor) }
            .retry(retry)
            .stamped(by: clock)
    }

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        let server = server
        switch action {
        case .appeared(let now):
            return state.posts.loadIfNeeded(Action.posts, page(nil), maxAge: maxAge, at: now)
        case .pulledToRefresh:
            return state.posts.load(Action.posts, page(nil))
        case .lastRowAppeared:
            return state.posts.loadMore(Action.posts, page)
        case .likeTapped(let id):
            guard let post = state.posts.value?.first(where: { $0.id == id }) else { return .none }
            let liked = !post.isLiked
            return state.posts.edit(
                Action.posts, SetLiked(postID: id, liked: liked),
                LoadRequest { () async throws(Failure) in try await server.setLiked(id, liked) })
        case .queryChanged(let query):
            state.query = query
            return Effect.send(.search(query)).debounced(id: "search", for: .milliseconds(150), clock: clock)
        case .search(let query):
            return state.results.load(
                Action.results, LoadRequest { () async throws(Failure) in try await server.search(query) },
                overlap: .latestWins(cancellingEarlier: false))
        case .opened(let id):
            if state.details[id] == nil { state.details[id] = Loadable() }
            return state.details.withMutableValue(forKey: id) { detail in
                detail.loadIfNeeded({ .detail(id, $0) }, LoadRequest { () async throws(Failure) in try await server.detail(id) })
            } ?? .none
        case .posts(let load):
            return state.posts.reduce(load)
        case .results(let load):
            return state.results.reduce(load)
        case .detail:
            // Each detail child is run by `screen`'s `forEach`.
            return .none
        }
    }
}

extension SocialFeature {
    /// The feed with its detail children: each opened post's detail is a
    /// child of its own, with its own generations.
    public static func screen(clock: LoadClock, wire: Wire, maxAge: Duration = .seconds(60)) -> some Reducer<State, Action> {
        SocialFeature(clock: clock, wire: wire, maxAge: maxAge).forEach(
            \.details, action: Action.detail,
            extract: { if case .detail(let id, let load) = $0 { (id, load) } else { nil } }
        ) {
            LoadReducer<Detail, Failure>()
        }
    }
}

/// The pretend server of ``SocialFeature``: twelve posts in pages of four.
/// It answers a fetch with the posts as they were when the request arrived,
/// so a refresh can miss a like that lands while it travels; a like is
/// applied when its request answers.
@MainActor
final class SocialServer: Sendable {
    private var posts: [SocialFeature.Post] = (1...12).map { .init(id: $0, likes: $0 % 4) }
    private let wire: Wire

    static let pageSize = 4

    nonisolated init(wire: Wire) {
        self.wire = wire
    }

    func posts(after cursor: Int?) async throws(DemoAPI.Failure) -> Pages<SocialFeature.Post, Int> {
        let start = cursor ?? 0
        let snapshot = Array(posts[start..<min(start + Self.pageSize, posts.count)])
        try await wire.respond(to: "posts")
        let next = start + Self.pageSize < posts.count ? start + Self.pageSize : nil
        return Pages(snapshot, next: next)
    }

    func setLiked(_ id: Int, _ liked: Bool) async throws(DemoAPI.Failure) {
        try await wire.respond(to: "like")
        guard let index = posts.firstIndex(where: { $0.id == id }), posts[index].isLiked != liked else { return }
        posts[index].isLiked = liked
        posts[index].likes += liked ? 1 : -1
    }

    func search(_ query: String) async throws(DemoAPI.Failure) -> [Int] {
        try await wire.respond(to: "search")
        return posts.map(\.id).filter { "\($0)".hasPrefix(query) }
    }

    func detail(_ id: Int) async throws(DemoAPI.Failure) -> SocialFeature.Detail {
        try await wire.respond(to: "detail")
        return SocialFeature.Detail(postID: id, comments: id * 2)
    }
}

extension SocialFeature {
    /// A feed on `network`, whose requests wait on `clock`, stale after `maxAge`.
    public init(clock: LoadClock, network: Network, maxAge: Duration = .seconds(60)) {
        self.init(clock: clock, wire: Wire(clock: clock, network: network), maxAge: maxAge)
    }

    /// ``screen(clock:wire:maxAge:)`` on `network`, its requests waiting on `clock`.
    public static func screen(clock: LoadClock, network: Network, maxAge: Duration = .seconds(60)) -> some Reducer<State, Action> {
        screen(clock: clock, wire: Wire(clock: clock, network: network), maxAge: maxAge)
    }
}
