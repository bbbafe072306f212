import AsyncState
import AsyncStateControls

/// Hands each load the next gate, so a test decides when and how every load
/// ends — also the follow-up loads a reducer starts by itself.
@MainActor
final class GateQueue {
    private var prepared: [Gate<Int>] = []
    /// Every gate a load has taken, in order.
    private(set) var taken: [Gate<Int>] = []

    /// Gates for the next loads, in order; later loads get fresh, closed gates.
    func prepare(_ count: Int) -> [Gate<Int>] {
        let gates = (0..<count).map { _ in Gate<Int>() }
        prepared += gates
        return gates
    }

    func take() -> Gate<Int> {
        let gate = prepared.isEmpty ? Gate<Int>() : prepared.removeFirst()
        taken.append(gate)
        return gate
    }

    /// A load operation that waits on the next gate; any error is `.offline`.
    nonisolated func operation() -> @MainActor @Sendable () async throws(TestError) -> Int {
        { () async throws(TestError) -> Int in
            do { return try await self.take().wait() } catch { throw .offline }
        }
    }
}

/// A feature with one fresh loadable, a poll and refetch triggers.
struct FreshFeature: Reducer {
    typealias Instant = TestClock.Instant

    struct State: Equatable {
        var user = Fresh()
    }

    enum Action {
        case load(OverlapPolicy)
        case invalidate
        case becameActive(Instant)
        case startPolling(Duration)
        case stopPolling
        case pollTick(Instant)
        case watch(AsyncThrowingStream<Void, any Error>)
        case user(FreshAction<Int, TestError, Instant>)
    }

    struct Poll: Hashable, Sendable {}

    let clock: TestClock
    let gates: GateQueue
    var maxAge: Duration = .seconds(60)

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .load(let overlap):
            return state.user.load(Action.user, clock: clock, overlap: overlap, operation: gates.operation())
        case .invalidate:
            return reduce(into: &state, action: .user(.invalidate))
        case .becameActive(let now):
            return state.user.refetchIfStale(maxAge: maxAge, at: now) { .load(Action.user, clock: clock, operation: gates.operation()) }
        case .startPolling(let interval):
            return .poll(id: Poll(), every: interval, clock: clock, Action.pollTick)
        case .stopPolling:
            return .cancel(id: Poll())
        case .pollTick:
            return state.user.load(Action.user, clock: clock, overlap: .firstWins, operation: gates.operation())
        case .watch(let triggers):
            return .triggers(triggers, clock: clock, action: Action.becameActive)
        case .user(let action):
            let (clock, gates) = (clock, gates)
            return state.user.reduce(action) { .load(Action.user, clock: clock, operation: gates.operation()) }
        }
    }
}

extension FreshFeature.Action: CustomStringConvertible {
    var description: String {
        switch self {
        case .load(let overlap): "load(\(overlap))"
        case .invalidate: "invalidate"
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
func makeFreshStore(maxAge: Duration = .seconds(60)) -> (
    Store<FreshFeature.State, FreshFeature.Action>, TestClock, GateQueue, TransitionLog<FreshFeature.State, FreshFeature.Action>
) {
    let clock = TestClock()
    let gates = GateQueue()
    let store = Store(initialState: FreshFeature.State(), reducer: FreshFeature(clock: clock, gates: gates, maxAge: maxAge))
    let log = TransitionLog(store) { "\($0.user)" }
    return (store, clock, gates, log)
}

/// Lets queued main-actor work run until `condition` holds (or gives up
/// after many rounds), for effects that wait on something other than a
/// test clock — an async stream.
@MainActor
func settle(until condition: () -> Bool) async {
    for _ in 0..<10_000 where !condition() { await Task.yield() }
}
