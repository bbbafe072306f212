import AsyncState
import AsyncStateControls

/// An inbox on a flaky network: each load tries up to three times, waiting
/// longer after each failure (with seeded jitter), and the screen says so —
/// "Retrying (2 of 3) in 1.4 s…" — over a skeleton or over the messages.
public struct InboxFeature: Reducer {
    public struct State: Equatable, Sendable {
        public var messages = Loadable<[String], DemoAPI.Failure>()
        /// How many loads were asked for; a reload brings back something new.
        public var visits = 0
        public init() {}

        /// What the screen shows, with the retry banner while one is pending.
        public var face: String {
            let content = messages.value.map { $0.joined(separator: ", ") } ?? (messages.isLoading ? "skeleton" : "empty")
            guard let activity = messages.activity else {
                // A failure face only when there is nothing to show.
                guard messages.value != nil else { return messages.error.map { "failure face: \($0)" } ?? content }
                return content + (messages.error.map { "  [banner: \($0)]" } ?? "")
            }
            guard let wait = activity.wait, let attempts = activity.attempts else {
                return "⟳ \(content) (\(activity.reason))"
            }
            let seconds = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
            let tenths = (seconds * 10).rounded() / 10
            return "\(content)  [Retrying (\(activity.attempt) of \(attempts)) in \(tenths) s…]"
        }
    }

    public enum Action: Equatable, Sendable, Codable {
        case appeared
        case reloadTapped
        case cancelTapped
        case messages(LoadAction<[String], DemoAPI.Failure>)
    }

    let api: DemoAPI
    let retry: RetryPolicy<DemoAPI.Failure>

    /// An inbox whose retries wait on `clock`, with jitter drawn from `seed`.
    public init(api: DemoAPI, clock: any Clock<Duration>, seed: UInt64) {
        self.api = api
        self.retry = RetryPolicy(
            attempts: 3, backoff: .exponential(initial: .seconds(1), maximum: .seconds(4)),
            jitter: .proportional(0.25, using: SplitMix64(seed: seed)), clock: clock
        ) { failure, _ in failure == .serverError } // offline will not heal by waiting a second
    }

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .appeared, .reloadTapped:
            state.visits += 1
            let api = api, visit = state.visits
            let request = LoadRequest { () async throws(DemoAPI.Failure) in try await api.inbox(visit: visit) }
            return state.messages.load(Action.messages, request.retry(retry))
        case .cancelTapped:
            return .cancel(load: state.messages.cancel())
        case .messages(let load):
            return state.messages.reduce(load)
        }
    }
}
