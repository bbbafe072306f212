import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Observation
import Testing

// The examples in the doc comments of Sources/AsyncState's Model, Pages,
// Edits, Reducers, Collections, Store, Hosts, Cache, Freshness and Debugging
// folders, copied line for line — into test bodies, or into features whose
// other parts the comments leave out — so the examples are known to compile
// and work (`SampleCoverageTests` checks the copies).

enum ValueDocs {
    enum LoadError: Error, Equatable { case offline }
    enum ProfileError: Error, Equatable { case offline }
    enum ImageError: Error, Equatable { case missing }
    enum FeedError: Error, Equatable { case offline }
    enum APIError: Error, Equatable { case offline }

    struct Profile: Equatable, Sendable {
        let name: String
        var age: Int { 30 }
    }

    struct User: Equatable, Sendable {
        var name: String
    }

    struct Image: Equatable, Sendable {
        let pixels: Int
    }

    struct Post: Equatable, Sendable {
        var id: Int
        var isLiked = false
    }

    /// The API the comments call.
    @MainActor
    final class API: Sendable {
        struct PostsResponse {
            var posts: [Post]
            var nextPage: Int?
        }

        nonisolated init() {}

        func profile() async throws -> Profile { Profile(name: "Lee") }
        func user(_ id: Int) async throws(APIError) -> User { User(name: "user \(id)") }
        func rename(_ id: Int, _ name: String) async throws(APIError) {}
        func save(_ items: [String]) async throws -> Int { items.count }
        func save(_ draft: String) async throws -> Int { draft.count }
        func posts(page: Int) async throws(FeedError) -> PostsResponse {
            PostsResponse(posts: [Post(id: page)], nextPage: page < 2 ? page + 1 : nil)
        }
        /// A feed that never ends: page `n` holds the post `n`.
        func feed(_ topic: String, after cursor: Int?) async throws(FeedError) -> Pages<Post, Int> {
            let page = cursor ?? 1
            return Pages([Post(id: page)], next: page + 1)
        }
    }

    static let api = API()

    // LoadAction.swift
    enum Action {
        case refresh
        case profile(LoadAction<Profile, ProfileError>)
    }

    // Pages.swift
    @MainActor
    struct PostsClient {
        func posts(after cursor: Int?) async throws(FeedError) -> Pages<Post, Int> {
            let response = try await api.posts(page: cursor ?? 1)
            return Pages(response.posts, next: response.nextPage) // nil: the last page
        }
    }

    // Edit.swift
    enum PostEdit: Edit {
        case setLiked(postID: Int, Bool)

        func apply(to posts: inout [Post]) -> Bool {
            switch self {
            case .setLiked(let id, let liked):
                guard let index = posts.firstIndex(where: { $0.id == id }) else { return false }
                posts[index].isLiked = liked
                return true
            }
        }
    }

    // Reducer.swift
    struct Counter: Reducer {
        func reduce(into state: inout Int, action: Bool) -> Effect<Bool> {
            state += action ? 1 : -1
            return .none
        }
    }

