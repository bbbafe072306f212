import AsyncState
import AsyncStateTesting
import Testing

// The code of the "Testing features" guide (Sources/AsyncStateTesting/Documentation.docc/TestingFeatures.md),
// copied verbatim so the guide's code is known to compile and pass. Change both together.

enum Guide {
    enum ProfileError: Error, Equatable { case offline }

    struct Profile: Reducer {
        struct State: Equatable {
            var attempts = 0
            var profile = Loadable<String, ProfileError>()
        }

        enum Action: Equatable {
            case refresh
            case profile(LoadAction<String, ProfileError>)
        }

        /// Fetches the profile; told which attempt this is.
        let fetch: @MainActor @Sendable (Int) async throws -> String

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .refresh:
                state.attempts += 1
                let attempt = state.attempts, fetch = fetch
                return state.profile.load(Action.profile, LoadRequest(mapError: { _ in .offline }) { try await fetch(attempt) })
            case .profile(let load):
                return state.profile.reduce(load)
            }
        }
    }
}

extension Guide {
    enum SearchError: Error, Equatable { case offline }

    struct Search: Reducer {
        struct State: Equatable {
            var query = ""
            var results = Loadable<[String], SearchError>()
        }

        enum Action: Equatable {
            case queryChanged(String)
            case results(LoadAction<[String], SearchError>)
        }

        let clock: any Clock<Duration>
        let search: @MainActor @Sendable (String) async throws(SearchError) -> [String]

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .queryChanged(let query):
                state.query = query
                let search = search
                return state.results.load(Action.results, LoadRequest { () async throws(SearchError) in try await search(query) })
                    .debounced(id: "search", for: .milliseconds(300), clock: clock)
            case .results(let load):
                return state.results.reduce(load)
            }
        }
    }
}

private typealias Profile = Guide.Profile
private typealias Search = Guide.Search

@Suite("Testing features guide")
struct TestingGuideTests {
    @Test @MainActor func aSupersededLoadNeverWins() async {
        let gates = [Gate<String>(), Gate<String>()]
        let store = TestStore(
            initialState: Profile.State(),
            reducer: Profile(fetch: { attempt in try await gates[attempt - 1].wait() })
        )

        store.send(.refresh) { $0.attempts = 1 }
        await store.receive(.profile(.started(LoadID(1)))) { $0.profile = Loadable(expecting: .loading, inFlightID: LoadID(1)) }
        store.send(.refresh) { $0.attempts = 2 }
        await store.receive(.profile(.started(LoadID(2)))) { $0.profile = Loadable(expecting: .loading, inFlightID: LoadID(2)) }
        await store.receive(.profile(.cancelled(LoadID(1)))) // superseded: dropped, no change

        gates[1].open(with: "new")
        await store.receive(.profile(.finished(LoadID(2), "new"))) {
            $0.profile = Loadable(expecting: .success(value: "new"), newestID: LoadID(2))
        }
        await store.finish()
    }

    @Test @MainActor func typingFastSearchesOnce() async {
        let clock = TestClock()
        let store = TestStore(initialState: Search.State(), reducer: Search(clock: clock, search: { [$0] }))

        store.send(.queryChanged("s")) { $0.query = "s" }
        store.send(.queryChanged("sw")) { $0.query = "sw" }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(300))
        await store.receive(.results(.started(LoadID(1)))) { $0.results = Loadable(expecting: .loading, inFlightID: LoadID(1)) }
        await store.receive(.results(.finished(LoadID(1), ["sw"]))) {
            $0.results = Loadable(expecting: .success(value: ["sw"]), newestID: LoadID(1))
        }
        await store.finish()
    }

    @Test @MainActor func refresh() async {
        let gate = Gate<String>()
        gate.open(with: "Lee")
        let store = Store(initialState: Profile.State(), reducer: Profile(fetch: { _ in try await gate.wait() }))
        await assertStateSequence(of: store, named: "refresh") {
            await store.send(.refresh).finish()
        }
    }
}
