import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Testing

// The code of the "Freshness and a shared cache" guide
// (Sources/AsyncState/Documentation.docc/Freshness.md), copied line for line
// so it is known to compile and behave (`SampleCoverageTests` checks the copy).

enum FreshnessGuide {
    struct User: Equatable, Sendable { var name: String }
    enum APIError: Error, Equatable { case offline }

    struct UserScreen: Reducer {
        struct State: Equatable {
            var user = Loadable<User, APIError>()
        }

        enum Action {
            case appeared(LoadClock.Instant)
            case becameActive(LoadClock.Instant)
            case serverChanged
            case user(LoadAction<User, APIError>)
        }

        let clock: LoadClock
        let becameActive: @Sendable () -> AsyncStream<Void>
        let fetch: @MainActor @Sendable () async throws(APIError) -> User

        var request: LoadRequest<User, APIError> { LoadRequest(fetch).stamped(by: clock) }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .appeared(let now):
                return .merge(
                    state.user.loadIfNeeded(Action.user, request, maxAge: .seconds(60), at: now),
                    .triggers(id: "active", becameActive, clock: clock, action: Action.becameActive)
                )
            case .becameActive(let now):
                return state.user.loadIfNeeded(Action.user, request, maxAge: .seconds(60), at: now)
            case .serverChanged:
                state.user.invalidate()
                return state.user.load(Action.user, request)
            case .user(let action):
                return state.user.reduce(action)
            }
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

    /// The guide's screen on a test clock, a gated API and "became active"
    /// events that reach every stream made for them.
    static func screen() -> (
        TestClock, FreshnessGuide.API, Broadcast, Store<FreshnessGuide.UserScreen.State, FreshnessGuide.UserScreen.Action>
    ) {
        let clock = TestClock()
        let api = FreshnessGuide.API()
        let activeEvents = Broadcast()
        let screen = FreshnessGuide.UserScreen(clock: LoadClock(clock), becameActive: { activeEvents.listen() }, fetch: api.me)
        return (clock, api, activeEvents, Store(initialState: .init(), reducer: screen))
    }

    @Test("the screen loads on appear, reloads at once on an invalidation during a load, and refetches a stale user when active")
    func screen() async {
        let (clock, api, activeEvents, store) = Self.screen()
        let appeared = store.send(.appeared(LoadClock.Instant(offset: .zero)))
        #expect(store.user.inFlightID == LoadID(1))
        // The server says the user changed while #1 is in flight: #2 supersedes it at once.
        let reload = store.send(.serverChanged)
        #expect(store.user.inFlightID == LoadID(2))
        #expect(store.user.isInvalidated)
        api.gates.last!.open(with: User(name: "Lee"))
        await reload.finish()
        #expect(store.user.value == User(name: "Lee"))
        #expect(!store.user.isInvalidated)
        // A minute later the app becomes active: the user is stale, so it reloads.
        clock.advance(by: .seconds(61))
        activeEvents.send()
        while store.user.inFlightID == nil { await Task.yield() }
        #expect(store.user.inFlightID == LoadID(3))
        api.gates.last!.open(with: User(name: "Lee Wong"))
        activeEvents.finish()
        await appeared.finish()
        await store.runningEffectsTask.wait()
        #expect(store.user.value == User(name: "Lee Wong"))
    }

    // From an outside reading: the screen starts its triggers on every
    // appearance. Without an ID each appearance added a listener for good;
    // with one, replacing the listener of one shared stream ended the stream.
    @Test("the screen, appearing twice, listens once, and a stale user still reloads when the app becomes active")
    func appearsTwice() async {
        let (clock, api, activeEvents, store) = Self.screen()
        store.send(.appeared(LoadClock.Instant(offset: .zero)))
        api.gates.last!.open(with: User(name: "Lee"))
        await yieldUntil { store.user.value != nil }
        store.send(.appeared(LoadClock.Instant(offset: .zero))) // fresh: only the triggers start again
        await yieldUntil { store.runningEffectCount == 1 }
        #expect(store.runningEffectCount == 1, "one listener")
        #expect(activeEvents.listenerCount == 2)
        clock.advance(by: .seconds(61))
        activeEvents.send()
        await yieldUntil { store.user.inFlightID != nil }
        #expect(store.user.inFlightID == LoadID(2))
        api.gates.last!.open(with: User(name: "Lee Wong"))
        activeEvents.finish()
        await store.runningEffectsTask.wait()
        #expect(store.user.value == User(name: "Lee Wong"))
    }

    @Test("the cache example: two subscribers share one load; invalidation by predicate; prefetch; one leaves, the other keeps it")
    func cache() async {
        let clock = TestClock()
        let api = CountingAPI()
        let users = Cache<Int, User, APIError>(clock: clock, staleAfter: .seconds(30), collectAfter: .seconds(300)) { id in
            LoadRequest { () async throws(APIError) in try await api.user(id) }
        }

        let profile = users.subscribe(7) // loads user 7
        let chat = users.subscribe(7) // shares that load
        await chat.loaded()
        let name = users[7]?.value?.name // observable per key: user 8 changing does not re-render it
        users.invalidate(where: { $0 < 100 }) // stale; entries in use reload
        await users.prefetch(8) // loaded ahead of its first screen; collected if none comes
        profile.cancel() // chat still holds user 7

        #expect(name == "user 7 #1")
        await users[7]?.invalidate()
        #expect(api.calls[7] == 3, "one load for two subscribers, the reload by predicate, and this one")
        #expect(users.users(of: 7) == 1)
        #expect(users.users(of: 8) == 0)
        #expect(users[8]?.value == User(name: "user 8 #1"))
        withExtendedLifetime(chat) {}
    }

    /// An API that answers at once and counts the calls per user.
    @MainActor
    final class CountingAPI {
        var calls: [Int: Int] = [:]
        func user(_ id: Int) async throws(APIError) -> User {
            calls[id, default: 0] += 1
            return User(name: "user \(id) #\(calls[id]!)")
        }
    }
}
