import AsyncState
import AsyncStateTesting

/// A feature with one loadable resource whose operations the tests control.
package struct ProfileFeature: Reducer {
    package struct State: Equatable {
        package var profile = Loadable<Int, TestError>()

        package init() {}
    }

    package enum Action {
        /// Load, waiting on `gate` (and honoring cancellation).
        case load(Gate<Int>, OverlapPolicy = .latestWins)
        /// Load, waiting on `gate` while ignoring cancellation.
        case loadIgnoringCancellation(Gate<Int>)
        /// Load with a typed-throws operation that fails with `error` at once.
        case loadFailing(TestError)
        /// Load with an operation that throws `CancellationError` by itself.
        case loadThrowingCancellation
        case cancel
        case reset
        case profile(LoadAction<Int, TestError>)
    }

    package init() {}

    package func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .load(let gate, let policy):
            return state.profile.load(Action.profile, LoadRequest(mapError: { _ in .offline }) { try await gate.wait() }, overlap: policy)
        case .loadIgnoringCancellation(let gate):
            return state.profile.load(Action.profile, LoadRequest(mapError: { _ in .offline }) { await gate.value() ?? -1 })
        case .loadFailing(let error):
            return state.profile.load(Action.profile, LoadRequest { () async throws(TestError) -> Int in throw error })
        case .loadThrowingCancellation:
            return state.profile.load(Action.profile, LoadRequest(mapError: { _ in .offline }) { throw CancellationError() })
        case .cancel:
            return .cancel(load: state.profile.cancel())
        case .reset:
            return .cancel(load: state.profile.reset())
        case .profile(let load):
            return state.profile.reduce(load)
        }
    }
}

extension ProfileFeature.Action: CustomStringConvertible {
    package var description: String {
        switch self {
        case .load: "load"
        case .loadIgnoringCancellation: "loadIgnoringCancellation"
        case .loadFailing(let error): "loadFailing(\(error))"
        case .loadThrowingCancellation: "loadThrowingCancellation"
        case .cancel: "cancel"
        case .reset: "reset"
        case .profile(let load): "profile(\(load))"
        }
    }
}

/// Records every transition of a store as `action -> state` lines, with drops marked.
@MainActor
package final class TransitionLog<State, Action> {
    package private(set) var lines: [String] = []
    package private(set) var dropped: [String] = []

    package init(_ store: Store<State, Action>, state describe: @escaping (State) -> String) {
        store.observeTransitions { [weak self] transition in
            let action = "\(transition.action)"
            self?.lines.append("\(action) -> \(describe(transition.state))\(transition.isDropped ? " [dropped]" : "")")
            if transition.isDropped { self?.dropped.append(action) }
        }
    }
}

@MainActor
package func makeProfileStore(
    _ start: EffectStart = .preferred
) -> (Store<ProfileFeature.State, ProfileFeature.Action>, TransitionLog<ProfileFeature.State, ProfileFeature.Action>) {
    let store = Store(initialState: ProfileFeature.State(), reducer: ProfileFeature())
    store._effectStart = start
    let log = TransitionLog(store) { "\($0.profile)" }
    return (store, log)
}
