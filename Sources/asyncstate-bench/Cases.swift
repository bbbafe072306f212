import AsyncState
import Observation

/// The benchmark cases of issue 7, each measured against its baseline in the same run.
@MainActor
enum Cases {
    // MARK: 1. The value model

    static func valueModel(_ budget: Budget) async -> [Result] {
        let n = budget.iterations(2_000_000)
        let baseline = Measured(name: "plain enum switch (2 events)", iterations: n) { n in
            var state = PlainLoadState.idle
            for i in 0..<n {
                state.handle(.start)
                state.handle(.finish(i))
            }
            if case .loaded(let value) = state { return value }
            return 0
        }
        let transitions = Measured(name: "AsyncState start/set/stop (3 transitions)", iterations: n) { n in
            var state = AsyncState<Int, Never>.notLoaded
            for i in 0..<n {
                state.startLoading()
                state.setValue(i)
                state.stopLoading()
            }
            return state.value ?? 0
        }
        let reducer = Measured(name: "Loadable.apply .started + .finished (2 actions)", iterations: n) { n in
            var loadable = Loadable<Int, Never>()
            var id = LoadID(0)
            for i in 0..<n {
                id = id.next
                loadable.apply(.started(id))
                loadable.apply(.finished(id, i))
            }
            return loadable.value ?? 0
        }
        let stale = Measured(name: "Loadable.apply stale .finished (dropped)", iterations: n) { n in
            var loadable = Loadable<Int, Never>()
            loadable.apply(.started(LoadID(2)))
            var dropped = 0
            for i in 0..<n where loadable.apply(.finished(LoadID(1), i)) == .droppedAsStale {
                dropped &+= 1
            }
            return dropped
        }
        return await Harness.compare(group: "1", baseline: baseline, cases: [(transitions, nil), (reducer, nil), (stale, nil)], budget: budget)
    }

    // MARK: 2. Store.send

    static func send(_ budget: Budget) async -> [Result] {
        let n = budget.iterations(2_000_000)
        let observed = budget.iterations(200_000)
        let direct = Measured(name: "direct method call on a final class", iterations: n) { n in
            let counter = DirectCounter()
            for _ in 0..<n { counter.increment() }
            return counter.value
        }
        let send = Measured(name: "Store.send, no effects, no observer", iterations: n) { n in
            let store = Store(initialState: 0, reducer: Counter())
            for _ in 0..<n { store.send(.increment) }
            return store.state
        }
        let plainObservable = Measured(name: "plain @Observable set, no observer (scale)", iterations: n) { n in
            let counter = ObservableCounter()
            for _ in 0..<n { counter.value &+= 1 }
            return counter.value
        }
        let genericObservable = Measured(name: "generic @Observable set, no observer (scale)", iterations: budget.iterations(200_000)) { n in
            let counter = GenericObservableCounter<Int>()
            for _ in 0..<n { counter.value &+= 1 }
            return counter.value
        }
        var results = await Harness.compare(
            group: "2", baseline: direct,
            cases: [(send, 40), (plainObservable, nil), (genericObservable, nil)],
            budget: budget
        )

        let plainObserved = Measured(name: "plain @Observable set, observer re-armed", iterations: observed) { n in
            let counter = ObservableCounter()
            let changes = ChangeCount()
            for _ in 0..<n {
                withObservationTracking { _ = counter.value } onChange: { changes.add() }
                counter.value &+= 1
            }
            return counter.value &+ changes.value
        }
        let storeObserved = Measured(name: "Store.send, observer re-armed", iterations: observed) { n in
            let store = Store(initialState: 0, reducer: Counter())
            let changes = ChangeCount()
            for _ in 0..<n {
                withObservationTracking { _ = store.state } onChange: { changes.add() }
                store.send(.increment)
            }
            precondition(changes.value == n, "every send must notify the observer")
            return store.state &+ changes.value
        }
        results += await Harness.compare(group: "2", baseline: plainObserved, cases: [(storeObserved, 1.2)], budget: budget)
        return results
    }

    // MARK: 3. Scoped and keyed children

    static func children(_ budget: Budget) async -> [Result] {
        let n = budget.iterations(1_000_000)
        let root = Measured(name: "Store.send to a root reducer", iterations: n) { n in
            let store = Store(initialState: 0, reducer: Counter())
            for _ in 0..<n { store.send(.increment) }
            return store.state
        }
        let scoped = Measured(name: "Store.send to a scoped child", iterations: n) { n in
            let store = Store(initialState: Parent.State(), reducer: Parent.scoped)
            for _ in 0..<n { store.send(.child(.increment)) }
            return store.state.child
        }
        let keyed = Measured(name: "Store.send to a keyed child (1,000 keys)", iterations: n) { n in
            let store = Store(initialState: Parent.State(), reducer: Parent.keyed)
            for i in 0..<n { store.send(.row(i % 1_000, .increment)) }
            return store.state.rows[7] ?? 0
        }
        return await Harness.compare(group: "3", baseline: root, cases: [(scoped, 3), (keyed, 3)], budget: budget)
    }

    // MARK: 4. Load round trip

    static func loadRoundTrip(_ budget: Budget) async -> [Result] {
        let n = budget.iterations(100_000)
        let hop = Measured(name: "bare Task {} hop from the main actor", iterations: n) { n in
            var total = 0
            for i in 0..<n {
                total &+= await Task { i }.value
            }
            return total
        }
        let load = Measured(name: "load round trip (.started → op → .finished)", iterations: n) { n in
            let store = Store(initialState: Loader.State(), reducer: Loader(parking: Parking()))
            for _ in 0..<n { await store.send(.loadNow).finish() }
            return store.state.item.value ?? 0
        }
        return await Harness.compare(group: "4", baseline: hop, cases: [(load, 1.3)], budget: budget)
    }

    // MARK: 5. Stale drops

    /// Each iteration starts a load that supersedes the previous one, then lets
    /// the previous one answer — its result is dropped — while `inFlight` loads
    /// stay suspended in the background.
    static func staleDrops(_ budget: Budget) async -> [Result] {
        let n = budget.iterations(20_000)
        func case_(_ inFlight: Int) -> Measured {
            Measured(name: "load + stale drop, \(inFlight) in flight", iterations: n) { n in
                let parking = Parking()
                let store = Store(initialState: Loader.State(), reducer: Loader(parking: parking))
                for slot in 0..<(inFlight - 1) { store.send(.loadParked(-1 - slot)) }
                var previous = store.send(.loadParked(0))
                var dropped = 0
                for i in 1...n {
                    let current = store.send(.loadParked(i))
                    parking.release(i - 1)
                    await previous.finish()
                    previous = current
                    dropped &+= 1
                }
                parking.releaseAll()
                await previous.finish()
                return dropped &+ store.runningEffectCount
            }
        }
        return await Harness.compare(
            group: "5", baseline: case_(1),
            cases: [(case_(100), 1.5), (case_(10_000), 1.5)],
            budget: budget
        )
    }
}

/// Counts observation callbacks; they arrive synchronously on the main actor here.
final class ChangeCount: @unchecked Sendable {
    // Unchecked: `withObservationTracking` calls `onChange` synchronously from
    // the mutation, which in these benchmarks always happens on the main actor,
    // so `value` is only ever touched from that one thread.
    private(set) var value = 0
    func add() { value &+= 1 }
}