    // Scope.swift: a parent with a `settings` child.
    struct Settings: Reducer {
        struct State: Equatable { var isOn = false }
        enum Action { case toggle }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            state.isOn.toggle()
            return .none
        }
    }

    struct App: Reducer {
        struct State: Equatable { var settings = Settings.State() }
        enum Action { case settings(Settings.Action) }

        var body: some Reducer<State, Action> {
            Scope(
                state: \.settings, action: Action.settings,
                extract: { if case .settings(let action) = $0 { action } else { nil } }
            ) {
                Settings()
            }
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            body.reduce(into: &state, action: action)
        }
    }

    // ForEachReducer.swift: a parent with an avatar loader per row.
    struct Rows: Reducer {
        struct State: Equatable { var avatars: KeyedStates<Int, Loadable<Image, ImageError>> = [:] }
        enum Action { case avatar(Int, LoadAction<Image, ImageError>) }

        func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
    }

    // KeyedStates.swift
    enum Row {
        struct State: Equatable {
            var isExpanded = false
            var isSelected = false
        }
    }

    // Store.swift, StoreTask.swift, LoadReducer.swift, Store+LogTransitions.swift
    struct ProfileFeature: Reducer {
        struct State: Equatable { var profile = Loadable<Profile, AnyError>() }
        enum Action: Equatable {
            case refresh
            case profile(LoadAction<Profile, AnyError>)
        }

        let api: API

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .refresh:
                let api = api
                return state.profile.load(Action.profile, LoadRequest { try await api.profile() })
            case .profile(let load):
                return state.profile.reduce(load)
            }
        }
    }

    typealias ProfileFeatureAlias = ProfileFeature

    // AsyncValue.swift
    @MainActor @Observable
    final class ProfileStore {
        let profile = AsyncValue<Profile, AnyError>()
        func appear() async { await profile.loadIfNeeded { try await api.profile() } }
    }

    enum ProfileOperation: Hashable, Sendable { case save }

    // AsyncValueStore.swift
    @MainActor
    enum StatableStyle {
        @MainActor @Observable
        final class ProfileStore: AsyncValueStore {
            let asyncValue = AsyncValue<Profile, AnyError>()
            let operations = OperationTracker<ProfileOperation, AnyError>() // if it has any

            var age: Int { value?.age ?? 0 }
        }

        static func use(_ store: ProfileStore) async -> Profile? {
            await store.loadIfNeeded { try await api.profile() }
            let shown = store.value // the last value, also while reloading and after a failure
            return shown
        }
    }

    // CacheState.swift: an edit of one entry, from a reducer.
    struct Rename: Edit {
        var to: String
        func apply(to user: inout User) -> Bool {
            user.name = to
            return true
        }
    }

    struct UsersFeature: Reducer {
        struct State: Equatable { var users = CacheState<Int, User, APIError>() }
        enum Action {
            case rename(String)
            case users(CacheAction<Int, User, APIError>)
        }

        let clock: LoadClock

        var body: some Reducer<State, Action> {
            Scope(state: \.users, action: Action.users, extract: { if case .users(let action) = $0 { action } else { nil } }) {
                CacheReducer(clock: clock, staleAfter: .seconds(30)) { id in
                    LoadRequest { () async throws(APIError) in try await api.user(id) }
                }
            }
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .rename(let name):
                return state.users.update(7) {
                    $0.edit(
                        { Action.users(.entry(7, $0)) }, Rename(to: name),
                        LoadRequest { () async throws(APIError) in try await api.rename(7, name) })
                } ?? .none
            case .users:
                return body.reduce(into: &state, action: action)
            }
        }
    }
}

@Suite("Doc comment examples: values, reducers, store, hosts")
@MainActor
struct ValueDocExampleTests {
    typealias LoadError = ValueDocs.LoadError
    typealias FeedError = ValueDocs.FeedError
    typealias Post = ValueDocs.Post
    typealias Profile = ValueDocs.Profile
    typealias Image = ValueDocs.Image
    typealias ImageError = ValueDocs.ImageError
    typealias Row = ValueDocs.Row
    typealias Rows = ValueDocs.Rows
    typealias Action = ValueDocs.Rows.Action
    typealias APIError = ValueDocs.APIError
    typealias User = ValueDocs.User
    typealias ProfileOperation = ValueDocs.ProfileOperation

    var api: ValueDocs.API { ValueDocs.api }

    @Test func asyncState() {
        var state: AsyncState<[String], FeedError> = .notLoaded
        state.startLoading() // .loading
        state.setValue(["a", "b"]) // .success(value: ["a", "b"])
        state.startLoading() // .refreshing(value: ["a", "b"])
        #expect(state == .refreshing(value: ["a", "b"]))
    }

    @Test func loadable() {
        var profile = Loadable<String, LoadError>()
        _ = profile.apply(.started(LoadID(1))) // state: .loading
        _ = profile.apply(.started(LoadID(2))) // #1 is superseded
        _ = profile.apply(.finished(LoadID(2), "Lee")) // state: .success(value: "Lee")
        let late = profile.apply(.finished(LoadID(1), "Old")) // .dropped
        #expect(late == .dropped)
    }

    @Test func loadActionRoutesThroughAnEnumCase() {
        let action = ValueDocs.Action.profile(.started(LoadID(1)))
        guard case .profile(.started(let id)) = action else {
            Issue.record("not routed")
            return
        }
        #expect(id == LoadID(1))
        #expect("\(ValueDocs.Action.refresh)" == "refresh")
    }

    @Test func pagesAPage() async throws {
        let first = try await ValueDocs.PostsClient().posts(after: nil)
        #expect(first.map(\.id) == [1])
        #expect(first.next == 2)
        #expect(try await ValueDocs.PostsClient().posts(after: 2).next == nil)
    }

