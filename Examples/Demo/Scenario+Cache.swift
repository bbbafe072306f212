import AsyncState
import AsyncStateControls
import DemoFeatures

extension Scenario {
    static let cache = Scenario(
        name: "cache",
        summary: "Two screens share user 7 through a keyed cache; invalidation, a lifecycle trigger and collection.",
        details:
            "The profile and the chat open user 7: one entry, one load. The chat closes and the profile keeps it. A pull to refresh starts a load, and the server says user 7 changed while it runs: that load settles, then a fresh one starts at once. User 7 goes stale after 2 s, so \"became active\" (an injected event sequence) reloads it. The search screen's user 8 is collected 3 s after it closes."
    ) { scenario, player, settings in
        let clock = TestClock()
        let lifecycle = ScheduledEvents(clock: clock, at: [.init(offset: .milliseconds(6_000))])
        let feature = CacheScreensFeature(
            api: DemoAPI(clock: clock, network: settings.network()), clock: clock,
            staleAfter: .seconds(2), collectAfter: .seconds(3), becameActive: { lifecycle })
        return await player.play(
            scenario, reducer: feature, initialState: .init(), clock: clock, presenter: .cache,
            script: [
                (.zero, .send(.watchLifecycle)),
                (.zero, .send(.opened(.profile, user: 7))),
                (.milliseconds(100), .send(.opened(.chat, user: 7))),
                (.milliseconds(500), .send(.opened(.search, user: 8))),
                (.milliseconds(1_000), .send(.closed(.chat))),
                (.milliseconds(1_200), .send(.pulledToRefresh(user: 7))),
                (.milliseconds(1_300), .happen("the server says user 7 changed") {}),
                (.milliseconds(1_300), .send(.serverChanged(user: 7))),
                (.milliseconds(1_500), .send(.closed(.search))),
                (.milliseconds(6_000), .happen("the app becomes active (an event of the injected lifecycle sequence)") {}),
            ]
        )
    }
}

extension Presenter where State == CacheScreensFeature<TestClock>.State, Action == CacheScreensFeature<TestClock>.Action {
    static let cache = Presenter(
        state: { state in
            let screens = CacheScreensFeature<TestClock>.Screen.allCases.compactMap { screen in
                state.open[screen].map { "\(screen.rawValue)→\($0)" }
            }
            return "screens: \(screens.isEmpty ? "none" : screens.joined(separator: ", ")) · cache: \(state.users)"
        },
        action: { action in
            switch action {
            case .opened(let screen, let user): "opened(\(screen.rawValue), user: \(user))"
            case .closed(let screen): "closed(\(screen.rawValue))"
            case .serverChanged(let user): "serverChanged(user: \(user))"
            case .pulledToRefresh(let user): "pulledToRefresh(user: \(user))"
            case .watchLifecycle: "watchLifecycle"
            case .users(let action): "users.\(action)"
            }
        },
        load: { action in
            if case .users(.entry(let key, let load)) = action { LoadEvent(load, label: "user \(key)") } else { nil }
        }
    )
}
