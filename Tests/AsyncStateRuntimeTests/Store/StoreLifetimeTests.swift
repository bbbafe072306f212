import AsyncStateTestSupport
import AsyncStateTesting
import Testing

@testable import AsyncState

/// A small feature for the lifetime tests: a concatenation whose first part
/// waits on a gate, and a debounced search whose operation logs each call.
struct LifetimeProbe: Reducer {
    struct State: Equatable {
        var notes: [String] = []
        var results = Loadable<String, TestError>()
    }

    enum Action {
        /// A concatenation: a run that waits on `gate`, then `.note("after")`.
        case concat(Gate<Int>)
        /// A search load, debounced by 300 ms on `clock`.
        case search(String)
        case cancelSearch
        case note(String)
        case results(LoadAction<String, TestError>)
    }

    let clock: TestClock
    let calls: LockedValue<[String]>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .concat(let gate):
            return .concatenate(
                .run { _ in _ = try await gate.wait() },
                .send(.note("after")))
        case .search(let query):
            let calls = calls
            return state.results.load(
                Action.results,
                LoadRequest { () async throws(TestError) in
                    calls.withLock { $0.append(query) }
                    return query
                }
            )
            .debounced(id: "search", for: .milliseconds(300), clock: clock)
        case .cancelSearch:
            return .cancel(id: "search")
        case .note(let text):
            state.notes.append(text)
            return .none
        case .results(let load):
            return state.results.reduce(load)
        }
    }
}

@Suite("Store: a waiting effect never keeps its store", .hangGuard)
@MainActor
struct StoreLifetimeTests {
    // MARK: Lifetime

    @Test(
        "releasing the store while a concatenation waits for its part frees it and cancels the part",
        arguments: EffectStart.allCases)
    func releaseDuringConcatenation(start: EffectStart) async {
        let gate = Gate<Int>()
        weak var weakStore: Store<LifetimeProbe.State, LifetimeProbe.Action>?
        var task: StoreTask?
        do {
            let store = Store(initialState: LifetimeProbe.State(), reducer: LifetimeProbe(clock: TestClock(), calls: LockedValue([])))
            store._effectStart = start
            weakStore = store
            task = store.send(.concat(gate))
            await gate.waitForArrivals()
        }
        #expect(weakStore == nil, "a running concatenation must not keep the store alive")
        #expect(gate.observedCancellation, "releasing the store must cancel the part the concatenation waits for")
        // Clean up either way, so the test never hangs.
        gate.open(with: 0)
        await task?.finish()
    }

    @Test(
        "releasing the store during a debounce wait frees it, and the debounced load never runs",
        arguments: EffectStart.allCases)
    func releaseDuringDebounce(start: EffectStart) async {
        let clock = TestClock()
        let calls = LockedValue<[String]>([])
        weak var weakStore: Store<LifetimeProbe.State, LifetimeProbe.Action>?
        var task: StoreTask?
        do {
            let store = Store(initialState: LifetimeProbe.State(), reducer: LifetimeProbe(clock: clock, calls: calls))
            store._effectStart = start
            weakStore = store
            task = store.send(.search("swift"))
            await clock.waitForSleepers(1)
        }
        let freed = weakStore == nil
        #expect(freed, "a debounce wait must not keep the store alive")
        // The screen is gone; time passes.
        clock.advance(by: .milliseconds(300))
        await task?.finish()
        #expect(calls.withLock { $0 } == [], "the debounced search ran for a store that was released")
    }

    @Test(
        "releasing the store while a queued load runs its turn frees it and cancels the load",
        arguments: EffectStart.allCases)
    func releaseDuringQueuedTurn(start: EffectStart) async {
        let log = LockedValue<[Int]>([])
        let first = Gate<Int>(), second = Gate<Int>()
        weak var weakStore: Store<QueuedSaves.State, QueuedSaves.Action>?
        var tasks: [StoreTask] = []
        do {
            let store = Store(initialState: QueuedSaves.State(), reducer: QueuedSaves(log: log))
            store._effectStart = start
            weakStore = store
            tasks.append(store.send(.save(1, first)))
            tasks.append(store.send(.save(2, second)))
            first.open(with: 1)
            await second.waitForArrivals() // the queued save's turn has come: its operation runs
        }
        #expect(weakStore == nil, "a queued load running its turn must not keep the store alive")
        #expect(second.observedCancellation, "releasing the store must cancel the queued load's operation")
        second.open(with: 2)
        for task in tasks { await task.finish() }
    }

    // MARK: Probes that held

    @Test("a debounced effect cancelled mid-wait ends at once and never runs", arguments: EffectStart.allCases)
    func debounceCancelledMidWait(start: EffectStart) async {
        let clock = TestClock()
        let calls = LockedValue<[String]>([])
        let store = Store(initialState: LifetimeProbe.State(), reducer: LifetimeProbe(clock: clock, calls: calls))
        store._effectStart = start
        let task = store.send(.search("s"))
        await clock.waitForSleepers(1)
        store.send(.cancelSearch)
        await task.finish()
        #expect(clock.sleeperCount == 0)
        #expect(store.runningEffectCount == 0)
        clock.advance(by: .seconds(1))
        #expect(calls.withLock { $0 } == [])
        #expect(store.state.results.inFlightID == nil)
    }

