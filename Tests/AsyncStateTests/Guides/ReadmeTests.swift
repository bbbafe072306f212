import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Observation
import Testing

// The Swift samples of README.md, copied line for line so the README is
// known to compile and to do what it says (`SampleCoverageTests` fails when
// the two differ). Only the types the README leaves out (User, API, Post, the
// error enums) are written here.

enum Readme {
    struct User: Equatable, Sendable {
        let name: String
        static let lee = User(name: "Lee")
    }

    enum APIError: Error, Equatable { case offline }
    enum LoadError: Error, Equatable { case offline }
    enum FeedError: Error, Equatable { case offline }
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

    // "A feature as a reducer"
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
                return state.profile.load(Action.profile, LoadRequest(api.user)) // typed throws → APIError
            case .cancel:
                return .cancel(load: state.profile.cancel()) // back to the previous value now
            case .profile(let load):
                return state.profile.reduce(load) // drops stale results, cancels superseded work
            }
        }
    }

    // "A social feed on one loadable"
    struct Post: Equatable, Sendable {
        var id: Int
        var isLiked = false
    }

    struct SetLiked: Edit {
        var postID: Int
        var liked: Bool

        func apply(to posts: inout Pages<Post, Int>) -> Bool {
            guard let index = posts.firstIndex(where: { $0.id == postID }) else { return false }
            posts[index].isLiked = liked
            return true
        }
    }

    /// The feed's server: two pages of two posts.
    @MainActor
    final class FeedAPI: Sendable {
        nonisolated init() {}

        func posts(after cursor: Int?) async throws(FeedError) -> Pages<Post, Int> {
            let start = cursor ?? 0
            return Pages([Post(id: start + 1), Post(id: start + 2)], next: start == 0 ? 2 : nil)
        }

        func like(_ id: Int) async throws(FeedError) {}
    }

    struct Feed: Reducer {
        struct State: Equatable {
            var posts = Loadable<Pages<Post, Int>, FeedError>()
        }

        enum Action: Equatable {
            case appeared(LoadClock.Instant)
            case pulledToRefresh
            case lastRowAppeared
            case likeTapped(Int)
            case posts(LoadAction<Pages<Post, Int>, FeedError>)
        }

        let api: FeedAPI
        let clock: LoadClock

        func page(_ cursor: Int?) -> LoadRequest<Pages<Post, Int>, FeedError> {
            LoadRequest { () async throws(FeedError) in try await api.posts(after: cursor) }
                .retry(RetryPolicy(attempts: 3, backoff: .exponential(initial: .seconds(1), maximum: .seconds(8)), clock: clock))
                .stamped(by: clock)
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .appeared(let now):
                return state.posts.loadIfNeeded(Action.posts, page(nil), maxAge: .seconds(60), at: now)
            case .pulledToRefresh:
                return state.posts.load(Action.posts, page(nil))
            case .lastRowAppeared:
                return state.posts.loadMore(Action.posts, page)
            case .likeTapped(let id):
                return state.posts.edit(
                    Action.posts, SetLiked(postID: id, liked: true),
                    LoadRequest { () async throws(FeedError) in
                        try await api.like(id)
                    })
            case .posts(let action):
                return state.posts.reduce(action)
            }
        }
    }

    // "Without reducers"
    @MainActor @Observable
    final class ProfileStore {
        let profile = AsyncValue<User, AnyError>()
        let operations = OperationTracker<ProfileOperation, AnyError>()

        func appear() async { await profile.loadIfNeeded { try await api.user() } }
        func save() async { await operations.run(.save) { try await api.save(self.profile.value) } }
    }
}

extension Readme {
    @Suite("README samples")
    @MainActor
    struct Tests {
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

        @Test("the social feed pages, likes, and appears fresh or stale")
        func socialFeed() async {
            let clock = TestClock()
            let loadClock = LoadClock(clock)
            let store = Store(initialState: Feed.State(), reducer: Feed(api: FeedAPI(), clock: loadClock))
            await store.send(.appeared(loadClock.now)).finish()
            #expect(store.posts.value?.map(\.id) == [1, 2])
            await store.send(.lastRowAppeared).finish()
            #expect(store.posts.value?.map(\.id) == [1, 2, 3, 4])
            await store.send(.likeTapped(3)).finish()
            #expect(store.posts.value?.filter(\.isLiked).map(\.id) == [3])
            // Fresh a minute minus a second later: nothing starts.
            #expect(store.send(.appeared(LoadClock.Instant(offset: .seconds(59)))).isEmpty)
            // A refresh replaces the pages; the confirmed like is part of the confirmed value until the server's answer.
            await store.send(.pulledToRefresh).finish()
            #expect(store.posts.value?.map(\.id) == [1, 2])
            #expect(!store.send(.appeared(LoadClock.Instant(offset: .seconds(61)))).isEmpty)
        }

        @Test func asyncValueLoadsOnceAndSaves() async {
            let screen = ProfileStore()
            await screen.appear()
            await screen.appear()
            #expect(screen.profile.value == .lee)
            await screen.save()
            #expect(!screen.operations.isActive(.save))
            #expect(screen.operations.error(for: .save) == nil)
        }

        @Test @MainActor func refreshShowsTheUser() async {
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
}
