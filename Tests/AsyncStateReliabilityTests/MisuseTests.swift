import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

/// Misuse and bad input: each has a defined outcome and a clear message, never a crash.
@Suite("Reliability: misuse")
@MainActor
struct MisuseTests {
    @Test(
        "results for unknown, older or already settled loads are dropped and reported as stale",
        arguments: [
            LoadAction<Int, TestError>.finished(LoadID(99), 1), // never started
            .failed(LoadID(1), .offline), // older than the load in flight
            .cancelled(LoadID(1)),
            .started(LoadID(1)), // an ID already seen
        ])
    func staleThroughStore(action: LoadAction<Int, TestError>) async {
        let (store, log) = makeProfileStore()
        let first = Gate<Int>(), second = Gate<Int>()
        store.send(.load(first))
        let task = store.send(.load(second, .latestWins(cancellingEarlier: false)))
        let before = store.state
        store.send(.profile(action))
        #expect(store.state == before)
        #expect(log.dropped.last == "profile(\(action))")
        second.open(with: 2)
        first.open(with: 1)
        await task.finish()
    }

    @Test("a duplicate .finished is dropped")
    func duplicateFinished() async {
        let (store, log) = makeProfileStore()
        let gate = Gate<Int>()
        gate.open(with: 5)
        await store.send(.load(gate)).finish()
        store.send(.profile(.finished(LoadID(1), 6)))
        #expect(store.profile.value == 5)
        #expect(log.dropped == ["profile(finished(#1, 6))"])
    }

    @Test("send from inside a reducer is queued, runs after the current action, and is reported")
    func sendFromReducer() {
        final class StoreBox {
            weak var store: Store<[String], String>?
        }
        let box = StoreBox()
        let reducer = Reduce<[String], String> { state, action in
            state.append(action)
            if action == "outer" { box.store?.send("inner") } // misuse: a reducer with a side effect
            return .none
        }
        let store = Store(initialState: [String](), reducer: reducer)
        box.store = store
        var issues: [String] = []
        store.onIssue = { issues.append($0) }
        store.send("outer")
        store.send("next")
        #expect(store.state == ["outer", "inner", "next"])
        #expect(
            issues == [
                "send(inner) was called from inside a reducer. Reducers must be pure: return an effect instead. The action is queued and runs after the current one."
            ])
    }

    @Test("an embed that sends to its own store: what it sends is queued before the load's own action, and the load still ends")
    func embedThatSends() async {
        struct State {
            var log: [String] = []
            var item = Loadable<Int, TestError>()
        }
        enum Action {
            case load, noted(String), item(LoadAction<Int, TestError>)
        }
        final class StoreBox {
            weak var store: Store<State, Action>?
        }
        let box = StoreBox()
        func name(_ load: LoadAction<Int, TestError>) -> String {
            switch load {
            case .started: "started"
            case .finished: "finished"
            default: "other"
            }
        }
        let reducer = Reduce<State, Action> { state, action in
            switch action {
            case .load:
                // Misuse: `embed` should only wrap the action.
                let embed = { (load: LoadAction<Int, TestError>) -> Action in
                    box.store?.send(.noted(name(load)))
                    return .item(load)
                }
                return state.item.load(embed, LoadRequest { () async throws(TestError) in 7 })
            case .noted(let text):
                state.log.append("noted \(text)")
                return .none
            case .item(let load):
                state.log.append(name(load))
                return state.item.reduce(load)
            }
        }
        let store = Store(initialState: State(), reducer: reducer)
        box.store = store
        var issues: [String] = []
        store.onIssue = { issues.append($0) }
        await store.send(.load).finish()
        #expect(store.state.log == ["noted started", "started", "noted finished", "finished"])
        #expect(store.state.item.value == 7)
        #expect(store.runningEffectCount == 0)
        #expect(issues.isEmpty)
    }

    @Test("send from a transition observer is queued without an issue")
    func sendFromObserver() {
        let store = Store(
            initialState: [String](),
            reducer: Reduce<[String], String> { state, action in
                state.append(action)
                return .none
            })
        var issues: [String] = []
        store.onIssue = { issues.append($0) }
        store.observeTransitions { [weak store] in if $0.action == "a" { store?.send("b") } }
        store.send("a")
        #expect(store.state == ["a", "b"])
        #expect(issues.isEmpty)
    }

    /// A failure that only carries a message.
    struct Message: Error, Equatable {
        var text: String
    }

    @Test("an error the mapping does not expect still becomes the mapping's failure, never a crash")
    func unexpectedError() async {
        struct Surprise: Error {}
        let store = Store(
            initialState: Loadable<Int, Message>(),
            reducer: Reduce<Loadable<Int, Message>, LoadAction<Int, Message>?> { state, action in
                guard let action else {
                    let request = LoadRequest<Int, Message>(mapError: { error in
                        Message(text: (error as? TestError).map { "known: \($0)" } ?? "unexpected: \(error)")
                    }) {
                        throw Surprise()
                    }
                    return state.load({ $0 }, request)
                }
                return state.reduce(action)
            })
        await store.send(nil).finish()
        #expect(store.state.state == .error(error: Message(text: "unexpected: Surprise()")))
    }

    // Changed by design: a load's failure must be an `Error` (every load is a
    // `LoadRequest`, whose failure is one). A `Failure` that is not an
    // `Error` still works for the state machine itself.
    @Test("a Failure that is not an Error still works in the state machine")
    func nonErrorFailure() async {
        let store = Store(
            initialState: Loadable<Int, String>(),
            reducer: Reduce<Loadable<Int, String>, LoadAction<Int, String>> { state, action in state.reduce(action) })
        store.send(.started(LoadID(1)))
        store.send(.failed(LoadID(1), "offline"))
        #expect(store.state.state == .error(error: "offline"))
        store.send(.started(LoadID(2)))
        store.send(.finished(LoadID(2), 42))
        #expect(store.state.state == .success(value: 42))
    }

    @Test("an untyped mapping never sees cancellation: an operation that throws CancellationError ends cancelled")
    func cancellationNeverMapped() async {
        var mapped = 0
        let store = Store(
            initialState: Loadable<Int, Message>(value: 1),
            reducer: Reduce<Loadable<Int, Message>, LoadAction<Int, Message>?> { state, action in
                guard let action else {
                    let request = LoadRequest<Int, Message>(mapError: { _ in
                        mapped += 1
                        return Message(text: "mapped")
                    }) {
                        throw CancellationError()
                    }
                    return state.load({ $0 }, request)
                }
                return state.reduce(action)
            })
        await store.send(nil).finish()
        #expect(store.state.state == .success(value: 1))
        #expect(mapped == 0)
    }
}