    @Test("a burst of debounced searches starts one load, of the last query", arguments: EffectStart.allCases)
    func debounceBurst(start: EffectStart) async {
        let clock = TestClock()
        let calls = LockedValue<[String]>([])
        let store = Store(initialState: LifetimeProbe.State(), reducer: LifetimeProbe(clock: clock, calls: calls))
        store._effectStart = start
        _ = store.send(.search("s"))
        await clock.waitForSleepers(1)
        let last = store.send(.search("sw"))
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(300))
        await last.finish()
        #expect(calls.withLock { $0 } == ["sw"])
        #expect(store.state.results.value == "sw")
        #expect(store.runningEffectCount == 0)
    }
}

// MARK: - Probes that held

/// A loadable whose loads can run inside a concatenation, and a log.
struct ChainFeature: Reducer {
    struct State: Equatable {
        var item = Loadable<Int, TestError>()
        var notes: [String] = []
    }

    enum Action: CustomStringConvertible {
        /// A concatenation: a load waiting on the gate, then `.note("after")`.
        case chain(Gate<Int>)
        /// A load waiting on the gate, which supersedes the one in flight.
        case load(Gate<Int>)
        case note(String)
        case item(LoadAction<Int, TestError>)

        var description: String {
            switch self {
            case .chain: "chain"
            case .load: "load"
            case .note(let text): "note(\(text))"
            case .item(let load): "item(\(load))"
            }
        }
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .chain(let gate):
            return .concatenate(
                state.item.load(Action.item, LoadRequest(mapError: { _ in .offline }) { try await gate.wait() }),
                .send(.note("after")))
        case .load(let gate):
            return state.item.load(Action.item, LoadRequest(mapError: { _ in .offline }) { try await gate.wait() })
        case .note(let text):
            state.notes.append(text)
            return .none
        case .item(let load):
            return state.item.reduce(load)
        }
    }
}

@Suite("Store: releases, joins, observers and concatenations, on both start paths", .hangGuard)
@MainActor
struct StoreCompositionTests {
    @Test(
        "releasing the store while a queued save waits its turn frees it; the save never runs",
        arguments: EffectStart.allCases)
    func releaseWhileQueuedWaits(start: EffectStart) async {
        let log = LockedValue<[Int]>([])
        let first = Gate<Int>(), second = Gate<Int>()
        weak var weakStore: Store<QueuedSaves.State, QueuedSaves.Action>?
        var tasks: [StoreTask] = []
        do {
            let store = Store(initialState: QueuedSaves.State(), reducer: QueuedSaves(log: log))
            store._effectStart = start
            weakStore = store
            tasks.append(store.send(.save(1, first)))
            tasks.append(store.send(.save(2, second)))
            await first.waitForArrivals()
        }
        #expect(weakStore == nil)
        for task in tasks { await task.finish() }
        #expect(first.observedCancellation)
        #expect(log.withLock { $0 } == [1])
    }

    @Test("releasing the store while a join waits frees it; the joiner returns", arguments: EffectStart.allCases)
    func releaseWhileJoinWaits(start: EffectStart) async {
        let gate = Gate<Int>()
        weak var weakStore: Store<ProfileFeature.State, ProfileFeature.Action>?
        var tasks: [StoreTask] = []
        do {
            let (store, _) = makeProfileStore(start)
            weakStore = store
            tasks.append(store.send(.load(gate)))
            tasks.append(store.send(.load(Gate(), .join)))
            await gate.waitForArrivals()
        }
        #expect(weakStore == nil)
        for task in tasks { await task.finish() }
        #expect(gate.observedCancellation)
    }

    @Test("actions a transition observer sends are processed FIFO, before send returns", arguments: EffectStart.allCases)
    func reentrantObserverSends(start: EffectStart) {
        let store = Store(
            initialState: [String](),
            reducer: Reduce<[String], String> { state, action in
                state.append(action)
                return action == "a" ? .send("from effect") : .none
            })
        store._effectStart = start
        store.observeTransitions { [weak store] transition in
            switch transition.action {
            case "a": store?.send("b1"); store?.send("b2")
            case "b1": store?.send("c")
            default: break
            }
        }
        store.send("a")
        // With enqueued effects the effect's action arrives later; the observer's come first either way.
        #expect(Array(store.state.prefix(4)) == ["a", "b1", "b2", "c"])
    }

    @Test("a concatenation whose load is superseded: the same actions on both paths, and the chain goes on")
    func concatenationWithSupersededLoad() async {
        var logs: [[String]] = []
        for start in EffectStart.allCases {
            let store = Store(initialState: ChainFeature.State(), reducer: ChainFeature())
            store._effectStart = start
            var lines: [String] = []
            store.observeTransitions { lines.append("\($0.action)\($0.isDropped ? " [dropped]" : "")") }
            let first = Gate<Int>(), second = Gate<Int>()
            let chain = store.send(.chain(first))
            await first.waitForArrivals()
            let load = store.send(.load(second))
            // The superseded load's cancellation and the chain's next part
            // come before the newer load's answer: results arrive in no set
            // order across threads, so the test decides it.
            await chain.finish()
            second.open(with: 2)
            await load.finish()
            #expect(store.state.item.value == 2)
            #expect(store.state.notes == ["after"])
            logs.append(lines)
        }
        #expect(logs[0] == logs[1])
    }
}
