import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

@Suite("Store.logTransitions")
@MainActor
struct LogTransitionsTests {
    /// A counter with one loadable, so a log shows plain and load steps.
    struct Counter: Reducer {
        struct State: Equatable {
            var taps = 0
            var total = Loadable<Int, Never>()
        }

        enum Action: Equatable {
            case tap
            case nothing
            case total(LoadAction<Int, Never>)
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .tap:
                state.taps += 1
                return .none
            case .nothing:
                return .none
            case .total(let load):
                return state.total.reduce(load)
            }
        }
    }

    @Test("each step logs the action and the fields it changed, with the prefix")
    func logsFieldChanges() {
        let store = Store(initialState: Counter.State(), reducer: Counter())
        var log: [String] = []
        store.logTransitions(prefix: "counter") { log.append($0) }
        store.send(.tap)
        store.send(.nothing)
        store.send(.total(.started(LoadID(1))))
        #expect(
            log == [
                "[counter] .tap\n  taps: 0 → 1",
                "[counter] .nothing\n  (no change)",
                """
                [counter] .total(.started(#1))
                  total.state: .notLoaded → .loading
                  total.inFlightID: nil → #1
                  total.newestID: nil → #1
                  total.activity: nil → LoadActivity(firstLoad, attempt 1)
                """,
            ])
    }

    @Test("a plan is logged as a change of the activity; a queued load as its ID and the queue")
    func logsPlanAndQueue() {
        let store = Store(initialState: Counter.State(), reducer: Counter())
        var log: [String] = []
        store.send(.total(.started(LoadID(1))))
        store.logTransitions { log.append($0) }
        store.send(.total(.planned(LoadID(1), attempts: 3)))
        store.send(.total(.queued(LoadID(2))))
        #expect(
            log == [
                """
                .total(.planned(#1, attempts: 3))
                  total.activity: LoadActivity(firstLoad, attempt 1) → LoadActivity(firstLoad, attempt 1 of 3)
                """,
                """
                .total(.queued(#2))
                  total.newestID: #1 → #2
                  total.queuedIDs: + [#2]
                """,
            ])
    }

    @Test("a stale result is logged as dropped, without a change")
    func logsDrops() {
        let store = Store(initialState: Counter.State(), reducer: Counter())
        var log: [String] = []
        store.logTransitions { log.append($0) }
        store.send(.total(.finished(LoadID(9), 1)))
        #expect(log == ["dropped as stale: .total(.finished(#9, 1))"])
    }
}