    @Test func anEditSaysWhatTheValueBecomes() {
        var posts = [ValueDocs.Post(id: 1), ValueDocs.Post(id: 2)]
        #expect(ValueDocs.PostEdit.setLiked(postID: 2, true).apply(to: &posts))
        #expect(posts[1].isLiked)
        #expect(!ValueDocs.PostEdit.setLiked(postID: 3, true).apply(to: &posts))
    }

    @Test func reduceAndReducer() {
        let counter = Reduce<Int, Int> { count, delta in
            count += delta
            return .none
        }
        var count = 0
        _ = counter.reduce(into: &count, action: 3)
        _ = ValueDocs.Counter().reduce(into: &count, action: false)
        #expect(count == 2)
    }

    @Test func scope() {
        var state = ValueDocs.App.State()
        _ = ValueDocs.App().reduce(into: &state, action: .settings(.toggle))
        #expect(state.settings.isOn)
    }

    var rows: some Reducer<Rows.State, Action> {
        Rows().forEach(
            \.avatars, action: Action.avatar,
            extract: { if case .avatar(let id, let load) = $0 { (id, load) } else { nil } }
        ) {
            LoadReducer<Image, ImageError>()
        }
    }

    @Test func forEach() async {
        let reducer = rows
        var state = Rows.State(avatars: [7: Loadable()])
        _ = reducer.reduce(into: &state, action: .avatar(7, .started(LoadID(1))))
        #expect(state.avatars[7]?.isLoading == true)
    }

    @Test func keyedStates() {
        var rows: KeyedStates<Int, Row.State> = [1: Row.State(), 2: Row.State()]
        rows[3] = Row.State() // appended at the end
        rows.withMutableValue(forKey: 2) { $0.isExpanded = true }
        let order = rows.map(\.key) // [1, 2, 3]
        #expect(order == [1, 2, 3])
        let id = 3
        rows.withMutableValue(forKey: id) { $0.isSelected = true }
        #expect(rows[3]?.isSelected == true && rows[2]?.isExpanded == true)
    }

    @Test func keyedStatesDefault() {
        var saves: KeyedStates<String, Int> = [:]
        saves["draft", default: 0] += 1 // ["draft": 1]
        saves["draft", default: 0] += 1
        #expect(saves == ["draft": 2])
        #expect(saves["note", default: 5] == 5 && saves.keys == ["draft"])
    }

    @Test func storeAndStoreTask() async {
        typealias Profile = ValueDocs.ProfileFeature
        let store = Store(initialState: Profile.State(), reducer: Profile(api: api))
        await store.send(.refresh).finish()
        let profile = store.state.profile // or `store.profile`
        #expect(profile.value?.name == "Lee")
        await store.send(.refresh).finish() // the load has settled
        #expect(store.profile.newestID == LoadID(2))
    }

    @Test func logTransitionsPrintsEveryAction() async {
        typealias Profile = ValueDocs.ProfileFeature
        var lines: [String] = []
        let store = Store(initialState: Profile.State(), reducer: Profile(api: api))
        store.logTransitions(prefix: "profile")
        // [profile] .refresh
        //   (no change)
        // [profile] .profile(.started(#1))
        //   profile.state: .notLoaded → .loading
        //   …
        // [profile] dropped as stale: .profile(.finished(#1, "Old"))
        store.logTransitions(prefix: "test") { lines.append($0) }
        await store.send(.refresh).finish()
        #expect(lines.first?.hasPrefix("[test] .refresh") == true)
    }

    @Test func dumps() {
        let text = String(dumping: Loadable<Int, Never>(value: 3))
        // Loadable<Int, Never>(
        //   state: .success(value: 3),
        //   …
        #expect(text.hasPrefix("Loadable<Int, Never>("))
    }

    @Test func asyncValueAndAnyError() async {
        let screen = ValueDocs.ProfileStore()
        await screen.appear()
        #expect(screen.profile.value?.name == "Lee")
        let profile = AsyncValue<Profile, AnyError>()
        await profile.load { try await api.profile() } // untyped throws
        #expect(profile.value?.name == "Lee")
    }

    @Test func asyncValueStore() async {
        let shown = await ValueDocs.StatableStyle.use(ValueDocs.StatableStyle.ProfileStore())
        #expect(shown?.name == "Lee")
    }

