import AsyncState
import Observation

/// The benchmark cases of issue 7, each measured against its baseline in the same run.
@MainActor
enum Cases {
    // MARK: 1. The value model

    /// A fixed pseudo-random stream of events, so no loop can be folded away.
    static let events: [Bool] = {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        return (0..<4_096).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state % 3 != 0 // two starts for every finish, on average
        }
    }()

    static func valueModel(_ budget: Budget) async -> [Result] {
        let n = budget.iterations(4_000_000)
        let events = Self.events
        let baseline = Measured(name: "plain enum switch, per event", iterations: n) { n in
            var state = PlainLoadState.idle
            var sum = 0
            for i in 0..<n {
                state.handle(events[i & 4_095] ? .start : .finish(i))
                if case .loaded(let value) = state { sum &+= value } else { sum &+= 1 }
            }
            return sum
        }
        let transitions = Measured(name: "AsyncState startLoading / setValue, per event", iterations: n) { n in
            var state = AsyncState<Int, Never>.notLoaded
            var sum = 0
            for i in 0..<n {
                if events[i & 4_095] { state.startLoading() } else { state.setValue(i) }
                sum &+= state.value ?? 1
            }
            return sum
        }
        let reducer = Measured(name: "Loadable.apply .started / .finished, per action", iterations: n) { n in
            var loadable = Loadable<Int, Never>()
            var id = LoadID(0)
            var sum = 0
            for i in 0..<n {
                if events[i & 4_095] {
                    id = id.next
                    _ = loadable.apply(.started(id))
                } else {
                    _ = loadable.apply(.finished(id, i))
                }
                sum &+= loadable.value ?? 1
            }
            return sum
        }
        let stale = Measured(name: "Loadable.apply stale .finished (dropped), per action", iterations: n) { n in
            var loadable = Loadable<Int, Never>()
            _ = loadable.apply(.started(LoadID(UInt64(n) + 1)))
            var dropped = 0
            for i in 0..<n where loadable.apply(.finished(LoadID(UInt64(i)), i)) == .dropped {
                dropped &+= 1
            }
            return dropped
        }
        return await Harness.compare(
            group: "1", baseline: baseline, cases: [(transitions, nil), (reducer, nil), (stale, nil)], budget: budget)
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
        let genericObservable = Measured(name: "generic @Observable set, no observer (scale)", iterations: budget.iterations(200_000)) {
            n in
            let counter = GenericObservableCounter<Int>()
            for _ in 0..<n { counter.value &+= 1 }
            return counter.value
        }
        var results = await Harness.compare(
            group: "2", baseline: direct,
            cases: [(send, 6), (plainObservable, nil), (genericObservable, nil)],
            budget: budget
        )

        let plainObserved = Measured(name: "plain @Observable set, observer re-armed", iterations: observed) { n in
            let counter = ObservableCounter()
            let changes = ChangeCount()
            for _ in 0..<n {
                withObservationTracking {
                    _ = counter.value
                } onChange: {
                    changes.add()
                }
                counter.value &+= 1
            }
            return counter.value &+ changes.value
        }
        let storeObserved = Measured(name: "Store.send, observer re-armed", iterations: observed) { n in
            let store = Store(initialState: 0, reducer: Counter())
            let changes = ChangeCount()
            for _ in 0..<n {
                withObservationTracking {
                    _ = store.state
                } onChange: {
                    changes.add()
                }
                store.send(.increment)
            }
            precondition(changes.value == n, "every send must notify the observer")
            return store.state &+ changes.value
        }
        results += await Harness.compare(group: "2", baseline: plainObserved, cases: [(storeObserved, 1.0)], budget: budget)
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
        // Building the parent's 1,000 rows is setup, outside the stopwatch.
        let scoped = Measured(name: "Store.send to a scoped child", iterations: n) { n, stopwatch in
            let store = Store(initialState: Parent.State(), reducer: Parent.scoped)
            stopwatch.start()
            for _ in 0..<n { store.send(.child(.increment)) }
            stopwatch.stop()
            return store.state.child
        }
        let keyed = Measured(name: "Store.send to a keyed child (1,000 keys)", iterations: n) { n, stopwatch in
            let store = Store(initialState: Parent.State(), reducer: Parent.keyed)
            stopwatch.start()
            for i in 0..<n { store.send(.row(i % 1_000, .increment)) }
            stopwatch.stop()
            return store.state.rows[7] ?? 0
        }
        return await Harness.compare(
            group: "3", baseline: root, cases: [(scoped, 3), (keyed, 3)], budget: budget
        )
    }

    // MARK: 4. Load round trip

    /// A load is measured against the bare task it would be without the
    /// store: an operation that answers at once against a `Task {}` round
    /// trip (the store starts it with `Task.immediate`, so it can cost far
    /// less), and one that suspends once against a task that suspends once.
    static func loadRoundTrip(_ budget: Budget) async -> [Result] {
        let budget = budget.finer(3)
        let n = budget.iterations(100_000)
        let hop = Measured(name: "bare Task {} round trip from the main actor", iterations: n) { n in
            var total = 0
            for i in 0..<n {
                total &+= await Task { i }.value
            }
            return total
        }
        let load = Measured(name: "load, operation answers at once: send + finish", iterations: n) { n in
            let store = Store(initialState: Loader.State(), reducer: Loader(parking: Parking()))
            for _ in 0..<n { await store.send(.loadNow).finish() }
            return store.state.item.value ?? 0
        }
        let asyncValue = Measured(name: "AsyncValue.load, operation answers at once", iterations: n) { n in
            let value = AsyncValue<Int, Never>()
            for i in 0..<n { await value.load { () async throws(Never) in i } }
            return value.value ?? 0
        }
        // The floor of a load that starts at once: a bare `Task.immediate`.
        let immediateHop = Measured(name: "bare Task.immediate {} round trip (scale)", iterations: n) { n in
            var total = 0
            for i in 0..<n {
                total &+= await Task.immediate { i }.value
            }
            return total
        }
        // The floor of any load that starts at once and runs the feature's
        // operation: a bare `Task.immediate` that awaits a main-actor
        // closure made for it, as a reducer makes one per load. Entering the
        // closure and returning from it are two executor switches that the
        // row above does not pay.
        let immediateOperation = Measured(
            name: "bare Task.immediate {} awaiting an operation (scale)", iterations: n
        ) { n in
            var total = 0
            for i in 0..<n {
                let operation = makeOperation(returning: i)
                total &+= await Task.immediate { await operation() }.value
            }
            return total
        }
        // The untyped paths, which Statable-style code takes.
        let mapped = RequestCases.loads(.mapped, "load with mapError:, operation answers at once", n)
        let untypedValue = Measured(name: "AsyncValue<_, AnyError>.load, operation answers at once", iterations: n) { n in
            let value = AsyncValue<Int, AnyError>()
            for i in 0..<n { await value.load { () async throws in i } }
            return value.value ?? 0
        }
        var results = await Harness.compare(
            group: "4", baseline: hop,
            cases: [(immediateHop, nil), (immediateOperation, nil), (load, 0.05), (mapped, 0.05), (asyncValue, 0.1), (untypedValue, 0.1)],
            budget: budget)

        let yieldingHop = Measured(name: "bare Task {} that suspends once", iterations: n) { n in
            var total = 0
            for i in 0..<n {
                total &+= await Task {
                    await Task.yield()
                    return i
                }.value
            }
            return total
        }
        // A load starts with `Task.immediate`, which costs more than `Task {}`
        // once it suspends: this row shows by how much.
        let yieldingImmediate = Measured(name: "bare Task.immediate {} that suspends once (scale)", iterations: n) { n in
            var total = 0
            for i in 0..<n {
                total &+= await Task.immediate {
                    await Task.yield()
                    return i
                }.value
            }
            return total
        }
        let yieldingLoad = Measured(name: "load, operation suspends once: send + finish", iterations: n) { n in
            let store = Store(initialState: Loader.State(), reducer: Loader(parking: Parking()))
            for _ in 0..<n { await store.send(.loadAfterYield).finish() }
            return store.state.item.value ?? 0
        }
        let yieldingValue = Measured(name: "AsyncValue.load, operation suspends once", iterations: n) { n in
            let value = AsyncValue<Int, Never>()
            for i in 0..<n {
                await value.load { () async throws(Never) in
                    await Task.yield()
                    return i
                }
            }
            return value.value ?? 0
        }
        results += await Harness.compare(
            group: "4", baseline: yieldingHop, cases: [(yieldingImmediate, nil), (yieldingLoad, 1.1), (yieldingValue, 1.1)],
            budget: budget)
        return results
    }

    /// A main-actor operation that answers at once, made out of the
    /// optimizer's sight, as a reducer makes a load's operation.
    @inline(never)
    static func makeOperation(returning value: Int) -> @MainActor @Sendable () async -> Int {
        { value }
    }

    // MARK: 5. Stale drops

    /// Each iteration starts a load that supersedes the previous one, then lets
    /// the previous one answer — its result is dropped — while `inFlight` loads
    /// stay suspended in the background.
    static func staleDrops(_ budget: Budget) async -> [Result] {
        let budget = budget.finer(3)
        let n = budget.iterations(20_000)
        func case_(_ inFlight: Int) -> Measured {
            Measured(name: "load + stale drop, \(inFlight) in flight", iterations: n) { n, stopwatch in
                let parking = Parking()
                let store = Store(initialState: Loader.State(), reducer: Loader(parking: parking))
                for slot in 0..<(inFlight - 1) { store.send(.loadParked(-1 - slot)) }
                var previous = store.send(.loadParked(0))
                // Setup ends when every load has started and parked; otherwise
                // starting the 10,000 background tasks would be timed too.
                while parking.parkedCount < inFlight { await Task.yield() }
                var dropped = 0
                stopwatch.start()
                defer { stopwatch.stop() }
                for i in 1...n {
                    let current = store.send(.loadParked(i))
                    parking.release(i - 1)
                    await previous.finish()
                    previous = current
                    dropped &+= 1
                }
                stopwatch.stop()
                // Teardown, untimed: let every background load end here, so
                // none of them finishes during the next measurement.
                parking.releaseAll()
                await previous.finish()
                while store.runningEffectCount > 0 { await Task.yield() }
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
