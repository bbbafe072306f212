import AsyncState

/// Group 8 (issue 14): what a retry step and a progress action cost, against
/// a `.finished` measured in the same run.
///
/// Each action is timed alone, on a load already in flight: a row of 4,096
/// loadables is started outside the stopwatch, then each row gets one
/// action inside it — a `.finished` for the baseline, a `.retrying` (one
/// failed attempt) or a `.progress` (one partial value) for the cases.
@MainActor
enum LifecycleCases {
    /// A failure for the retried loads.
    enum Failure: Equatable { case offline }

    typealias Row = Loadable<Int, Failure>

    static let width = 4_096
    static let retry = LoadRetry<Failure>(attempt: 1, of: 3, failure: .offline, wait: .seconds(1))

    static func run(_ budget: Budget) async -> [Result] {
        let n = budget.iterations(2_000_000)
        var results = await Harness.compare(
            group: "10", baseline: pure("Loadable.apply .finished, per action", n) { .finished($0, $1) },
            cases: [
                (pure("Loadable.apply .retrying, per action", n) { id, _ in .retrying(id, retry) }, 1.5),
                (pure("Loadable.apply .progress, per action", n) { .progress($0, $1) }, 1.5),
            ],
            budget: budget)
        results += await Harness.compare(
            group: "10", baseline: sent("Store.send .finished, per action", n) { .finished($0, $1) },
            cases: [
                (sent("Store.send .retrying, per action", n) { id, _ in .retrying(id, retry) }, 1.5),
                (sent("Store.send .progress, per action", n) { .progress($0, $1) }, 1.5),
            ],
            budget: budget)
        return results
    }

    /// The pure reducer: `action` applied to each of a row of loads in flight.
    static func pure(_ name: String, _ n: Int, _ action: @escaping (LoadID, Int) -> LoadAction<Int, Failure>) -> Measured {
        Measured(name: name, iterations: n) { n, stopwatch in
            var rows = Array(repeating: Row(), count: width)
            var id = LoadID(0)
            var done = 0
            var sum = 0
            while done < n {
                let batch = min(width, n - done)
                for row in 0..<batch {
                    id = id.next
                    _ = rows[row].apply(.started(id))
                }
                let actions = (0..<batch).map { action(LoadID(id.rawValue - UInt64(batch - 1 - $0)), done + $0) }
                stopwatch.start()
                for row in 0..<batch where rows[row].apply(actions[row]) == .applied { sum &+= 1 }
                stopwatch.stop()
                sum &+= rows[batch - 1].value ?? 0
                done += batch
            }
            return sum
        }
    }

    /// Through a store: `action` sent to each of a row of loads in flight.
    static func sent(_ name: String, _ n: Int, _ action: @escaping (LoadID, Int) -> LoadAction<Int, Failure>) -> Measured {
        Measured(name: name, iterations: n) { n, stopwatch in
            let store = Store(initialState: Array(repeating: Row(), count: width), reducer: Rows())
            var id = LoadID(0)
            var done = 0
            while done < n {
                let batch = min(width, n - done)
                for row in 0..<batch {
                    id = id.next
                    store.send(.init(row: row, load: .started(id)))
                }
                let actions = (0..<batch).map {
                    Rows.Action(row: $0, load: action(LoadID(id.rawValue - UInt64(batch - 1 - $0)), done + $0))
                }
                stopwatch.start()
                for row in 0..<batch { store.send(actions[row]) }
                stopwatch.stop()
                done += batch
            }
            return store.state[7].value ?? 0
        }
    }

    /// A row of loadables, each driven by its own load actions.
    struct Rows: Reducer {
        struct Action {
            var row: Int
            var load: LoadAction<Int, Failure>
        }

        func reduce(into state: inout [Row], action: Action) -> Effect<Action> {
            state[action.row].reduce(action.load)
        }
    }
}