    @Test func operationTracker() async {
        let items = ["a"]
        enum ItemOperation: Hashable, Sendable { case fetch, save, delete }

        let operations = OperationTracker<ItemOperation, AnyError>()
        let saved = await operations.run(.save) { try await api.save(items) }
        // saved: .success(…), .failure(…), .cancelled or .ignored
        let saving = operations.isActive(.save) // false again
        let failure = operations.error(for: .save) // the failure, if it failed
        let all = operations.errors // every key's failure
        operations.clearError(for: .save) // its banner was dismissed
        #expect(saved == .success(1) && !saving && failure == nil && all.isEmpty)
    }

    @Test func operationResult() async {
        let draft = "draft"
        let operations = OperationTracker<ProfileOperation, AnyError>()
        var shown: [Int] = []
        func show(_ saved: Int) { shown.append(saved) }
        func banner(_ error: AnyError) { shown.append(-1) }
        switch await operations.run(.save, { try await api.save(draft) }) {
        case .success(let saved): show(saved)
        case .failure(let error): banner(error)
        case .cancelled, .ignored: break // not an error
        }
        #expect(shown == [5])
    }

    @Test func aQueuedRetriedRun() async {
        enum SaveError: Error, Equatable { case rejected }
        let draft = "draft"
        let api = (save: { @MainActor @Sendable (_ draft: String) async throws(SaveError) -> Int in draft.count }, ())
        let operations = OperationTracker<ProfileOperation, SaveError>()
        let save = LoadRequest { () async throws(SaveError) in try await api.save(draft) }.retry(RetryPolicy(attempts: 3))
        await operations.run(.save, save, overlap: .queue)
        #expect(!operations.isActive(.save))
    }

    @Test func aRetriedLoadOfAValue() async {
        enum APIError: Error, Equatable { case offline }
        let api = (user: { @MainActor @Sendable () async throws(APIError) -> String in "Lee" }, ())
        let profile = AsyncValue<String, APIError>()
        await profile.load(LoadRequest(api.user).retry(RetryPolicy(attempts: 3)))
        #expect(profile.value == "Lee")
    }

    @Test func aCacheSharesAnEntry() async {
        let users = Cache<Int, User, APIError>(clock: ContinuousClock(), staleAfter: .seconds(30)) { id in
            LoadRequest { () async throws(APIError) in try await api.user(id) }
        }
        let subscription = users.subscribe(7) // loads user 7, or shares the load in flight
        await subscription.loaded() // waits for the load it started or joined
        let name = users[7]?.value?.name // observable: SwiftUI re-renders when it settles
        users.invalidate(7) // marks it stale and reloads it
        subscription.cancel() // or let it go; collected `collectAfter` later
        #expect(name == "user 7")
    }

    @Test func aCacheOfPagedListsKeepsAWindowPerEntry() async {
        let feeds = Cache<String, Pages<Post, Int>, FeedError>(clock: ContinuousClock(), staleAfter: .seconds(60), window: 3) { topic in
            LoadRequest { () async throws(FeedError) in try await api.feed(topic, after: nil) }
        }
        let subscription = feeds.subscribe("swift")
        await subscription.loaded()
        await feeds["swift"]?.loadMore { cursor in
            LoadRequest { () async throws(FeedError) in try await api.feed("swift", after: cursor) }
        }
        for _ in 1...2 {
            await feeds["swift"]?.loadMore { cursor in
                LoadRequest { () async throws(FeedError) in try await api.feed("swift", after: cursor) }
            }
        }
        #expect(feeds["swift"]?.value?.map(\.id) == [2, 3, 4], "the first of four pages went")
        #expect(feeds["swift"]?.loadable.window == 3)
        subscription.cancel()
    }

    @Test func aCacheReducerAndAnEditOfOneEntry() async {
        let clock = LoadClock(TestClock())
        let store = Store(initialState: ValueDocs.UsersFeature.State(), reducer: ValueDocs.UsersFeature(clock: clock))
        await store.send(.users(.subscribe(7, at: clock.now))).finish()
        #expect(store.users[7]?.value == User(name: "user 7"))
        await store.send(.rename("Lee")).finish()
        #expect(store.users[7]?.value == User(name: "Lee"))
        #expect(store.users[7]?.pendingEdits.isEmpty == true)
    }

    @Test func aLoadClockMeasuresStaleness() {
        let profile = Loadable<String, LoadError>()
        let clock = LoadClock(ContinuousClock())
        let now = clock.now // e.g. 12.5 seconds
        let stale = profile.isStale(maxAge: .seconds(60), at: now)
        #expect(stale, "never loaded")
    }
}
