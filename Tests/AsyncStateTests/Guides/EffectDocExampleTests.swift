import AsyncState
import AsyncStateControls
import Testing

// The examples in the doc comments of Sources/AsyncState/Effects (and of
// `Send` and `LoadReducer`), copied verbatim into reducers whose other cases
// and dependencies the comments leave out, so the examples are known to
// compile and work. Change both together. Each comment's lines are marked
// with the file they come from.

enum EffectDocs {
    enum FeedError: Error, Equatable {
        case offline, timedOut
        init(_ error: any Error) { self = .offline }
    }

    enum SearchError: Error, Equatable { case offline }
    enum SaveError: Error, Equatable { case rejected }

    struct API: Sendable {
        var fetchFeed: @MainActor @Sendable () async throws(FeedError) -> [String] = { ["post"] }
        var feed: @MainActor @Sendable () async throws(FeedError) -> [String] = { ["post"] }
        var profile: @MainActor @Sendable () async throws(FeedError) -> String = { "Lee" }
        var search: @MainActor @Sendable (String) async throws(SearchError) -> [String] = { [$0] }
        // Suspends once, as a network call would, so a second tap arrives
        // while the save is in flight (an operation that answers without
        // suspending settles inside the `send` that started it).
        var save: @MainActor @Sendable (String) async throws(SaveError) -> Int = { draft in
            await Task.yield()
            return draft.count
        }
    }

    struct State: Equatable {
        var feed = Loadable<[String], FeedError>()
        var profile = Loadable<String, FeedError>()
        var results = Loadable<[String], SearchError>()
        var found: [String] = []
        var draft = "draft"
        var save = Loadable<Int, SaveError>()
        var events: [Int] = []
    }

    enum Action: Equatable, Sendable {
        case refresh, refreshWithTimeout, refreshUntyped, saveTapped, listen
        case queryChanged(String)
        case search(String)
        case found([String])
        case received(Int)
        case feed(LoadAction<[String], FeedError>)
        case profile(LoadAction<String, FeedError>)
        case results(LoadAction<[String], SearchError>)
        case save(LoadAction<Int, SaveError>)
    }

    /// What every example feature does with the results it receives.
    static func route(_ action: Action, in state: inout State) -> Effect<Action> {
        switch action {
        case .feed(let load): return state.feed.reduce(load)
        case .results(let load): return state.results.reduce(load)
        case .save(let load): return state.save.reduce(load)
        case .found(let found): state.found = found
        case .received(let event): state.events.append(event)
        default: break
        }
        return .none
    }

    /// Effect.swift, and Send.swift's `.run`.
    struct Effects: Reducer {
        let api = API()
        let search: @MainActor @Sendable (String) async -> [String] = { [$0] }
        let clock: TestClock
        let events: AsyncStream<Int>

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            // Effect.swift
            case .refresh:
                return .load(Action.feed, operation: api.fetchFeed)
            case .queryChanged(let query):
                return .run { send in send(.found(await search(query))) }
                    .debounced(id: "search", for: .milliseconds(300), clock: clock)
            // Send.swift
            case .listen:
                return .run { send in
                    for await event in events { send(.received(event)) }
                }
            default:
                return EffectDocs.route(action, in: &state)
            }
        }
    }

    /// Effect+Time.swift: a debounced load.
    struct DebouncedLoad: Reducer {
        let search: @MainActor @Sendable (String) async throws(SearchError) -> [String] = { [$0] }
        let clock: TestClock

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .queryChanged(let query):
                return .load(Action.results) { () async throws(SearchError) in try await search(query) }
                    .debounced(id: "search", for: .milliseconds(300), clock: clock)
            default:
                return EffectDocs.route(action, in: &state)
            }
        }
    }

    /// Effect+Time.swift: a debounced action that starts the load.
    struct DebouncedAction: Reducer {
        let search: @MainActor @Sendable (String) async throws(SearchError) -> [String] = { [$0] }
        let clock: TestClock

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .queryChanged(let query):
                return Effect.send(.search(query)).debounced(id: "search", for: .milliseconds(300), clock: clock)
            case .search(let query):
                return state.results.load(Action.results, overlap: .latestWins(cancellingEarlier: false)) {
                    () async throws(SearchError) in try await search(query)
                }
            default:
                return EffectDocs.route(action, in: &state)
            }
        }
    }

    /// Effect+Load.swift, LoadTimeout.swift, LoadReducer.swift.
    struct Loads: Reducer {
        let api = API()

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            // Effect+Load.swift
            case .refresh:
                return .load(Action.profile, operation: api.profile)
            case .search(let query):
                return .load(Action.results) { () async throws(SearchError) in
                    try await api.search(query)
                }
            case .refreshUntyped:
                return .load(Action.feed, mapError: { FeedError($0) }) {
                    try await api.feed()
                }
            // LoadTimeout.swift
            case .refreshWithTimeout:
                return .load(Action.feed, timeout: LoadTimeout(.seconds(10), failure: .timedOut)) {
                    () async throws(FeedError) in try await api.feed()
                }
            // LoadReducer.swift
            case .profile(let load):
                return state.profile.reduce(load)
            default:
                return EffectDocs.route(action, in: &state)
            }
        }
    }

    /// OverlapPolicy.swift
    struct PolicySave: Reducer {
        let api = API()

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .saveTapped:
                // A double tap while saving starts nothing.
                let draft = state.draft
                return state.save.load(Action.save, overlap: .firstWins) { () async throws(SaveError) in
                    try await api.save(draft)
                }
            default:
                return EffectDocs.route(action, in: &state)
            }
        }
    }

    /// Loadable+Load.swift
    struct LoadableSave: Reducer {
        let api = API()

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .saveTapped:
                let draft = state.draft // the closure runs later: capture a copy, not `state`
                return state.save.load(Action.save, overlap: .firstWins) { () async throws(SaveError) in
                    try await api.save(draft)
                }
            default:
                return EffectDocs.route(action, in: &state)
            }
        }
    }
}

