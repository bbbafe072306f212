import AsyncState
import AsyncStateTesting
import Testing

// The examples in the doc comments of Sources/AsyncStateTesting, copied
// verbatim so they are known to compile and pass. Change both together. The
// features they test are written here.

enum TestingDocs {
    struct Profile: Equatable, Sendable {
        let name: String
        static let lee = Profile(name: "Lee")
    }

    enum Failure: Error, Equatable { case offline }

    /// TestStore.swift's feature: a profile fetched by a closure.
    struct Feature: Reducer {
        struct State: Equatable { var profile = Loadable<Profile, Failure>() }
        enum Action: Equatable {
            case refresh
            case profile(LoadAction<Profile, Failure>)
        }

        let fetch: @MainActor @Sendable () async throws -> Profile

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .refresh:
                return state.profile.load(Action.profile, LoadRequest(mapError: { _ in .offline }, fetch))
            case .profile(let load):
                return state.profile.reduce(load)
            }
        }
    }

    /// SnapshotAssertion.swift's feature: a feed whose API answers at once.
    struct Feed: Reducer {
        struct API: Sendable {
            var latest: @MainActor @Sendable () async throws(Failure) -> [String]
            static let fixed = API(latest: { ["first post"] })
        }

        struct State: Equatable { var posts = Loadable<[String], Failure>() }
        enum Action: Equatable {
            case refresh
            case posts(LoadAction<[String], Failure>)
        }

        let api: API

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .refresh:
                return state.posts.load(Action.posts, LoadRequest(api.latest))
            case .posts(let load):
                return state.posts.reduce(load)
            }
        }
    }

    /// CacheState+Expected.swift's feature: users shared through a cache.
    struct Users: Reducer {
        struct State: Equatable { var users = CacheState<Int, String, Failure>() }
        enum Action {
            case users(CacheAction<Int, String, Failure>)
        }

        let clock: LoadClock

        var body: some Reducer<State, Action> {
            Scope(state: \.users, action: Action.users, extract: { if case .users(let action) = $0 { action } else { nil } }) {
                CacheReducer(clock: clock, staleAfter: .seconds(30), collectAfter: .seconds(60)) { id in
                    LoadRequest { () async throws(Failure) in "user \(id)" }
                }
            }
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            body.reduce(into: &state, action: action)
        }
    }
}

@Suite("Doc comment examples: testing")
@MainActor
struct TestingDocExampleTests {
    typealias Profile = TestingDocs.Profile
    typealias Feature = TestingDocs.Feature
    typealias Feed = TestingDocs.Feed

    @Test @MainActor func refresh() async {
        let gate = Gate<Profile>()
        let store = TestStore(initialState: Feature.State(), reducer: Feature(fetch: { try await gate.wait() }))
        store.send(.refresh)
        await store.receive(.profile(.started(LoadID(1)))) { $0.profile = Loadable(expecting: .loading, inFlightID: LoadID(1)) }
        gate.open(with: .lee)
        await store.receive(.profile(.finished(LoadID(1), .lee))) {
            $0.profile = Loadable(expecting: .success(value: .lee), newestID: LoadID(1))
        }
        await store.finish()
    }

    @Test @MainActor func expectedValues() async {
        let store = TestStore(initialState: Feature.State(), reducer: Feature(fetch: { Profile(name: "Lee") }))
        store.send(.refresh)
        await store.receive(.profile(.started(LoadID(1)))) {
            $0.profile = Loadable(expecting: .loading, inFlightID: LoadID(1))
        }
        await store.receive(.profile(.finished(LoadID(1), "Lee"))) {
            $0.profile = Loadable(expecting: .success(value: "Lee"), newestID: LoadID(1))
        }
        await store.finish()
    }

    @Test @MainActor func cacheExpectedValues() async {
        let testClock = TestClock()
        let clock = LoadClock(testClock)
        let store = TestStore(initialState: TestingDocs.Users.State(), reducer: TestingDocs.Users(clock: clock))
        store.send(.users(.subscribe(7, at: clock.now))) {
            $0.users = CacheState(expecting: [7: Loadable()], users: [7: 1])
        }
        await store.receive("started #1", matching: { if case .users(.entry(7, .started(LoadID(1)))) = $0 { true } else { false } }) {
            $0.users = CacheState(expecting: [7: Loadable(expecting: .loading, inFlightID: LoadID(1))], users: [7: 1])
        }
        let loaded = Loadable<String, TestingDocs.Failure>(expecting: .success(value: "user 7"), newestID: LoadID(1), settledAt: clock.now)
        await store.receive(
            "finished #1", matching: { if case .users(.entry(7, .at(_, .finished(LoadID(1), _)))) = $0 { true } else { false } }
        ) {
            $0.users = CacheState(expecting: [7: loaded], users: [7: 1])
        }
        store.send(.users(.unsubscribe(7))) {
            $0.users = CacheState(expecting: [7: loaded])
        }
        await testClock.waitForSleepers()
        testClock.advance(by: .seconds(60))
        await store.receive("collect(7)", matching: { if case .users(.collect(7, _)) = $0 { true } else { false } }) {
            $0.users = CacheState()
        }
        await store.finish()
    }

    @Test @MainActor func refreshKeepsContent() async {
        let store = Store(initialState: Feed.State(), reducer: Feed(api: .fixed))
        await assertStateSequence(of: store, named: "refresh") {
            await store.send(.refresh).finish()
        }
    }

    @Test func stringDumping() {
        let dump = String(dumping: Loadable<Int, Never>(value: 3))
        // Loadable<Int, Never>(
        //   state: .success(value: 3),
        //   …

        #expect(dump.hasPrefix("Loadable<Int, Never>(\n  state: .success(value: 3),\n"))
    }
}

/// So Loadable+Expected.swift's example, which loads a name, reads as written.
extension TestingDocs.Profile: ExpressibleByStringLiteral {
    init(stringLiteral name: String) { self.init(name: name) }
}
