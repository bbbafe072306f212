import AsyncState

/// A profile screen: loads on appear, reloads on demand, and can cancel a
/// reload — which returns to the name already shown, never to an error.
public struct ProfileFeature: Reducer {
    public struct State: Equatable, Sendable {
        public var profile = Loadable<String, DemoAPI.Failure>()
        /// How many loads were asked for.
        public var visits = 0
        public init() {}
    }

    public enum Action: Equatable, Sendable, Codable {
        case appeared
        case reloadTapped
        case cancelTapped
        case profile(LoadAction<String, DemoAPI.Failure>)
    }

    let api: DemoAPI

    public init(api: DemoAPI) { self.api = api }

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .appeared, .reloadTapped:
            state.visits += 1
            let api = api, visit = state.visits
            return state.profile.load(
                Action.profile,
                LoadRequest { () async throws(DemoAPI.Failure) in
                    try await api.profile(visit: visit)
                })
        case .cancelTapped:
            return .cancel(load: state.profile.cancel())
        case .profile(let load):
            return state.profile.reduce(load)
        }
    }
}
