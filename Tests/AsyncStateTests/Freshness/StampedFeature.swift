import AsyncState
import AsyncStateControls
import AsyncStateTestSupport

/// A feature with one loadable stamped by a clock, a poll and refetch triggers.
struct StampedFeature: Reducer {
    struct State: Equatable {
        var user = Loadable<Int, TestError>()
    }

    enum Action {
        case load(OverlapPolicy)
        /// The server says the user changed: mark it stale and reload at once.
        case invalidate
        /// Only mark the user stale, reloading nothing.
        case markStale
        case becameActive(LoadClock.Instant)
        case startPolling(Duration)
        case stopPolling
        case pollTick(TestClock.Instant)
        case watch(AsyncThrowingStream<Void, any Error>)
        case user(LoadAction<Int, TestError>)
    }

    struct Poll: Hashable, Sendable {}

    let clock: TestClock
    let loadClock: LoadClock
    let gates: GateQueue<Int>
    var maxAge: Duration = .seconds(60)

    init(clock: TestClock, gates: GateQueue<Int>, maxAge: Duration) {
        self.clock = clock
        self.loadClock = LoadClock(clock)
        self.gates = gates
        self.maxAge = maxAge
    }

    var request: LoadRequest<Int, TestError> { gates.request().stamped(by: loadClock) }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .load(let overlap):
            return state.user.load(Action.user, request, overlap: overlap)
        case .invalidate:
            state.user.invalidate()
            return state.user.load(Action.user, request)
        case .markStale:
            state.user.invalidate()
            return .none
        case .becameActive(let now):
            return state.user.loadIfNeeded(Action.user, request, maxAge: maxAge, at: now)
        case .startPolling(let interval):
            return .poll(id: Poll(), every: interval, clock: clock, Action.pollTick)
        case .stopPolling:
            return .cancel(id: Poll())
        case .pollTick:
            return state.user.load(Action.user, request, overlap: .firstWins)
        case .watch(let triggers):
            return .triggers(id: "active", { triggers }, clock: loadClock, action: Action.becameActive)
        case .user(let action):
            return state.user.reduce(action)
        }
    }
}

extension StampedFeature.Action: CustomStringConvertible {
    var description: String {
        switch self {
        case .load(let overlap): "load(\(overlap))"
        case .invalidate: "invalidate"
        case .markStale: "markStale"
        case .becameActive(let now): "becameActive(\(now))"
        case .startPolling(let interval): "startPolling(\(interval))"
        case .stopPolling: "stopPolling"
        case .pollTick(let now): "pollTick(\(now))"
        case .watch: "watch"
        case .user(let action): "user(\(action))"
        }
    }
}

@MainActor
func makeStampedStore(maxAge: Duration = .seconds(60)) -> (
    Store<StampedFeature.State, StampedFeature.Action>, TestClock, GateQueue<Int>,
    TransitionLog<StampedFeature.State, StampedFeature.Action>
) {
    let clock = TestClock()
    let gates = GateQueue<Int>()
    let store = Store(initialState: StampedFeature.State(), reducer: StampedFeature(clock: clock, gates: gates, maxAge: maxAge))
    let log = TransitionLog(store) { "\($0.user)" }
    return (store, clock, gates, log)
}
