import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Observation
import Testing

/// A counter whose actions the tests can trace.
struct Tally: Reducer {
    enum Action: Equatable, Sendable { case add(Int), echo(Int), fail, spawn }

    func reduce(into state: inout [Int], action: Action) -> Effect<Action> {
        switch action {
        case .add(let n):
            state.append(n)
            return .none
        case .echo(let n):
            return .send(.add(n))
        case .fail:
            struct Boom: Error {}
            return .run { _ in throw Boom() }
        case .spawn:
            return .merge(.send(.add(1)), .send(.add(2)))
        }
    }
}

@Suite("Store: ordering and lifetime")
@MainActor
struct StoreOrderingTests {
    @Test("actions sent while the store is processing are queued and run in FIFO order", arguments: EffectStart.allCases)
    func reentrantFIFO(start: EffectStart) {
        let store = Store(initialState: [Int](), reducer: Tally())
        store._effectStart = start
        var reentered = false
        store.observeTransitions { [weak store] transition in
            guard transition.action == .add(0), !reentered else { return }
            reentered = true
            let task = store?.send(.add(1))
            store?.send(.add(2))
            #expect(task?.isEmpty == true)
            #expect(store?.state == [0], "queued actions wait for the current one")
        }
        store.send(.add(0))
        store.send(.add(3))
        #expect(store.state == [0, 1, 2, 3])
    }

    @Test(
        "an action an observer sends is queued: its send returns an empty task, and its effects join the task of the send being processed",
        arguments: EffectStart.allCases)
    func observerSendJoinsTheOuterTask(start: EffectStart) async {
        let gate = Gate<Int>()
        let store = Store(
            initialState: 0, reducer: Reduce<Int, Int> { _, action in action == 1 ? .run { _ in _ = try await gate.wait() } : .none })
        store._effectStart = start
        var inner: StoreTask?
        store.observeTransitions { [weak store] transition in
            if transition.action == 0 { inner = store?.send(1) }
        }
        let outer = store.send(0)
        #expect(inner?.isEmpty == true && !outer.isEmpty)
        outer.cancel()
        await outer.finish()
        #expect(gate.observedCancellation && store.runningEffectCount == 0)
    }

    @Test(
        "however many actions wait, each runs in the order sent, and what each sends runs after those already waiting",
        arguments: [1, 2, 3, 8, 9, 20])
    func queuedInOrder(waiting: Int) {
        let store = Store(initialState: [Int](), reducer: Tally())
        store.observeTransitions { [weak store] transition in
            guard case .add(let n) = transition.action else { return }
            if n == 0 {
                for k in 1...waiting { store?.send(.add(k)) }
            } else if n <= waiting {
                store?.send(.add(100 + n))
            }
        }
        store.send(.add(0))
        #expect(store.state == [0] + Array(1...waiting) + (1...waiting).map { 100 + $0 })
    }

    @Test("effect results are applied in the order they arrive", arguments: EffectStart.allCases)
    func effectOrder(start: EffectStart) async {
        let store = Store(initialState: [Int](), reducer: Tally())
        store._effectStart = start
        await store.send(.echo(1)).finish()
        await store.send(.echo(2)).finish()
        #expect(store.state == [1, 2])
    }

    @Test("send returns a task that waits for every effect it started", arguments: EffectStart.allCases)
    func finishWaitsForMerged(start: EffectStart) async {
        let store = Store(initialState: [Int](), reducer: Tally())
        store._effectStart = start
        await store.send(.spawn).finish()
        #expect(store.state.sorted() == [1, 2])
        #expect(store.runningEffectCount == 0)
    }

    @Test("an action with no effect returns an empty task", arguments: EffectStart.allCases)
    func emptyTask(start: EffectStart) {
        let store = Store(initialState: [Int](), reducer: Tally())
        store._effectStart = start
        #expect(store.send(.add(1)).isEmpty)
    }

    @Test("an unhandled error thrown by an effect is reported with a clear message", arguments: EffectStart.allCases)
    func unhandledError(start: EffectStart) async {
        let store = Store(initialState: [Int](), reducer: Tally())
        store._effectStart = start
        var issues: [String] = []
        store.onIssue = { issues.append($0) }
        await store.send(.fail).finish()
        #expect(issues.count == 1)
        #expect(issues.first?.hasPrefix("An effect threw Boom(), which nothing handled.") == true)
    }

