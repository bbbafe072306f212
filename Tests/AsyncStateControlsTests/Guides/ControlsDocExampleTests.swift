import AsyncState
import AsyncStateControls
import Testing

// The examples in the doc comments of Sources/AsyncStateControls, copied
// verbatim into test bodies so they are known to compile and work. Change
// both together. The features they drive are written here.

enum ControlsDocs {
    struct Failure: Error, Equatable {}

    /// Loads whatever the gate it is sent gives.
    struct Gated: Reducer {
        struct State: Equatable { var value = Loadable<Int, Failure>() }
        enum Action {
            case load(Gate<Int>)
            case value(LoadAction<Int, Failure>)
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .load(let gate):
                return state.value.load(Action.value, LoadRequest(mapError: { _ in Failure() }) { try await gate.wait() })
            case .value(let load):
                return state.value.reduce(load)
            }
        }
    }

    /// Searches once the query has held still for 300 ms on `clock`.
    struct Search: Reducer {
        struct State: Equatable { var results = Loadable<[String], Failure>() }
        enum Action {
            case queryChanged(String)
            case results(LoadAction<[String], Failure>)
        }

        let clock: TestClock

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .queryChanged(let query):
                return state.results.load(Action.results, LoadRequest { () async throws(Failure) in [query] })
                    .debounced(id: "search", for: .milliseconds(300), clock: clock)
            case .results(let load):
                return state.results.reduce(load)
            }
        }
    }

    struct Fixture: Equatable, Sendable {
        static let fixture = Fixture()
    }

    struct API: Sendable {
        var fetch: @Sendable () async throws -> Fixture
    }
}

@Suite("Doc comment examples: controls")
@MainActor
struct ControlsDocExampleTests {
    @Test func gate() async {
        let store = Store(initialState: ControlsDocs.Gated.State(), reducer: ControlsDocs.Gated())

        let first = Gate<Int>(), second = Gate<Int>()
        store.send(.load(first)) // load #1 waits on `first`
        store.send(.load(second)) // load #2 waits on `second`
        second.open(with: 2) // #2 finishes first …
        first.open(with: 1) // … then #1, whose result is stale

        await store.runningEffectsTask.finish()
        #expect(store.value.value == 2)
        #expect(store.value.newestID == LoadID(2))
    }

    @Test func testClock() async {
        typealias Search = ControlsDocs.Search
        let clock = TestClock()
        let store = Store(initialState: Search.State(), reducer: Search(clock: clock))
        let task = store.send(.queryChanged("swi")) // debounced by 300 ms
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(300)) // the search runs now
        await task.finish()

        #expect(store.results.value == ["swi"])
    }

    @Test func waitUntilIdle() async {
        let clock = TestClock()
        let store = Store(initialState: ControlsDocs.Search.State(), reducer: ControlsDocs.Search(clock: clock))
        store.send(.queryChanged("swift"))

        while true {
            guard await store.waitUntilIdle(on: clock), let next = clock.nextDeadline else { break }
            clock.advance(to: next)
        }

        #expect(store.results.value == ["swift"])
        #expect(clock.now.offset == .milliseconds(300))
    }

    @Test func lockedValue() async throws {
        typealias API = ControlsDocs.API

        let calls = LockedValue(0)
        let api = API(fetch: {
            calls.withLock { $0 += 1 }; return .fixture
        })

        _ = try await api.fetch()
        #expect(calls.current == 1)
    }

    @Test func splitMix64() {
        var random = SplitMix64(seed: 42)
        let latency = Int.random(in: 50...150, using: &random) // the same on every run

        var replay = SplitMix64(seed: 42)
        #expect(latency == Int.random(in: 50...150, using: &replay))
        #expect((50...150).contains(latency))
    }
}
