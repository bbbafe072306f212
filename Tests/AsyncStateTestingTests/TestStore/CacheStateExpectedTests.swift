import AsyncState
import AsyncStateTesting
import Testing

/// `CacheState(expecting:users:)`: a cache's state written by value, checked
/// against the states `CacheReducer` makes.
@Suite("TestStore: a cache's expected state by value")
@MainActor
struct CacheStateExpectedTests {
    typealias State = CacheState<Int, String, Never>

    /// The state `actions` leave, through the reducer; its effects are not run.
    func reduced(_ actions: [CacheAction<Int, String, Never>]) -> State {
        let reducer = CacheReducer<Int, String, Never>(clock: LoadClock(TestClock()), staleAfter: .seconds(30)) { key in
            LoadRequest { () async throws(Never) in "\(key)" }
        }
        var state = State()
        for action in actions { _ = reducer.reduce(into: &state, action: action) }
        return state
    }

    let now = LoadClock.Instant(offset: .zero)

    @Test("keys with their users, by value, equal the reducer's")
    func users() {
        let state = reduced([.subscribe(7, at: now), .subscribe(7, at: now), .subscribe(8, at: now)])
        #expect(state == State(expecting: [7: Loadable(), 8: Loadable()], users: [7: 2, 8: 1]))
        #expect(state != State(expecting: [7: Loadable(), 8: Loadable()], users: [7: 1, 8: 1]))
        #expect(state != State(expecting: [7: Loadable()], users: [7: 2]))
    }

    @Test("unused keys are listed in the order a full cache would evict them")
    func evictionOrder() {
        let state = reduced([.subscribe(7, at: now), .subscribe(8, at: now), .unsubscribe(8), .unsubscribe(7)])
        #expect(state == State(expecting: [8: Loadable(), 7: Loadable()]))
        #expect(state != State(expecting: [7: Loadable(), 8: Loadable()]), "7 is evicted after 8")
    }

    @Test(
        "bad input has a defined meaning: counts below one are none, a key given twice keeps its first place and last loadable",
        arguments: [0, -1, Int.min])
    func badInput(users: Int) {
        #expect(State(expecting: [7: Loadable()], users: [7: users]) == reduced([.prefetch(7, at: now)]))
        #expect(State(expecting: [7: Loadable()], users: [7: users, 9: 4]).users(of: 9) == 0)
        let twice = State(expecting: [7: Loadable(value: "a"), 8: Loadable(), 7: Loadable(value: "b")])
        #expect(twice[7]?.value == "b")
        #expect(twice == State(expecting: [7: Loadable(value: "b"), 8: Loadable()]))
        #expect(State(expecting: [7: Loadable()], users: [7: .max]).users(of: 7) == .max)
    }
}
