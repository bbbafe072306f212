import AsyncState

/// Search as you type: each query waits out a short debounce, then searches.
/// Only the wait is debounced; a search that has started keeps running when
/// a newer one starts, so a slow answer for an old query can arrive after a
/// newer one — and is dropped as stale, never shown.
public struct SearchFeature: Reducer {
    public struct State: Equatable, Sendable {
        public var query = ""
        public var results = Loadable<SearchResults, DemoAPI.Failure>()
        public init() {}
    }

    public enum Action: Equatable, Sendable, Codable {
        case queryChanged(String)
        /// The query held still for the debounce interval.
        case debounced(String)
        case results(LoadAction<SearchResults, DemoAPI.Failure>)
    }

    /// The identity of the debounce, so each keystroke replaces the last.
    private struct Debounce: Hashable, Sendable {}

    let api: DemoAPI
    let clock: any Clock<Duration>
    let debounce: Duration

    public init(api: DemoAPI, clock: any Clock<Duration>, debounce: Duration = .milliseconds(150)) {
        self.api = api
        self.clock = clock
        self.debounce = debounce
    }

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .queryChanged(let query):
            state.query = query
            return Effect.send(.debounced(query)).debounced(id: Debounce(), for: debounce, clock: clock)
        case .debounced(let query):
            let api = api
            return state.results.load(
                Action.results,
                LoadRequest { () async throws(DemoAPI.Failure) in
                    try await api.search(query)
                }, overlap: .latestWins(cancellingEarlier: false))
        case .results(let load):
            return state.results.reduce(load)
        }
    }
}
