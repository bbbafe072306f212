import AsyncState

/// A feed with pull-to-refresh: the posts stay on screen while refreshing, and
/// a failed refresh keeps them, adding an error banner.
public struct FeedFeature: Reducer {
    public struct State: Equatable, Sendable {
        public var posts = Loadable<[String], DemoAPI.Failure>()
        /// How many refreshes were asked for; the pretend server returns newer posts each time.
        public var version = 0
        public init() {}

        /// What the screen shows: content (with a banner after a failure), a
        /// failure face only when there is nothing to show, or a skeleton.
        public var face: String {
            if let posts = posts.value {
                let banner = posts.isEmpty ? "" : posts.joined(separator: ", ")
                return posts.isEmpty ? "empty" : banner + (self.posts.error.map { "  [banner: \($0)]" } ?? "")
            } else if let error = posts.error {
                return "failure face: \(error)"
            } else {
                return posts.isLoading ? "skeleton (loading)" : "skeleton"
            }
        }
    }

    public enum Action: Equatable, Sendable, Codable {
        case appeared
        case pulledToRefresh
        case posts(LoadAction<[String], DemoAPI.Failure>)
    }

    let api: DemoAPI

    public init(api: DemoAPI) { self.api = api }

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .appeared, .pulledToRefresh:
            state.version += 1
            let api = api, version = state.version
            return state.posts.load(
                Action.posts,
                LoadRequest { () async throws(DemoAPI.Failure) in
                    try await api.feed(version: version)
                })
        case .posts(let load):
            return state.posts.reduce(load)
        }
    }
}
