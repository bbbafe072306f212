import AsyncState
import AsyncStateTesting
import Observation
import Testing

// The Swift samples of README.md, copied verbatim so the README is known to
// compile and to do what it says. Change both together. Only the types the
// README leaves out (User, API, the error enums) are written here.

enum Readme {
    struct User: Equatable, Sendable {
        let name: String
        static let lee = User(name: "Lee")
    }

    enum APIError: Error, Equatable { case offline }
    enum LoadError: Error, Equatable { case offline }
    enum ProfileOperation: Hashable, Sendable { case save }

    struct API: Sendable {
        var user: @MainActor @Sendable () async throws(APIError) -> User
        var save: @MainActor @Sendable (User?) async throws(APIError) -> Void

        static let live = API(user: { .lee }, save: { _ in })

        /// Every user load waits until the test opens `gate`.
        static func waiting(on gate: Gate<User>) -> API {
            API(
                user: { () async throws(APIError) in
                    do { return try await gate.wait() } catch { throw .offline }
                },
                save: { _ in }
            )
        }
    }

    /// The `api` the README's `ProfileStore` calls.
    static let api = API.live

    // "Features as reducers"
    struct Profile: Reducer {
        struct State: Equatable {
            var profile = Loadable<User, APIError>()
        }

        enum Action: Equatable {
            case refresh
            case cancel
            case profile(LoadAction<User, APIError>)
        }

        let api: API

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .refresh:
                return .load(Action.profile, operation: api.user) // typed throws → APIError
            case .cancel:
                return .cancel(load: state.profile.cancel()) // back to the previous value now
            case .profile(let load):
                return state.profile.reduce(load) // drops stale results, cancels superseded work
            }
        }
    }

    /// The README's inline variants: a first-wins load from the `Loadable`,
    /// and a closure that names its error type.
    struct FirstWinsProfile: Reducer {
        typealias State = Profile.State
        typealias Action = Profile.Action

        let api: API

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .refresh:
                return state.profile.load(Action.profile, overlap: .firstWins, operation: api.user)
            case .cancel:
                let api = api
                return .load(Action.profile, operation: { () async throws(APIError) in try await api.user() })
            case .profile(let load):
                return state.profile.reduce(load)
            }
        }
    }

    // "Loading without writing a reducer"
    @MainActor @Observable
    final class ProfileStore {
        let profile = AsyncValue<User, AnyError>()
        let operations = OperationTracker<ProfileOperation, AnyError>()

        func appear() async { await profile.loadIfNeeded { try await api.user() } }
        func save() async { await operations.run(.save) { try await api.save(self.profile.value) } }
    }
}

private typealias User = Readme.User
private typealias LoadError = Readme.LoadError
private typealias Profile = Readme.Profile

@Suite("README samples")
@MainActor
struct ReadmeTests {
    @Test func theValueModel() {
        var state: AsyncState<[String], FeedError> = .notLoaded
        state.startLoading() // .loading
        state.setValue(["a", "b"]) // .success(value: ["a", "b"])
        state.startLoading() // .refreshing(value: ["a", "b"]) — the old value stays on screen
        state.stopLoading() // .success(value: ["a", "b"])

        #expect(state == .success(value: ["a", "b"]))
        state.startLoading()
        #expect(state.description == #"refreshing(value: ["a", "b"])"#)
    }

    @Test func loadableDropsTheOlderResult() {
        var profile = Loadable<String, LoadError>()
        _ = profile.apply(.started(LoadID(1))) // .loading
        _ = profile.apply(.started(LoadID(2))) // #1 is superseded
        _ = profile.apply(.finished(LoadID(2), "Lee")) // .success(value: "Lee")
        let late = profile.apply(.finished(LoadID(1), "Old")) // .dropped — never shown

        #expect(late == .dropped)
        #expect(profile.state == .success(value: "Lee"))
    }

    @Test func aStoreRunsTheFeature() async {
        let store = Store(initialState: Profile.State(), reducer: Profile(api: .live))
        await store.send(.refresh).finish()
        let user = store.profile.value // the user

        #expect(user == .lee)
    }

    @Test func cancelReturnsToThePreviousValueAtOnce() async {
        let gate = Gate<User>()
        let store = Store(initialState: Profile.State(), reducer: Profile(api: .waiting(on: gate)))
        let load = store.send(.refresh)
        #expect(store.profile.state == .loading)
        store.send(.cancel)
        #expect(store.profile.state == .notLoaded)
        await load.finish()
        #expect(gate.observedCancellation)
    }

    @Test func aFirstWinsLoadIgnoresASecondStart() async {
        let gate = Gate<User>()
        let store = Store(initialState: Profile.State(), reducer: Readme.FirstWinsProfile(api: .waiting(on: gate)))
        let first = store.send(.refresh)
        let second = store.send(.refresh)
        #expect(second.isEmpty)
        #expect(store.profile.inFlightID == LoadID(1))
        gate.open(with: .lee)
        await first.finish()
        #expect(store.profile.value == .lee)
    }

    @Test func aClosureThatNamesItsErrorTypeLoads() async {
        let store = Store(initialState: Profile.State(), reducer: Readme.FirstWinsProfile(api: .live))
        await store.send(.cancel).finish()
        #expect(store.profile.value == .lee)
    }

    @Test func asyncValueLoadsOnceAndSaves() async {
        let screen = Readme.ProfileStore()
        await screen.appear()
        await screen.appear()
        #expect(screen.profile.value == .lee)
        await screen.save()
        #expect(!screen.operations.isActive(.save))
        #expect(screen.operations.error(for: .save) == nil)
    }

    @Test func refreshShowsTheUser() async {
        let gate = Gate<User>()
        let store = TestStore(initialState: Profile.State(), reducer: Profile(api: .waiting(on: gate)))

        store.send(.refresh)
        await store.receive(.profile(.started(LoadID(1)))) {
            $0.profile = Loadable(expecting: .loading, inFlightID: LoadID(1))
        }
        gate.open(with: .lee) // the test decides when the load answers
        await store.receive(.profile(.finished(LoadID(1), .lee))) {
            $0.profile = Loadable(expecting: .success(value: .lee), newestID: LoadID(1))
        }
        await store.finish() // fails if anything is unreceived or still running
    }
}
