import AsyncState
import AsyncStateControls
import Testing

/// A feature whose effects wait for one another while they sleep on a test
/// clock: a delayed action (a concatenation: a sleep, then a send), a
/// debounced one, loads queued one behind the other, and a concatenation
/// that joins the load in flight before it sends.
struct Waits: Reducer {
    struct Offline: Error, Equatable {}

    struct State: Equatable {
        var value = Loadable<Int, Offline>()
        var marks: [String] = []
    }

    enum Action: Sendable {
        /// Marks `name` 50 ms later.
        case markLater(String)
        /// Marks `name` once 50 ms pass without another of these.
        case markDebounced(String)
        case mark(String)
        /// Loads `number`, which takes 100 ms.
        case fetch(Int, OverlapPolicy)
        /// Joins the load in flight, then marks `name`.
        case joinThenMark(String)
        /// Cancels `joinThenMark`.
        case cancelJoin
        case fetched(LoadAction<Int, Offline>)
    }

    let clock: TestClock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .markLater(let name):
            return Effect.send(.mark(name)).delayed(for: .milliseconds(50), clock: clock)
        case .markDebounced(let name):
            return Effect.send(.mark(name)).debounced(id: "mark", for: .milliseconds(50), clock: clock)
        case .mark(let name):
            state.marks.append(name)
            return .none
        case .fetch(let number, let overlap):
            return fetch(number, into: &state, overlap: overlap)
        case .joinThenMark(let name):
            return fetch(0, into: &state, overlap: .join).concatenating(with: .send(.mark(name))).cancellable(id: "join")
        case .cancelJoin:
            return .cancel(id: "join")
        case .fetched(let load):
            return state.value.reduce(load)
        }
    }

    private func fetch(_ number: Int, into state: inout State, overlap: OverlapPolicy) -> Effect<Action> {
        let clock = clock
        let request = LoadRequest { () async throws(Offline) in
            do { try await clock.sleep(for: .milliseconds(100)) } catch { throw Offline() }
            return number
        }
        return state.value.load(Action.fetched, request, overlap: overlap)
    }
}

@Suite("Store.waitUntilIdle(on:)")
@MainActor
struct StoreIdleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let script: [Waits.Action]
        /// The value shown at the end, and the marks made.
        let value: Int?
        let marks: [String]
        /// When the last effect ended.
        let end: Duration
        var testDescription: String { name }
    }

    /// Enough yields for any executor switch under load; a regression that
    /// leaves the store never idle fails in seconds, not minutes.
    static let rounds = 1_000_000

    nonisolated static let cases = [
        Case(name: "a delayed action", script: [.markLater("a")], value: nil, marks: ["a"], end: .milliseconds(50)),
        Case(
            name: "a debounced action, its first start cancelled by the second",
            script: [.markDebounced("s"), .markDebounced("sw")], value: nil, marks: ["sw"], end: .milliseconds(50)),
        Case(
            name: "a load queued behind another", script: [.fetch(1, .queue), .fetch(2, .queue)],
            value: 2, marks: [], end: .milliseconds(200)),
        Case(
            name: "a concatenation that joins a load", script: [.fetch(1, .latestWins), .joinThenMark("joined")],
            value: 1, marks: ["joined"], end: .milliseconds(100)),
    ]

    @Test(
        "a store whose effect waits for one that has ended is not idle: the waiting one is about to go on",
        arguments: cases, EffectStart.allCases)
    func waitingEffects(_ example: Case, start: EffectStart) async {
        let clock = TestClock()
        let store = Store(initialState: Waits.State(), reducer: Waits(clock: clock))
        store._effectStart = start
        // In these scripts, whenever an effect ends with others left
        // running, one of them was waiting for it and has yet to resume:
        // resuming takes an executor switch, which may come any number of
        // main-actor turns later. (In general an effect may also end while
        // the others are idle.)
        var idleWhenAnEffectEnded: [Bool] = []
        store._onRunningEffectsChange = { [weak store] change in
            guard let store, !change.isRunning, change.count > 0 else { return }
            idleWhenAnEffectEnded.append(store.isIdle(on: clock))
        }

        for action in example.script { store.send(action) }
        while true {
            #expect(await store.waitUntilIdle(on: clock, maximumRounds: Self.rounds))
            guard let next = clock.nextDeadline else { break }
            clock.advance(to: next)
        }

        #expect(store.value.value == example.value && !store.value.isLoading)
        #expect(store.marks == example.marks)
        #expect(clock.now.offset == example.end)
        #expect(store.runningEffectCount == 0)
        #expect(!idleWhenAnEffectEnded.isEmpty)
        #expect(!idleWhenAnEffectEnded.contains(true))
    }

    @Test(
        "a concatenation cancelled while it waits for a load it joined is not idle: it is about to end",
        arguments: EffectStart.allCases)
    func cancelledJoin(start: EffectStart) async {
        let clock = TestClock()
        let store = Store(initialState: Waits.State(), reducer: Waits(clock: clock))
        store._effectStart = start
        store.send(.fetch(1, .latestWins))
        store.send(.joinThenMark("joined"))
        #expect(await store.waitUntilIdle(on: clock, maximumRounds: Self.rounds))
        #expect(store.runningEffectCount == 2, "the load, and the concatenation waiting for it")

        // Cancelled, the concatenation stops waiting for the load at once,
        // though the load sleeps on.
        store.send(.cancelJoin)
        #expect(!store.isIdle(on: clock))

        while true {
            #expect(await store.waitUntilIdle(on: clock, maximumRounds: Self.rounds))
            guard let next = clock.nextDeadline else { break }
            clock.advance(to: next)
        }
        #expect(store.value.value == 1)
        #expect(store.marks.isEmpty)
        #expect(clock.now.offset == .milliseconds(100))
        #expect(store.runningEffectCount == 0)
    }

    // From a mutation round: a wait that returned as soon as the store was
    // idle, yielding never, passed every test here.
    @Test("work already queued on the main actor runs before waitUntilIdle returns")
    func queuedWorkRuns() async {
        let clock = TestClock()
        let store = Store(initialState: Waits.State(), reducer: Waits(clock: clock))
        Task { @MainActor in store.send(.mark("queued")) }
        #expect(await store.waitUntilIdle(on: clock, maximumRounds: Self.rounds))
        #expect(store.marks == ["queued"])
    }
}
