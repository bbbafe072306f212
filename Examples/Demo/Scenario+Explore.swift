import AsyncState
import AsyncStateControls
import DemoFeatures

/// A scenario's feature explored (`asyncstate-demo explore <scenario>`):
/// its user actions as the script, its requests answered by the explorer in
/// every order.
struct Exploration: Sendable {
    var name: String
    /// Whether it has a deliberately broken variant (`--broken`).
    var hasBrokenVariant = false
    /// Explores, prints what it found, and says whether every invariant held.
    var run: @MainActor @Sendable (_ broken: Bool, Output) async -> Bool
}

extension Scenario {
    static let explorations: [Exploration] = [
        exploration("profile", from: .init(), script: [.appeared, .reloadTapped]) {
            ProfileFeature(api: DemoAPI(answering: $0))
        } broken: {
            StaleProfile(api: DemoAPI(answering: $0))
        },
        exploration("feed", from: .init(), script: [.appeared, .pulledToRefresh, .pulledToRefresh]) {
            FeedFeature(api: DemoAPI(answering: $0))
        },
        exploration("search", from: .init(), script: [.queryChanged("s"), .queryChanged("sw")]) {
            SearchFeature(api: DemoAPI(answering: $0), clock: $0.clock, debounce: .milliseconds(120))
        },
        exploration("save", from: .init(), script: [.saveTapped, .saveTapped, .deleteTapped]) {
            SaveFeature.reducer(api: DemoAPI(answering: $0))
        },
        exploration("cancel", from: .init(), script: [.appeared, .reloadTapped, .cancelTapped]) {
            ProfileFeature(api: DemoAPI(answering: $0))
        },
        // The first request fails, so a retry waits on the clock.
        exploration("retry", from: .init(), script: [.appeared, .reloadTapped, .cancelTapped]) {
            InboxFeature(api: DemoAPI(answering: $0, failing: ["inbox": [0]]), clock: $0.clock, seed: 1)
        },
        exploration("stream", from: .init(), script: [.search("swi"), .search("swif")]) {
            CatalogFeature(api: DemoAPI(answering: $0))
        },
        // The third page request fails, so some orderings show a retry row.
        exploration("pages", from: .init(), script: [.appeared, .lastRowAppeared, .pulledToRefresh, .lastRowAppeared]) {
            PagesFeature(wire: Wire(answering: $0, failing: ["page": [2]]))
        },
        // The second edit fails and rolls back alone.
        exploration("optimistic", from: .init(), script: [.appeared, .likeTapped(1), .pulledToRefresh, .likeTapped(2)]) {
            OptimisticFeature(wire: Wire(answering: $0, failing: ["edit": [1]]))
        },
        exploration(
            "cache", from: .init(),
            script: [.opened(.profile, user: 7), .opened(.chat, user: 7), .pulledToRefresh(user: 7), .serverChanged(user: 7)]
        ) { operations in
            CacheScreensFeature(
                api: DemoAPI(answering: operations), clock: operations.clock, staleAfter: .seconds(2), collectAfter: .seconds(3),
                becameActive: { ScheduledEvents(clock: operations.clock, at: []) })
        },
        // The first page request fails and is retried on the clock.
        exploration("social", from: .init(), script: [.appeared(.init(offset: .zero)), .likeTapped(2), .pulledToRefresh]) {
            SocialFeature.screen(clock: LoadClock($0.clock), wire: Wire(answering: $0, failing: ["posts": [0]]), maxAge: .seconds(5))
        },
    ]

    static func explorable(_ name: String) -> Exploration? {
        explorations.first { $0.name == name }
    }

    // The state and script are made when the exploration runs, on the main
    // actor: a feature's actions need not be `Sendable` (the cache's are not).
    private static func exploration<R: Reducer>(
        _ name: String, from initial: @autoclosure @escaping @MainActor @Sendable () -> R.State,
        script: @autoclosure @escaping @MainActor @Sendable () -> [R.Action],
        feature: @escaping @MainActor (ControlledOperations) -> R,
        broken: (@MainActor (ControlledOperations) -> any Reducer<R.State, R.Action>)? = nil
    ) -> Exploration {
        Exploration(name: name, hasBrokenVariant: broken != nil) { isBroken, output in
            let script = script()
            let scriptText = script.map { ValueDump.renderOneLine($0) }.joined(separator: ", ")
            if isBroken {
                guard let broken else {
                    output.line("asyncstate-demo: \(name) has no broken variant; try: asyncstate-demo explore profile --broken")
                    return false
                }
                return report(
                    await explore(initial(), script: script) { AnyReducer(broken($0)) },
                    name: "\(name) (broken: applies stale results)", script: scriptText, output: output)
            }
            return report(await explore(initial(), script: script, feature: feature), name: name, script: scriptText, output: output)
        }
    }

    /// Prints what an exploration found; `true` if every invariant held.
    @MainActor
    private static func report<State, Action>(
        _ report: ExplorationReport<State, Action>, name: String, script: String, output: Output
    ) -> Bool {
        output.line(output.styled("explore \(name)", .bold) + " — script: \(script)")
        guard let failure = report.failure else {
            let complete = report.isComplete ? "" : " (stopped at its bound: not every ordering was tried)"
            output.line(
                "checked \(report.orderingCount) orderings (\(report.stepCount) choices)\(complete); every invariant held: "
                    + report.promises.joined(separator: ", "))
            return report.isComplete
        }
        output.line(output.styled("ordering \(report.orderingCount) broke \"\(failure.invariant)\"", .red) + ": \(failure.message)")
        output.line("ordering: " + failure.ordering.joined(separator: " → "))
        output.line("minimized to \(failure.minimized.steps.count) of \(failure.recording.steps.count) steps (it replays):")
        for line in failure.minimized.stepLines { output.line(line) }
        return false
    }
}

/// Runs any reducer of one state and action type.
struct AnyReducer<State, Action>: Reducer {
    let base: any Reducer<State, Action>

    init(_ base: any Reducer<State, Action>) { self.base = base }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        base.reduce(into: &state, action: action)
    }
}

/// The profile feature as it would be written without the generation gate:
/// a reload does not cancel the load before it, and every answer is shown —
/// so an old answer that arrives last wins. Only `explore profile --broken`
/// runs it.
struct StaleProfile: Reducer {
    let api: DemoAPI

    func reduce(into state: inout ProfileFeature.State, action: ProfileFeature.Action) -> Effect<ProfileFeature.Action> {
        switch action {
        case .appeared, .reloadTapped:
            state.visits += 1
            let api = api, visit = state.visits
            return state.profile.load(
                ProfileFeature.Action.profile,
                LoadRequest { () async throws(DemoAPI.Failure) in try await api.profile(visit: visit) },
                overlap: .latestWins(cancellingEarlier: false))
        case .profile(.finished(_, let name)):
            state.profile = Loadable(value: name)
            return .none
        case .cancelTapped:
            return .cancel(load: state.profile.cancel())
        case .profile(let load):
            return state.profile.reduce(load)
        }
    }
}
