import AsyncState
import AsyncStateControls

/// An infinite-scroll list with pull to refresh: pages load as the last row
/// appears; a refresh replaces every page and supersedes a "load more" in
/// flight, whose page is dropped; a failed "load more" keeps the list and
/// shows a retry row.
public struct PagesFeature: Reducer {
    public typealias Feed = PagedLoadable<String, Int, DemoAPI.Failure>

    public struct State: Equatable, Sendable {
        public var feed = Feed()
        /// How many times the list was (re)loaded; the pretend server numbers rows with it.
        public var version = 0
        public init() {}

        /// What the screen shows, from top to bottom.
        public var face: String {
            guard feed.hasLoaded else {
                return feed.listError.map { "failure face: \($0)" } ?? (feed.isLoadingList ? "skeleton (loading)" : "skeleton")
            }
            var rows = feed.elements.isEmpty ? "no rows" : "rows \(feed.elements.first!)…\(feed.elements.last!) (\(feed.elements.count))"
            if feed.isLoadingList { rows = "⟳ " + rows }
            if let error = feed.listError { rows += " [banner: \(error)]" }
            let bottom =
                if feed.isLoadingMore { "loading-more row" } else if let error = feed.pageError {
                    "retry row (\(error))"
                } else if feed.hasMore {
                    "more at page \(feed.nextCursor!)"
                } else { "end of list" }
            return "\(feed.generation) · \(rows) · \(bottom)"
        }
    }

    public enum Action: Equatable, Sendable {
        case appeared
        case pulledToRefresh
        case lastRowAppeared
        case retryTapped
        case feed(PageAction<String, Int, DemoAPI.Failure>)
    }

    let server: PagesServer

    public init(clock: any Clock<Duration>, network: Network) {
        server = PagesServer(clock: clock, network: network)
    }

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .appeared, .pulledToRefresh:
            state.version += 1
            let server = server, version = state.version
            return state.feed.refresh(Action.feed) { () async throws(DemoAPI.Failure) in
                try await server.page(version: version, at: 1)
            }
        case .lastRowAppeared, .retryTapped:
            // Safe to send every time the last row appears: it starts nothing
            // while a page is loading, during a refresh, or at the end.
            let server = server, version = state.version
            return state.feed.loadMore(Action.feed) { page async throws(DemoAPI.Failure) in
                try await server.page(version: version, at: page)
            }
        case .feed(let action):
            return state.feed.reduce(action)
        }
    }
}

/// The pretend server of ``PagesFeature``: four pages of three rows.
struct PagesServer: Sendable {
    let clock: any Clock<Duration>
    let network: Network

    static let pageCount = 4

    @MainActor
    func page(version: Int, at number: Int) async throws(DemoAPI.Failure) -> Page<String, Int> {
        let plan = network.plan(for: "page")
        do {
            try await clock.sleep(for: plan.latency)
        } catch {
            throw .offline // Cancelled while waiting; the load reports `.cancelled`.
        }
        if let failure = plan.failure { throw failure }
        let rows = (1...3).map { "\(version).\((number - 1) * 3 + $0)" }
        return Page(rows, next: number < Self.pageCount ? number + 1 : nil)
    }
}
