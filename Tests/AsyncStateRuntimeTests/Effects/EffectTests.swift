import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

@Suite("Effect")
@MainActor
struct EffectTests {
    // Decided after an outside reading: as a Dictionary's key must, a
    // cancel ID must equal itself (`cancellable(id:)` says so).
    @Test("a cancel ID not equal to itself cancels nothing", arguments: EffectStart.allCases)
    func cancelIDNotEqualToItself(start: EffectStart) async {
        let gate = Gate<Int>()
        let store = Store(
            initialState: 0,
            reducer: Reduce<Int, Int> { _, action in
                action == 1 ? Effect.run { _ in _ = try await gate.wait() }.cancellable(id: Double.nan) : .cancel(id: Double.nan)
            })
        store._effectStart = start
        let running = store.send(1)
        store.send(2)
        #expect(store.runningEffectCount == 1 && !gate.observedCancellation)
        gate.open(with: 0)
        await running.finish()
    }

    @Test("cancelling a concatenation stops the parts that have not run yet")
    func cancelConcatenation() async {
        let gate = Gate<Int>()
        let reducer = Reduce<[Int], Int> { state, action in
            switch action {
            case 0:
                return Effect.concatenate(
                    .run { send in send(try await gate.wait()) },
                    .send(2),
                    .send(3)
                ).cancellable(id: "chain")
            case -1:
                return .cancel(id: "chain")
            default:
                state.append(action)
                return .none
            }
        }
        let store = Store(initialState: [Int](), reducer: reducer)
        let task = store.send(0)
        await gate.waitForArrivals()
        store.send(-1)
        gate.open(with: 1)
        await task.finish()
        #expect(store.state == [])
        #expect(store.runningEffectCount == 0)
    }

    @Test("a concatenation runs its parts in order, each after the previous one ends")
    func concatenationOrder() async {
        let first = Gate<Int>()
        let reducer = Reduce<[Int], Int> { state, action in
            guard action == 0 else { state.append(action); return .none }
            return .concatenate(.run { send in send(try await first.wait()) }, .send(2))
        }
        let store = Store(initialState: [Int](), reducer: reducer)
        let task = store.send(0)
        await first.waitForArrivals()
        #expect(store.state == [])
        first.open(with: 1)
        await task.finish()
        #expect(store.state == [1, 2])
    }

    @Test("merging keeps a stale-drop mark from either side")
    func mergeKeepsDropMark() {
        var loadable = Loadable<Int, Never>()
        let dropped: Effect<Int> = loadable.reduce(.finished(LoadID(1), 1))
        let store = Store(
            initialState: 0,
            reducer: Reduce<Int, Int> { _, _ in
                .merge(.none, dropped)
            })
        var marks: [Bool] = []
        store.observeTransitions { marks.append($0.isDropped) }
        store.send(0)
        #expect(marks == [true])
    }

    @Test("cancellable with cancelInFlight replaces the effect already running")
    func cancelInFlight() async {
        let first = Gate<Int>(), second = Gate<Int>()
        let reducer = Reduce<[Int], Gate<Int>?> { state, gate in
            guard let gate else { return .none }
            return Effect<Gate<Int>?>.run { _ in _ = try await gate.wait() }.cancellable(id: "one", cancelInFlight: true)
        }
        let store = Store(initialState: [Int](), reducer: reducer)
        let a = store.send(first)
        await first.waitForArrivals()
        let b = store.send(second)
        await a.finish()
        #expect(first.observedCancellation)
        second.open(with: 0)
        await b.finish()
        #expect(!second.observedCancellation)
    }
}

// Pinned after mutation testing: with the line that cancels a concatenation
// at launch gone, or with `map` dropping a run effect's ID, every test passed.
@Suite("Effects: a concatenation cancelled before it starts")
@MainActor
struct ConcatenationCancelledBeforeStartTests {
    @Test("a concatenation cancelled by its ID in the action that returned it runs none of its parts", arguments: EffectStart.allCases)
    func cancelledInSameAction(start: EffectStart) async {
        let store = Store(
            initialState: [Int](),
            reducer: Reduce<[Int], Int> { state, action in
                guard action == 0 else {
                    state.append(action)
                    return .none
                }
                return .merge(
                    Effect.concatenate(.send(1), .send(2)).cancellable(id: "chain"),
                    .cancel(id: "chain"))
            })
        store._effectStart = start
        await store.send(0).finish()
        #expect(store.state == [])
        #expect(store.runningEffectCount == 0)
    }
}

@Suite("Effects: a mapped effect keeps its cancel ID")
@MainActor
struct MappedEffectCancelIDTests {
    @Test("a cancellable run effect mapped to another action type is still cancelled by its ID", arguments: EffectStart.allCases)
    func mappedRunKeepsItsID(start: EffectStart) async {
        let gate = Gate<Int>()
        let store = Store(
            initialState: 0,
            reducer: Reduce<Int, Int> { state, action in
                switch action {
                case 0:
                    return Effect<Int>.run { send in send(try await gate.wait()) }.cancellable(id: "wait").map { $0 + 100 }
                case 1:
                    return .cancel(id: "wait")
                default:
                    state = action
                    return .none
                }
            })
        store._effectStart = start
        let waiting = store.send(0)
        store.send(1)
        await yieldUntil { store.runningEffectCount == 0 }
        #expect(store.runningEffectCount == 0)
        gate.open(with: 1)
        await waiting.finish()
        #expect(store.state == 0)
    }
}
