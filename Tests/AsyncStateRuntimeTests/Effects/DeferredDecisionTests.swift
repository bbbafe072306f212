import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

/// An editor that saves a second after typing stops, beside a "Save now";
/// every save queues. Each save waits on the next gate of `gates`.
struct Autosave: Reducer {
    struct State: Equatable {
        var draft = 0
        var save = Loadable<Int, TestError>()
    }

    enum Action {
        /// Debounces the action that saves: the policy is decided after the pause.
        case typed(Int)
        /// Debounces the load itself: the policy is decided as the reducer returns it.
        case typedDebouncingTheLoad(Int)
        case saveNow, autosave
        case saved(LoadAction<Int, TestError>)
    }

    let clock: TestClock
    let gates: GateQueue<Int>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .typed(let draft):
            state.draft = draft
            return Effect.send(.autosave).debounced(id: "autosave", for: .seconds(1), clock: clock)
        case .typedDebouncingTheLoad(let draft):
            state.draft = draft
            return state.save.load(Action.saved, gates.request(), overlap: .queue).debounced(id: "autosave", for: .seconds(1), clock: clock)
        case .saveNow, .autosave:
            return state.save.load(Action.saved, gates.request(), overlap: .queue)
        case .saved(let load):
            return state.save.reduce(load)
        }
    }
}

/// A load's overlap policy is decided when the reducer returns it; an effect
/// that waits first carries out that decision after its wait (found by an
/// outside reading, where the docs promised more). To decide after the
/// wait, delay or debounce the action that starts the load.
@Suite("Overlap: a delayed load keeps the decision made when it was returned", .hangGuard)
@MainActor
struct DeferredDecisionTests {
    /// Sends `typing`, then "Save now" during the pause, which starts save
    /// #1 (waiting on `gates[0]`), then lets the pause end.
    static func savedNowWhilePausing(after typing: Autosave.Action) async -> (
        store: Store<Autosave.State, Autosave.Action>, gates: [Gate<Int>], typing: StoreTask, saving: StoreTask
    ) {
        let clock = TestClock()
        let queue = GateQueue<Int>()
        let gates = queue.prepare(2)
        let store = Store(initialState: Autosave.State(), reducer: Autosave(clock: clock, gates: queue))
        let typed = store.send(typing)
        await clock.waitForSleepers(1)
        let saving = store.send(.saveNow)
        await gates[0].waitForArrivals()
        clock.advance(by: .seconds(1))
        return (store, gates, typed, saving)
    }

    @Test("a debounced action decides after the pause: the autosave queues behind the save in flight")
    func debouncedAction() async {
        let (store, gates, typing, saving) = await Self.savedNowWhilePausing(after: .typed(1))
        await yieldUntil { store.state.save.queuedIDs == [LoadID(2)] }
        #expect(store.state.save.queuedIDs == [LoadID(2)], "the autosave waits its turn")
        #expect(store.state.save.inFlightID == LoadID(1))
        gates[0].open(with: 1)
        await gates[1].waitForArrivals()
        #expect(!gates[0].observedCancellation)
        gates[1].open(with: 2)
        await saving.finish()
        await typing.finish()
        await store.runningEffectsTask.finish()
        #expect(store.state.save.value == 2)
    }

    @Test("a debounced load was decided as a start, with nothing in flight then: after the pause it supersedes the save in flight")
    func debouncedLoad() async {
        let (store, gates, typing, saving) = await Self.savedNowWhilePausing(after: .typedDebouncingTheLoad(1))
        await gates[1].waitForArrivals()
        #expect(store.state.save.inFlightID == LoadID(2) && store.state.save.queuedIDs.isEmpty)
        #expect(gates[0].observedCancellation, "the save in flight was superseded")
        gates[1].open(with: 2)
        await typing.finish()
        await saving.finish()
        #expect(store.state.save.value == 2)
    }
}
