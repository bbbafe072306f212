import AsyncState

/// A catalogue search whose results arrive in pages, shown as they come.
/// A newer query supersedes the stream in flight; the old stream is left to
/// run (its work is harmless) and every late page it sends is dropped.
public struct CatalogFeature: Reducer {
    public struct State: Equatable, Sendable {
        public var query = ""
        public var results = Loadable<[String], DemoAPI.Failure>()
        public init() {}
    }

    public enum Action: Equatable, Sendable, Codable {
        case search(String)
        case results(LoadAction<[String], DemoAPI.Failure>)
    }

    let api: DemoAPI

    public init(api: DemoAPI) { self.api = api }

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .search(let query):
            state.query = query
            let api = api
            let pages = LoadRequest(
                stream: { api.catalogPages(query) }, mode: .startEmpty, initial: [], mapError: { $0 as? DemoAPI.Failure ?? .serverError }
            ) { results, page in results.append(contentsOf: page) }
            return state.results.load(Action.results, pages, overlap: .latestWins(cancellingEarlier: false))
        case .results(let load):
            return state.results.reduce(load)
        }
    }
}
