import AsyncState
import AsyncStateControls

/// An infinite-scroll list with pull to refresh: pages load as the last row
/// appears; a refresh replaces every page and supersedes a "load more" in
/// flight, whose page is dropped; a failed "load more" keeps the list and
/// shows a retry row.
public struct PagesFeature: Reducer {
    public typealias Feed = Loadable<Pages<String, Int>, DemoAPI.Failure>

    public struct State: Equatable, Sendable {
        public var feed = Feed()
        /// How many times the list was (re)loaded; the pretend server numbers rows with it.
        public var version = 0
        public init() {}

        /// What the screen shows, from top to bottom.
        public var face: String {
            guard let pages = feed.value else {
                return feed.error.map { "failure face: \($0)" } ?? (feed.isLoading ? "skeleton (loading)" : "skeleton")
            }
            var rows = pages.isEmpty ? "no rows" : "rows \(pages.first!)…\(pages.last!) (\(pages.count))"
            if feed.isLoading { rows = "⟳ " + rows }
            if let error = feed.error { rows += " [banner: \(error)]" }
            let bottom =
                if feed.isLoadingMore { "loading-more row" } else if let error = feed.moreError {
                    "retry row (\(error))"
                } else if let next = pages.next {
                    "more at page \(next)"
                } else { "end of list" }
            return "\(pages.pageCount) page\(pages.pageCount == 1 ? "" : "s") · \(rows) · \(bottom)"
        }
    }

    public enum Action: Equatable, Sendable, Codable {
        case appeared
        case pulledToRefresh
        case lastRowAppeared
        case retryTapped
        case feed(LoadAction<Pages<String, Int>, DemoAPI.Failure>)
    }

    let server: PagesServer

    /// A list whose server answers over `wire`.
    public init(wire: Wire) {
        server = PagesServer(wire: wire)
    }

    /// A list whose server answers after `network`'s latencies on `clock`.
    public init(clock: any Clock<Duration>, network: Network) {
        self.init(wire: Wire(clock: clock, network: network))
    }

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .appeared, .pulledToRefresh:
            state.version += 1
            return state.feed.load(Action.feed, page(version: state.version)(nil))
        case .lastRowAppeared, .retryTapped:
            // Safe to send every time the last row appears: it starts nothing
            // while a page is loading, during a refresh, or at the end.
            return state.feed.loadMore(Action.feed, page(version: state.version))
        case .feed(let action):
            return state.feed.reduce(action)
        }
    }

    /// The request for the page at a cursor (`nil`: the first page) of the
    /// list's version `version` — one function for the first page and the next.
    func page(version: Int) -> (Int?) -> LoadRequest<Pages<String, Int>, DemoAPI.Failure> {
        let server = server
        return { cursor in
            LoadRequest { () async throws(DemoAPI.Failure) in try await server.page(version: version, at: cursor ?? 1) }
        }
    }
}

/// The pretend server of ``PagesFeature``: four pages of three rows.
struct PagesServer: Sendable {
    let wire: Wire

    static let pageCount = 4

    @MainActor
    func page(version: Int, at number: Int) async throws(DemoAPI.Failure) -> Pages<String, Int> {
        try await wire.respond(to: "page")
        let rows = (1...3).map { "\(version).\((number - 1) * 3 + $0)" }
        return Pages(rows, next: number < Self.pageCount ? number + 1 : nil)
    }
}
