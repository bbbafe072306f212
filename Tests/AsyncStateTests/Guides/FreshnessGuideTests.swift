import AsyncState
import AsyncStateControls
import Testing

// The code of the "Freshness and a shared cache" guide
// (Sources/AsyncState/Documentation.docc/Freshness.md) and of README's section,
// copied verbatim so it is known to compile and behave. Change both together.

enum FreshnessGuide {
    struct User: Equatable, Sendable { var name: String }
    enum APIError: Error, Equatable { case offline }

    struct UserScreen<C: Clock>: Reducer where C.Duration == Duration {
        struct State: Equatable {
            var user = FreshLoadable<User, APIError, C.Instant>()
        }

        enum Action {
            case appeared
            case becameActive(C.Instant)
            case serverChanged
            case user(FreshAction<User, APIError, C.Instant>)
        }

        let clock: C
        let becameActive: AsyncStream<Void>
        let fetch: @MainActor @Sendable () async throws(APIError) -> User

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .appeared:
                return .merge(
                    state.user.load(Action.user, clock: clock, overlap: .join, operation: fetch),
                    .triggers(becameActive, clock: clock, action: Action.becameActive)
                )
            case .becameActive(let now):
                return state.user.refetchIfStale(maxAge: .seconds(60), at: now) { load() }
            case .serverChanged:
                return state.user.reduce(.invalidate) { load() }
            case .user(let action):
                return state.user.reduce(action) { load() }
            }
        }

        func load() -> Effect<Action> {
            .load(Action.user, clock: clock, operation: fetch)
        }
    }

    /// A pretend API whose calls the test answers.
    @MainActor
    final class API {
        var gates: [Gate<User>] = []
        func user(_ id: Int) async throws(APIError) -> User {
            let gate = Gate<User>()
            gates.append(gate)
            do { return try await gate.wait() } catch { throw .offline }
        }
        func me() async throws(APIError) -> User { try await user(0) }
    }
}

@Suite("Freshness guide")
@MainActor
struct FreshnessGuideTests {
    typealias User = FreshnessGuide.User
    typealias APIError = FreshnessGuide.APIError

    @Test("the screen loads on appear, follows an invalidation during a load, and refetches a stale user when active")
    func screen() async {
        let clock = TestClock()
        let api = FreshnessGuide.API()
        let (becameActive, active) = AsyncStream<Void>.makeStream()
        let store = Store(
            initialState: FreshnessGuide.UserScreen<TestClock>.State(),
            reducer: FreshnessGuide.UserScreen(clock: clock, becameActive: becameActive, fetch: api.me))
        store.send(.appeared)
        await settle { api.gates.count == 1 }
        store.send(.serverChanged)
        api.gates[0].open(with: User(name: "Lee"))
        await settle { api.gates.count == 2 }
        #expect(store.user.value == User(name: "Lee"))
        api.gates[1].open(with: User(name: "Lee Wong"))
        await settle { !store.user.isLoading }
        clock.advance(by: .seconds(60))
        active.yield()
        await settle { api.gates.count == 3 }
        #expect(store.user.state == .refreshing(value: User(name: "Lee Wong")))
        active.finish()
        api.gates[2].open(with: User(name: "Lee Wong"))
    }

    @Test("the cache example: two subscribers share one load; invalidation by predicate; one leaves, the other keeps it")
    func cache() async {
        let clock = TestClock()
        let api = FreshnessGuide.API()
        let users = Cache<Int, User, APIError>(
            clock: clock, staleAfter: .seconds(30), collectAfter: .seconds(300), operation: api.user)

        let profile = users.subscribe(7) // loads user 7
        let chat = users.subscribe(7) // shares that load
        await settle { api.gates.count == 1 }
        api.gates[0].open(with: User(name: "Lee"))
        await chat.loaded()
        #expect(users[7]?.value == User(name: "Lee")) // observable per key: user 8 changing does not re-render it
        #expect(users.invalidate(where: { $0 < 100 }) == 1) // stale; entries in use reload
        await settle { api.gates.count == 2 }
        profile.cancel() // chat still holds user 7
        #expect(users.users(of: 7) == 1)
        api.gates[1].open(with: User(name: "Lee Wong"))
        await settle { users[7]?.isLoading == false }
        #expect(users[7]?.value == User(name: "Lee Wong"))
    }

    @Test("README's example, verbatim between the marks")
    func readme() async {
        let clock = TestClock()
        let api = FreshnessGuide.API()
        let answered = Task { @MainActor in
            await settle { api.gates.count == 1 }
            api.gates[0].open(with: User(name: "Lee"))
        }
        // README begins
        let profile = AsyncValue<User, APIError>(clock: clock)
        await profile.loadIfNeeded(maxAge: .seconds(60), api.me) // reloads a success older than a minute

        let users = Cache<Int, User, APIError>(
            clock: clock, staleAfter: .seconds(30), collectAfter: .seconds(300), operation: api.user)
        let profileScreen = users.subscribe(7) // loads user 7
        let chatScreen = users.subscribe(7) // shares that load and that entry
        users.invalidate(where: { $0 < 100 }) // stale; entries in use reload
        // README ends
        await answered.value
        #expect(profile.value == User(name: "Lee"))
        #expect(users.users(of: 7) == 2 && users.isInvalidated(7))
        await settle { api.gates.count == 2 }
        #expect(api.gates.count == 2) // the profile, and one load of user 7 for both screens; the follow-up waits for it
        withExtendedLifetime((profileScreen, chatScreen)) {}
    }

    @Test("the README's AsyncValue example reloads a profile older than a minute")
    func asyncValue() async {
        let clock = TestClock()
        let api = FreshnessGuide.API()
        let profile = AsyncValue<User, APIError>(clock: clock)
        let first = Task { await profile.loadIfNeeded(maxAge: .seconds(60), api.me) }
        await settle { api.gates.count == 1 }
        api.gates[0].open(with: User(name: "Lee"))
        await first.value
        await profile.loadIfNeeded(maxAge: .seconds(60), api.me) // fresh: nothing happens
        #expect(api.gates.count == 1)
    }
}
