import AsyncState
import Observation

/// Issue 26's cases: what a `send` costs when views read parts of the
/// state, against setting a property of a plain `@Observable` class that
/// one view reads.
@MainActor
enum ObservationCases {
    /// A screen of 20 top-level fields, each read by a view of its own; the
    /// last is a loadable, so that an action can be dropped as stale.
    struct Wide: Reducer {
        struct State: Equatable {
            var f0 = 0, f1 = 0, f2 = 0, f3 = 0, f4 = 0, f5 = 0, f6 = 0, f7 = 0, f8 = 0, f9 = 0
            var f10 = 0, f11 = 0, f12 = 0, f13 = 0, f14 = 0, f15 = 0, f16 = 0, f17 = 0, f18 = 0
            var profile = Loadable<Int, Never>()
        }

        enum Action { case bump, nothing, profile(LoadAction<Int, Never>) }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .bump: state.f0 &+= 1
            case .nothing: break
            case .profile(let load): return state.profile.reduce(load)
            }
            return .none
        }
    }

    /// A list of rows, each read by a view of its own.
    struct Rows: Reducer {
        func reduce(into rows: inout KeyedStates<Int, Int>, action key: Int) -> Effect<Int> {
            rows.withMutableValue(forKey: key) { $0 &+= 1 }
            return .none
        }
    }

    /// Reads `body` inside `withObservationTracking`, as a view's body would.
    static func view(_ changes: ChangeCount, _ body: () -> Void) {
        withObservationTracking(body, onChange: { changes.add() })
    }

    /// A store of `Wide` with each of its 20 fields read by a view.
    static func wideStore(_ changes: ChangeCount) -> Store<Wide.State, Wide.Action> {
        let store = Store(initialState: Wide.State(), reducer: Wide())
        store.send(.profile(.started(LoadID(1))))
        store.send(.profile(.started(LoadID(2))))
        let reads: [(Store<Wide.State, Wide.Action>) -> Void] = [
            { _ = $0.f0 }, { _ = $0.f1 }, { _ = $0.f2 }, { _ = $0.f3 }, { _ = $0.f4 }, { _ = $0.f5 }, { _ = $0.f6 },
            { _ = $0.f7 }, { _ = $0.f8 }, { _ = $0.f9 }, { _ = $0.f10 }, { _ = $0.f11 }, { _ = $0.f12 }, { _ = $0.f13 },
            { _ = $0.f14 }, { _ = $0.f15 }, { _ = $0.f16 }, { _ = $0.f17 }, { _ = $0.f18 }, { _ = $0.profile },
        ]
        for read in reads { view(changes) { read(store) } }
        return store
    }

    /// A store of `count` rows, each read by a view.
    static func rowStore(_ count: Int, _ changes: ChangeCount) -> Store<KeyedStates<Int, Int>, Int> {
        let store = Store(initialState: KeyedStates((0..<count).map { ($0, 0) }), reducer: Rows())
        for key in 0..<count { view(changes) { _ = store[part: \.self, key: key] } }
        return store
    }

    static func run(_ budget: Budget) async -> [Result] {
        let n = budget.iterations(200_000)
        let plain = Measured(name: "plain @Observable set, one observer re-armed", iterations: n) { n in
            let counter = ObservableCounter()
            let changes = ChangeCount()
            for _ in 0..<n {
                view(changes) { _ = counter.value }
                counter.value &+= 1
            }
            precondition(changes.value == n, "every set must tell the observer")
            return counter.value &+ changes.value
        }
        let changesOne = Measured(name: "Store.send changing 1 of 20 observed fields, its reader re-armed", iterations: n) { n in
            let changes = ChangeCount()
            let store = wideStore(changes)
            for _ in 0..<n {
                store.send(.bump)
                view(changes) { _ = store.f0 }
            }
            precondition(changes.value == n, "each send must tell the reader of f0, and only it")
            return store.f1 &+ changes.value
        }
        let noOp = Measured(name: "Store.send of a no-op action, 20 observed fields", iterations: n) { n in
            let changes = ChangeCount()
            let store = wideStore(changes)
            for _ in 0..<n { store.send(.nothing) }
            precondition(changes.value == 0, "a no-op action must tell nobody")
            return store.f1 &+ changes.value
        }
        let dropped = Measured(name: "Store.send of a dropped result, 20 observed fields", iterations: n) { n in
            let changes = ChangeCount()
            let store = wideStore(changes)
            for i in 0..<n { store.send(.profile(.finished(LoadID(1), i))) }
            precondition(changes.value == 0, "a dropped result must tell nobody")
            return store.f1 &+ changes.value
        }
        var results = await Harness.compare(
            group: "12", baseline: plain, cases: [(changesOne, 2), (noOp, 1), (dropped, 1)], budget: budget)

        let oneRow = Measured(name: "Store.send changing 1 row, 1 row observed, its reader re-armed", iterations: n) { n in
            let changes = ChangeCount()
            let store = rowStore(1, changes)
            for _ in 0..<n {
                store.send(0)
                view(changes) { _ = store[part: \.self, key: 0] }
            }
            precondition(changes.value == n, "each send must tell the row's reader")
            return changes.value
        }
        let thousandRows = Measured(name: "Store.send changing 1 row, 1,000 rows observed, its reader re-armed", iterations: n) { n in
            let changes = ChangeCount()
            let store = rowStore(1_000, changes)
            for i in 0..<n {
                let key = (i &* 7) % 1_000
                store.send(key)
                view(changes) { _ = store[part: \.self, key: key] }
            }
            precondition(changes.value == n, "each send must tell exactly the changed row's reader")
            return changes.value
        }
        results += await Harness.compare(group: "12", baseline: oneRow, cases: [(thousandRows, 3)], budget: budget)
        return results
    }
}