/// A feature whose loads never return (and ignore cancellation), with a timeout.
struct Hanging: Reducer {
    enum Action: Equatable { case load, cancel, loaded(LoadAction<Int, TestError>) }

    let gate: Gate<Int>
    let clock: TestClock

    func reduce(into state: inout Loadable<Int, TestError>, action: Action) -> Effect<Action> {
        switch action {
        case .load:
            let gate = gate
            let request = LoadRequest { () async throws(TestError) in await gate.value() ?? -1 }
            return state.load(Action.loaded, request.timeout(LoadTimeout(.seconds(5), clock: clock, failure: .timedOut)))
        case .cancel:
            return .cancel(load: state.inFlightID)
        case .loaded(let load):
            return state.reduce(load)
        }
    }
}

@Suite("Reliability: timeouts")
@MainActor
struct TimeoutTests {
    @Test("an operation that never returns fails with the chosen failure when the timeout passes")
    func timesOut() async {
        let clock = TestClock()
        let gate = Gate<Int>()
        let store = Store(initialState: Loadable<Int, TestError>(), reducer: Hanging(gate: gate, clock: clock))
        let task = store.send(.load)
        await clock.waitForSleepers()
        clock.advance(by: .seconds(4))
        #expect(store.state.isLoading)
        clock.advance(by: .seconds(1))
        await task.finish()
        #expect(store.state.state == .error(error: .timedOut))
        #expect(store.runningEffectCount == 0, "the store does not wait for an operation that ignores cancellation")
        gate.open(with: 0)
    }

    @Test("cancel still works before the timeout, and is not a failure")
    func cancelBeforeTimeout() async {
        let clock = TestClock()
        let gate = Gate<Int>()
        let store = Store(initialState: Loadable<Int, TestError>(value: 1), reducer: Hanging(gate: gate, clock: clock))
        let task = store.send(.load)
        await clock.waitForSleepers()
        store.send(.cancel)
        gate.open(with: 9)
        await task.finish()
        #expect(store.state.state == .success(value: 1))
        #expect(clock.sleeperCount == 0, "the timer is cancelled too")
    }

    @Test("an operation that answers in time is not affected, and its timer is cancelled")
    func answersInTime() async {
        let clock = TestClock()
        let gate = Gate<Int>()
        gate.open(with: 3)
        let store = Store(initialState: Loadable<Int, TestError>(), reducer: Hanging(gate: gate, clock: clock))
        await store.send(.load).finish()
        #expect(store.state.state == .success(value: 3))
        #expect(clock.sleeperCount == 0)
    }
}

@Suite("Reliability: leaks")
@MainActor
struct LeakTests {
    @Test("a store released with 50 loads in flight is freed, and every operation observes cancellation")
    func storeWithLoads() async {
        let gates = (0..<50).map { _ in Gate<Int>() }
        weak var weakStore: Store<ProfileFeature.State, ProfileFeature.Action>?
        var tasks: [StoreTask] = []
        do {
            let (store, _) = makeProfileStore()
            weakStore = store
            for gate in gates { tasks.append(store.send(.load(gate, .latestWins(cancellingEarlier: false)))) }
            for gate in gates { await gate.waitForArrivals() }
        }
        #expect(weakStore == nil)
        for task in tasks { await task.finish() }
        #expect(gates.filter { !$0.observedCancellation }.isEmpty)
    }

    @Test("an AsyncValue and an OperationTracker released mid-load are freed and cancel their work")
    func convenience() async {
        let load = Gate<Int>(), save = Gate<Int>()
        weak var weakValue: AsyncValue<Int, AnyError>?
        weak var weakTracker: OperationTracker<String, AnyError>?
        var running: [Task<Void, Never>] = []
        do {
            let value = AsyncValue<Int, AnyError>()
            let tracker = OperationTracker<String, AnyError>()
            weakValue = value
            weakTracker = tracker
            running.append(Task { [weak value] in await value?.load { try await load.wait() } })
            running.append(Task { [weak tracker] in _ = await tracker?.run("save") { try await save.wait() } })
            await load.waitForArrivals()
            await save.waitForArrivals()
            for task in running { task.cancel() }
        }
        for task in running { await task.value }
        #expect(weakValue == nil)
        #expect(weakTracker == nil)
        #expect(load.observedCancellation && save.observedCancellation)
    }

    @Test("a transition observer that captures the store weakly does not keep it alive")
    func observerCycle() {
        weak var weakStore: Store<Int, Int>?
        do {
            let store = Store(
                initialState: 0,
                reducer: Reduce<Int, Int> { state, action in
                    state += action; return .none
                })
            store.observeTransitions { [weak store] _ in _ = store?.runningEffectCount }
            store.send(1)
            weakStore = store
        }
        #expect(weakStore == nil)
    }
}
