import AsyncState
import AsyncStateControls
import DemoFeatures

/// A scenario's feature explored (`asyncstate-demo explore <scenario>`):
/// its user actions as the script, its requests answered by the explorer in
/// every order.
struct Exploration: Sendable {
    var name: String
    var script: String
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
        exploration("cancel", from: .init(), script: [.appeared, .reloadTapped, .cancelTapped]) {
            ProfileFeature(api: DemoAPI(answering: $0))
        },
        exploration("feed", from: .init(), script: [.appeared, .pulledToRefresh, .pulledToRefresh]) {
            FeedFeature(api: DemoAPI(answering: $0))
        },
        exploration("save", from: .init(), script: [.saveTapped, .saveTapped, .deleteTapped]) {
            SaveFeature.reducer(api: DemoAPI(answering: $0))
        },
    ]

    static func explorable(_ name: String) -> Exploration? {
        explorations.first { $0.name == name }
    }

    private static func exploration<R: Reducer>(
        _ name: String, from initial: R.State, script: [R.Action], feature: @escaping @MainActor (ControlledOperations) -> R,
        broken: (@MainActor (ControlledOperations) -> any Reducer<R.State, R.Action>)? = nil
    ) -> Exploration where R.State: Sendable, R.Action: Sendable {
        let scriptText = script.map { ValueDump.renderOneLine($0) }.joined(separator: ", ")
        return Exploration(name: name, script: scriptText) { isBroken, output in
            if isBroken {
                guard let broken else {
                    output.line("asyncstate-demo: \(name) has no broken variant; try: asyncstate-demo explore profile --broken")
                    return false
                }
                return report(
                    await explore(initial, script: script) { AnyReducer(broken($0)) }, name: "\(name) (broken: applies stale results)",
                    script: scriptText, output: output)
            }
            return report(await explore(initial, script: script, feature: feature), name: name, script: scriptText, output: output)
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