    @Test("releasing the store cancels its effects and frees it", arguments: EffectStart.allCases)
    func deinitCancels(start: EffectStart) async {
        let gate = Gate<Int>()
        weak var weakStore: Store<ProfileFeature.State, ProfileFeature.Action>?
        var task: StoreTask?
        do {
            let store = Store(initialState: ProfileFeature.State(), reducer: ProfileFeature())
            store._effectStart = start
            weakStore = store
            task = store.send(.load(gate))
            await gate.waitForArrivals()
        }
        #expect(weakStore == nil, "a running effect must not keep the store alive")
        await task?.finish()
        #expect(gate.observedCancellation)
    }

    @Test("an action sent after the store is gone is ignored", arguments: EffectStart.allCases)
    func sendAfterRelease(start: EffectStart) async {
        final class Box: @unchecked Sendable {
            // Written once from the main actor before it is read on the main actor.
            var send: Send<Tally.Action>?
        }
        let box = Box()
        let gate = Gate<Int>()
        weak var weakStore: Store<[Int], Tally.Action>?
        do {
            let reducer = Reduce<[Int], Tally.Action> { _, _ in
                .run { send in
                    box.send = send
                    _ = try? await gate.wait()
                }
            }
            let store = Store(initialState: [], reducer: reducer)
            store._effectStart = start
            weakStore = store
            store.send(.spawn)
            await gate.waitForArrivals()
        }
        #expect(weakStore == nil)
        box.send?(.add(1))
    }

    @Test("reading state inside withObservationTracking is notified by a send", arguments: EffectStart.allCases)
    func observation(start: EffectStart) {
        let store = Store(initialState: [Int](), reducer: Tally())
        store._effectStart = start
        let changes = ChangeCounter()
        func track() {
            withObservationTracking {
                _ = store.state
            } onChange: {
                changes.increment()
            }
        }
        track()
        store.send(.add(1))
        #expect(changes.value == 1)
        store.send(.add(2))
        #expect(changes.value == 1, "an observation ends at the first change it is told of")
        track()
        store.send(.add(3))
        #expect(changes.value == 2)
    }

    @Test("dynamic member lookup also registers observation", arguments: EffectStart.allCases)
    func observationThroughMember(start: EffectStart) {
        let store = Store(initialState: ProfileFeature.State(), reducer: ProfileFeature())
        store._effectStart = start
        let changes = ChangeCounter()
        withObservationTracking {
            _ = store.profile
        } onChange: {
            changes.increment()
        }
        store.send(.loadFailing(.offline))
        #expect(changes.value == 1)
    }

    @Test("cancel(id:) stops effects with that ID; debounce runs only the last of a burst", arguments: EffectStart.allCases)
    func debounce(start: EffectStart) async {
        let clock = TestClock()
        let reducer = Reduce<[Int], Int> { state, n in
            if n < 0 { return .cancel(id: "debounce") }
            if n >= 100 { state.append(n); return .none }
            return Effect.send(n + 100).debounced(id: "debounce", for: .milliseconds(300), clock: clock)
        }
        let store = Store(initialState: [Int](), reducer: reducer)
        store._effectStart = start
        let first = store.send(1)
        await clock.waitForSleepers(1)
        let second = store.send(2)
        await first.finish()
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(299))
        #expect(store.state == [])
        clock.advance(by: .milliseconds(1))
        await second.finish()
        #expect(store.state == [102])

        let third = store.send(3)
        await clock.waitForSleepers(1)
        store.send(-1)
        await third.finish()
        clock.advance(by: .seconds(1))
        #expect(store.state == [102])
        #expect(store.runningEffectCount == 0)
    }

    @Test("delayed waits for the clock, concatenate runs in order", arguments: EffectStart.allCases)
    func delayAndConcatenate(start: EffectStart) async {
        let clock = TestClock()
        let reducer = Reduce<[Int], Int> { state, n in
            if n >= 10 { state.append(n); return .none }
            return .concatenate(Effect.send(10).delayed(for: .seconds(1), clock: clock), .send(11))
        }
        let store = Store(initialState: [Int](), reducer: reducer)
        store._effectStart = start
        let task = store.send(0)
        await clock.waitForSleepers(1)
        #expect(store.state == [])
        clock.advance(by: .seconds(1))
        await task.finish()
        #expect(store.state == [10, 11])
    }
}
