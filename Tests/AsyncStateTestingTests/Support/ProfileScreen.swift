import AsyncState
import AsyncStateTesting

/// A small real feature for the test-tool tests: a profile that refreshes,
/// with each load waiting on a gate the test holds.
struct ProfileScreen: Reducer {
    struct State: Equatable {
        var title = "Profile"
        var profile = Loadable<String, LoadFailure>()
    }

    enum LoadFailure: Error, Equatable, Sendable { case offline }

    enum Action: Equatable {
        case refresh
        /// Refresh, letting this load run to the end if a newer one supersedes it.
        case refreshKeepingEarlier
        case cancel
        case rename(String)
        case profile(LoadAction<String, LoadFailure>)
    }

    /// The gates loads wait on, one per load in order.
    let gates: GateQueue

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .refresh:
            let gate = gates.next()
            return state.profile.load(Action.profile, LoadRequest(mapError: { _ in .offline }) { try await gate.wait() })
        case .refreshKeepingEarlier:
            let gate = gates.next()
            return state.profile.load(
                Action.profile, LoadRequest(mapError: { _ in .offline }) { try await gate.wait() },
                overlap: .latestWins(cancellingEarlier: false))
        case .cancel:
            return .cancel(load: state.profile.cancel())
        case .rename(let title):
            state.title = title
            return .none
        case .profile(let load):
            return state.profile.reduce(load)
        }
    }
}

/// Hands out gates in order, so a test can release the loads it started in any order.
final class GateQueue: Sendable {
    let gates: [Gate<String>]
    private let cursor = Counter()

    init(count: Int) { gates = (0..<count).map { _ in Gate<String>() } }

    subscript(index: Int) -> Gate<String> { gates[index] }

    func next() -> Gate<String> { gates[cursor.next() % gates.count] }
}

final class Counter: Sendable {
    private let value = LockedValue(0)

    func next() -> Int {
        value.withLock { value in
            defer { value += 1 }
            return value
        }
    }
}
