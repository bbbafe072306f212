import AsyncState
import Observation
import Testing

// The examples in the doc comments of Sources/AsyncState's Model, Reducers,
// Collections, Store and Convenience folders, copied verbatim — into test
// bodies, or into features whose other parts the comments leave out — so the
// examples are known to compile and work. Change both together.

enum ValueDocs {
    enum LoadError: Error, Equatable { case offline }
    enum ProfileError: Error, Equatable { case offline }
    enum ImageError: Error, Equatable { case missing }

    struct Profile: Equatable, Sendable {
        let name: String
    }

    struct Image: Equatable, Sendable {
        let pixels: Int
    }

    struct ProfileAPI: Sendable {
        func profile() async throws -> Profile { Profile(name: "Lee") }
    }

    struct ItemAPI: Sendable {
        func save(_ items: [String]) async throws {}
    }

    static let api = ProfileAPI()

    // LoadAction.swift
    enum Action {
        case refresh
        case profile(LoadAction<Profile, ProfileError>)
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
        struct State: Equatable { var avatars: [Int: Loadable<Image, ImageError>] = [:] }
        enum Action { case avatar(Int, LoadAction<Image, ImageError>) }

        func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
    }

    // KeyedStates.swift and KeyedStorage.swift
    enum Row {
        struct State: Equatable {
            var isExpanded = false
            var isSelected = false
        }
    }

    // Store.swift
    struct ProfileFeature: Reducer {
        struct State: Equatable { var profile = Loadable<Profile, AnyError>() }
        enum Action: Equatable {
            case refresh
            case profile(LoadAction<Profile, AnyError>)
        }

        let api: ProfileAPI

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .refresh:
                let api = api
                return .load(Action.profile, mapError: AnyError.init) { try await api.profile() }
            case .profile(let load):
                return state.profile.reduce(load)
            }
        }
    }

    // AsyncValue.swift
    @MainActor @Observable
    final class ProfileStore {
        let profile = AsyncValue<Profile, AnyError>()
        func appear() async { await profile.loadIfNeeded { try await api.profile() } }
    }
}

@Suite("Doc comment examples: values, reducers, store")
@MainActor
struct ValueDocExampleTests {
    typealias Profile = ValueDocs.Profile

    @Test func asyncState() {
        var state: AsyncState<[String], FeedError> = .notLoaded
        state.startLoading() // .loading
        state.setValue(["a", "b"]) // .success(value: ["a", "b"])
        state.startLoading() // .refreshing(value: ["a", "b"])

        #expect(state == .refreshing(value: ["a", "b"]))
    }

    @Test func loadable() {
        typealias LoadError = ValueDocs.LoadError

        var profile = Loadable<String, LoadError>()
        _ = profile.apply(.started(LoadID(1))) // state: .loading
        _ = profile.apply(.started(LoadID(2))) // #1 is superseded
        _ = profile.apply(.finished(LoadID(2), "Lee")) // state: .success(value: "Lee")
        let late = profile.apply(.finished(LoadID(1), "Old")) // .dropped

        #expect(late == .dropped)
        #expect(profile.state == .success(value: "Lee"))
    }

    @Test func loadActionRoutesThroughAnEnumCase() {
        let action = ValueDocs.Action.profile(.started(LoadID(1)))
        guard case .profile(let load) = action else {
            Issue.record("not a profile action")
            return
        }
        #expect(load.id == LoadID(1))
    }

    @Test func reduceAndReducer() {
        let counter = Reduce<Int, Int> { count, delta in
            count += delta
            return .none
        }
        let store = Store(initialState: 0, reducer: counter)
        store.send(3)
        #expect(store.state == 3)

        let counting = Store(initialState: 0, reducer: ValueDocs.Counter())
        counting.send(true)
        counting.send(true)
        counting.send(false)
        #expect(counting.state == 1)
    }

    @Test func scope() {
        let store = Store(initialState: ValueDocs.App.State(), reducer: ValueDocs.App())
        store.send(.settings(.toggle))
        #expect(store.settings.isOn)
    }

    @Test func forEach() async {
        typealias Rows = ValueDocs.Rows
        typealias Action = Rows.Action
        typealias Image = ValueDocs.Image
        typealias ImageError = ValueDocs.ImageError

        let reducer = Rows().forEach(
            \.avatars, action: Action.avatar,
            extract: { if case .avatar(let id, let load) = $0 { (id, load) } else { nil } }
        ) {
            LoadReducer<Image, ImageError>()
        }

        var state = Rows.State(avatars: [7: Loadable(), 8: Loadable()])
        _ = reducer.reduce(into: &state, action: .avatar(7, .started(LoadID(1))))
        _ = reducer.reduce(into: &state, action: .avatar(8, .started(LoadID(2))))
        #expect(state.avatars[7]?.inFlightID == LoadID(1))
        #expect(state.avatars[8]?.inFlightID == LoadID(2))
    }

    @Test func keyedStates() {
        typealias Row = ValueDocs.Row

        var rows: KeyedStates<Int, Row.State> = [1: Row.State(), 2: Row.State()]
        rows[3] = Row.State() // appended at the end
        rows.withMutableValue(forKey: 2) { $0.isExpanded = true }
        let order = rows.map(\.key) // [1, 2, 3]

        #expect(order == [1, 2, 3])
        #expect(rows[2]?.isExpanded == true)

        let id = 3
        rows.withMutableValue(forKey: id) { $0.isSelected = true }
        #expect(rows[3]?.isSelected == true)
    }

    @Test func storeAndStoreTask() async {
        typealias Profile = ValueDocs.ProfileFeature
        let api = ValueDocs.api

        let store = Store(initialState: Profile.State(), reducer: Profile(api: api))
        await store.send(.refresh).finish()
        let profile = store.state.profile // or `store.profile`

        #expect(profile.value == ValueDocs.Profile(name: "Lee"))
        await store.send(.refresh).finish() // the load has settled
        #expect(store.profile.inFlightID == nil)
    }

    @Test func asyncValueAndAnyError() async {
        let screen = ValueDocs.ProfileStore()
        await screen.appear()
        #expect(screen.profile.value == Profile(name: "Lee"))

        let api = ValueDocs.api
        let profile = AsyncValue<Profile, AnyError>()
        await profile.load { try await api.profile() } // untyped throws
        #expect(profile.value == Profile(name: "Lee"))
    }

    @Test func operationTracker() async {
        let api = ValueDocs.ItemAPI()
        let items = ["a"]

        enum ItemOperation: Hashable, Sendable { case fetch, save, delete }

        let operations = OperationTracker<ItemOperation, AnyError>()
        let saved = await operations.run(.save) { try await api.save(items) }
        // saved: .success(…), .failure(…), .cancelled or .ignored
        let saving = operations.isActive(.save) // false again
        let failure = operations.error(for: .save) // the failure, if it failed
        let all = operations.errors // every key's failure
        operations.clearError(for: .save) // its banner was dismissed

        #expect(saved.value != nil)
        #expect(!saving)
        #expect(failure == nil)
        #expect(all.isEmpty)
    }
}