@Suite("Doc comment examples: effects")
@MainActor
struct EffectDocExampleTests {
    typealias State = EffectDocs.State

    @Test func effectLoadsAndDebouncesARun() async {
        let clock = TestClock()
        let (events, _) = AsyncStream<Int>.makeStream()
        let store = Store(initialState: State(), reducer: EffectDocs.Effects(clock: clock, events: events))
        await store.send(.refresh).finish()
        #expect(store.feed.value == ["post"])

        let search = store.send(.queryChanged("swift"))
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(300))
        await search.finish()
        #expect(store.found == ["swift"])
    }

    @Test func sendDeliversEveryEvent() async {
        let (events, continuation) = AsyncStream<Int>.makeStream()
        let store = Store(initialState: State(), reducer: EffectDocs.Effects(clock: TestClock(), events: events))
        let listening = store.send(.listen)
        continuation.yield(1)
        continuation.yield(2)
        continuation.finish()
        await listening.finish()
        #expect(store.events == [1, 2])
    }

    @Test func aDebouncedLoadStartsOnceTheWaitIsOver() async {
        let clock = TestClock()
        let store = Store(initialState: State(), reducer: EffectDocs.DebouncedLoad(clock: clock))
        store.send(.queryChanged("s"))
        let last = store.send(.queryChanged("sw"))
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(300))
        await last.finish()
        #expect(store.results.newestID == LoadID(1))
        #expect(store.results.value == ["sw"])
    }

    @Test func aDebouncedActionStartsTheLoad() async {
        let clock = TestClock()
        let store = Store(initialState: State(), reducer: EffectDocs.DebouncedAction(clock: clock))
        let task = store.send(.queryChanged("swift"))
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(300))
        await task.finish()
        #expect(store.results.value == ["swift"])
    }

    @Test func loadsTypedUntypedAndTimed() async {
        let store = Store(initialState: State(), reducer: EffectDocs.Loads())
        await store.send(.refresh).finish()
        #expect(store.profile.value == "Lee")
        await store.send(.search("q")).finish()
        #expect(store.results.value == ["q"])
        await store.send(.refreshUntyped).finish()
        #expect(store.feed.value == ["post"])
        await store.send(.refreshWithTimeout).finish()
        #expect(store.feed.state == .success(value: ["post"]))
    }

    @Test(arguments: [false, true])
    func firstWinsIgnoresADoubleTap(fromLoadable: Bool) async {
        let reducer: any Reducer<State, EffectDocs.Action> =
            fromLoadable ? EffectDocs.LoadableSave() : EffectDocs.PolicySave()
        let store = Store(initialState: State(), reducer: reducer)
        let save = store.send(.saveTapped)
        let doubleTap = store.send(.saveTapped)
        #expect(doubleTap.isEmpty)
        await save.finish()
        #expect(store.save.value == "draft".count)
        #expect(store.save.newestID == LoadID(1))
    }
}
