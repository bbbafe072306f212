import AsyncState
import AsyncStateControls

#if canImport(AsyncStateTesting)
    import AsyncStateTesting
#endif

/// Issue 27's cases: what recording adds to a `send`, and what exploring
/// costs per ordering against a hand-written test store test of one.
@MainActor
enum RecordingCases {
    /// A screen's state: a counter, a loadable, and (for the list case) rows.
    struct Screen: Reducer {
        struct State: Equatable {
            var taps = 0
            var profile = Loadable<String, Never>()
            var rows: [Int] = []
        }

        enum Action { case tap, addRow, profile(LoadAction<String, Never>) }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .tap: state.taps &+= 1
            case .addRow: state.rows[state.taps % state.rows.count] &+= 1
            case .profile(let load): return state.profile.reduce(load)
            }
            return .none
        }
    }

    enum SearchFailure: Error, Equatable { case offline }

    /// Two overlapping searches, the newest winning.
    struct Search: Reducer {
        struct State: Equatable {
            var query = ""
            var results = Loadable<String, SearchFailure>()
        }

        enum Action: Equatable { case typed(String), results(LoadAction<String, SearchFailure>) }

        let fetch: @MainActor @Sendable (String) async throws(SearchFailure) -> String

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .typed(let query):
                state.query = query
                let fetch = fetch
                return state.results.load(Action.results, LoadRequest { () async throws(SearchFailure) in try await fetch(query) })
            case .results(let load):
                return state.results.reduce(load)
            }
        }
    }

    static func run(_ budget: Budget) async -> [Result] {
        let n = budget.iterations(200_000)
        func screen(rows: Int = 0) -> Store<Screen.State, Screen.Action> {
            var state = Screen.State()
            state.rows = Array(repeating: 0, count: rows)
            let store = Store(initialState: state, reducer: Screen())
            store.send(.profile(.started(LoadID(1))))
            return store
        }
        let plain = Measured(name: "Store.send, not recording", iterations: n) { n in
            let store = screen()
            for _ in 0..<n { store.send(.tap) }
            return store.state.taps
        }
        let recording = Measured(name: "Store.send, recording (buffer of 1,000 steps, full)", iterations: n) { n in
            let store = screen()
            let recorder = Recorder<Screen.State, Screen.Action>(capacity: 1_000)
            store.record(into: recorder)
            for _ in 0..<n { store.send(.tap) }
            return store.state.taps &+ recorder.stepCount
        }
        let watching = Measured(name: "Store.send, recording with a watched clock", iterations: n) { n in
            let store = screen()
            let recorder = Recorder<Screen.State, Screen.Action>(capacity: 1_000)
            _ = recorder.watching(ContinuousClock(), named: "clock")
            store.record(into: recorder)
            for _ in 0..<n { store.send(.tap) }
            return store.state.taps &+ recorder.stepCount
        }
        var results = await Harness.compare(
            group: "13", baseline: plain, cases: [(recording, 2), (watching, 2)], budget: budget)

        let listPlain = Measured(name: "Store.send changing 1 of 1,000 rows, not recording", iterations: n / 10) { n in
            let store = screen(rows: 1_000)
            for _ in 0..<n { store.send(.addRow) }
            return store.state.rows[0]
        }
        let listRecording = Measured(name: "Store.send changing 1 of 1,000 rows, recording", iterations: n / 10) { n in
            let store = screen(rows: 1_000)
            let recorder = Recorder<Screen.State, Screen.Action>(capacity: 1_000)
            store.record(into: recorder)
            for _ in 0..<n { store.send(.addRow) }
            return store.state.rows[0] &+ recorder.stepCount
        }
        results += await Harness.compare(group: "13", baseline: listPlain, cases: [(listRecording, nil)], budget: budget)
        results += await exploring(budget)
        return results
    }

    /// Exploring two overlapping searches (3 orderings), per ordering,
    /// against a test store test of one of them written by hand with gates.
    static func exploring(_ budget: Budget) async -> [Result] {
        #if canImport(AsyncStateTesting)
            let budget = budget.finer(3)
            let n = budget.iterations(3_000)
            let handWritten = Measured(name: "TestStore test of one ordering of 2 searches, by hand", iterations: n) { n in
                var count = 0
                for _ in 0..<n {
                    let gates = [Gate<String>(), Gate<String>()]
                    let calls = Calls()
                    let store = TestStore(
                        initialState: Search.State(),
                        reducer: Search(fetch: { _ throws(SearchFailure) in
                            let gate = gates[calls.next()]
                            return (try? await gate.wait()) ?? ""
                        }))
                    store.send(.typed("s")) { $0.query = "s" }
                    await store.receive(.results(.started(LoadID(1)))) { $0.results = Loadable(expecting: .loading, inFlightID: LoadID(1)) }
                    gates[0].open(with: "r0")
                    await store.receive(.results(.finished(LoadID(1), "r0"))) {
                        $0.results = Loadable(expecting: .success(value: "r0"), newestID: LoadID(1))
                    }
                    store.send(.typed("sw")) { $0.query = "sw" }
                    await store.receive(.results(.started(LoadID(2)))) {
                        $0.results = Loadable(
                            expecting: .refreshing(value: "r0"), settledState: .success(value: "r0"), inFlightID: LoadID(2))
                    }
                    gates[1].open(with: "r1")
                    await store.receive(.results(.finished(LoadID(2), "r1"))) {
                        $0.results = Loadable(expecting: .success(value: "r1"), newestID: LoadID(2))
                    }
                    await store.finish()
                    count &+= store.state.query.count
                }
                return count
            }
            let explored = Measured(name: "explore: 2 searches, per ordering (3 orderings)", iterations: n) { n in
                var orderings = 0
                for _ in 0..<(n + 2) / 3 {
                    let report = await explore(Search.State(), script: [.typed("s"), .typed("sw")]) { operations in
                        Search(
                            fetch: operations.operation("fetch") { query, call in Swift.Result<String, SearchFailure>.success("r\(call)") })
                    }
                    precondition(report.failure == nil && report.orderingCount == 3)
                    orderings += report.orderingCount
                }
                return orderings
            }
            // Normalize the exploration to one ordering: it ran ⌈n/3⌉ explorations of 3.
            var results = await Harness.compare(group: "13", baseline: handWritten, cases: [(explored, 2)], budget: budget)
            let perOrdering = Double(n) / Double(((n + 2) / 3) * 3)
            results[1].sample.values = results[1].sample.values.map { $0 * perOrdering }
            results[1].roundRatios = results[1].roundRatios.map { $0 * perOrdering }
            return results
        #else
            return []
        #endif
    }
}

/// Hands out call numbers.
@MainActor
final class Calls {
    private var count = 0
    func next() -> Int {
        defer { count += 1 }
        return count
    }
}
