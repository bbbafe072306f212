import AsyncState
import AsyncStateControls

/// A search: each query loads its results; the newest query wins. Its
/// actions are `Codable`, so its recordings can be written to files.
struct SearchFeature: Reducer {
    struct State: Equatable {
        var query = ""
        var results = Loadable<String, SearchFailure>()
    }

    enum Action: Equatable, Codable {
        case search(String)
        case cancel
        case results(LoadAction<String, SearchFailure>)
    }

    let fetch: @MainActor @Sendable (String) async throws(SearchFailure) -> String
    /// What a new search does to the one in flight.
    var overlap: OverlapPolicy = .latestWins
    /// Applies every result, stale or not — a bug the explorer must find.
    var appliesStaleResults = false
    /// Never takes a result in — a load stuck loading, another bug.
    var ignoresResults = false
    /// Lets a load's `.cancelled` go by without handing it to the loadable,
    /// which has already settled: no bug, though nothing marks it dropped.
    var ignoresCancelled = false

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .search(let query):
            state.query = query
            let fetch = fetch
            return state.results.load(
                Action.results, LoadRequest { () async throws(SearchFailure) in try await fetch(query) }, overlap: overlap)
        case .cancel:
            return .cancel(load: state.results.cancel())
        case .results(.finished(_, let value)) where appliesStaleResults:
            state.results = Loadable(value: value)
            return .none
        case .results(.finished) where ignoresResults:
            return .none
        case .results(.cancelled) where ignoresCancelled:
            return .none
        case .results(let load):
            return state.results.reduce(load)
        }
    }
}

struct SearchFailure: Error, Equatable, Codable {
    var reason: String
}
