import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Testing

// The examples in the doc comments of Sources/AsyncState's Effects, Requests,
// Freshness and Activity folders (and of `Send` and `LoadReducer`), copied
// line for line into reducers whose other cases and dependencies the comments
// leave out, so the examples are known to compile and work
// (`SampleCoverageTests` checks the copies). Each copy is marked with the file
// it comes from.

enum EffectDocs {
    enum FeedError: Error, Equatable {
        case offline, timedOut, unauthorized
        init(_ error: any Error) { self = .offline }
    }

    enum SearchError: Error, Equatable {
        case offline
        init(_ error: any Error) { self = .offline }
    }

    enum SaveError: Error, Equatable { case rejected }
    enum InboxError: Error, Equatable { case offline, timedOut }
    enum APIError: Error, Equatable { case offline }

    struct API: Sendable {
        var fetchFeed: @MainActor @Sendable () async throws(FeedError) -> [String] = { ["post"] }
        var feed: @MainActor @Sendable () async throws(FeedError) -> [String] = { ["post"] }
        var user: @MainActor @Sendable () async throws(APIError) -> String = { "Lee" }
        var inbox: @MainActor @Sendable () async throws(InboxError) -> [String] = { ["hi"] }
        var results: @MainActor @Sendable (String) -> AsyncStream<[String]> = { query in
            AsyncStream { continuation in
                continuation.yield([query])
                continuation.finish()
            }
        }
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
        var profile = Loadable<String, APIError>()
        var user = Loadable<String, APIError>()
        var results = Loadable<[String], SearchError>()
        var found: [String] = []
        var draft = "draft"
        var save = Loadable<Int, SaveError>()
        var events: [Int] = []
    }

    enum Poll: Hashable, Sendable { case user }

    enum Action: Equatable, Sendable {
        case refresh, saveTapped, listen, startPolling, stopPolling, appeared
        case pollTick(LoadClock.Instant)
        case becameActive(LoadClock.Instant)
        case queryChanged(String)
        case search(String)
        case found([String])
        case received(Int)
        case feed(LoadAction<[String], FeedError>)
        case profile(LoadAction<String, APIError>)
        case user(LoadAction<String, APIError>)
        case results(LoadAction<[String], SearchError>)
        case save(LoadAction<Int, SaveError>)
    }

    /// What every example feature does with the results it receives.
    static func route(_ action: Action, in state: inout State) -> Effect<Action> {
        switch action {
        case .feed(let load): return state.feed.reduce(load)
        case .results(let load): return state.results.reduce(load)
        case .save(let load): return state.save.reduce(load)
        case .user(let load): return state.user.reduce(load)
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
                return state.feed.load(Action.feed, LoadRequest(api.fetchFeed))
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
                return state.results.load(Action.results, LoadRequest { () async throws(SearchError) in try await search(query) })
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
                let request = LoadRequest { () async throws(SearchError) in try await search(query) }
                return state.results.load(Action.results, request, overlap: .latestWins(cancellingEarlier: false))
            default:
                return EffectDocs.route(action, in: &state)
            }
        }
    }

    /// OverlapPolicy.swift and Loadable+Load.swift: a save that ignores a double tap.
    struct Saves: Reducer {
        let api = API()
        let fromLoadable: Bool

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            fromLoadable ? reduceFromLoadable(into: &state, action: action) : reduceFromPolicy(into: &state, action: action)
        }

        func reduceFromPolicy(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .saveTapped:
                // A double tap while saving starts nothing.
                let draft = state.draft
                return state.save.load(
                    Action.save, LoadRequest { () async throws(SaveError) in try await api.save(draft) }, overlap: .firstWins)
            default:
                return EffectDocs.route(action, in: &state)
            }
        }

        func reduceFromLoadable(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .refresh:
                return state.profile.load(Action.profile, LoadRequest(api.user))
            case .saveTapped:
                let draft = state.draft // the closure runs later: capture a copy, not `state`
                return state.save.load(
                    Action.save, LoadRequest { () async throws(SaveError) in try await api.save(draft) }, overlap: .firstWins)
            // LoadReducer.swift
            case .profile(let load):
                return state.profile.reduce(load)
            default:
                return EffectDocs.route(action, in: &state)
            }
        }
    }

    /// Effect+Refetch.swift: a poll, and a trigger.
    struct Refetch: Reducer {
        let api = API()
        let clock: LoadClock
        let becameActive: @Sendable () -> AsyncStream<Void>

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .startPolling:
                return .poll(id: Poll.user, every: .seconds(30), clock: clock, Action.pollTick)
            case .stopPolling:
                return .cancel(id: Poll.user)
            case .pollTick:
                return state.user.load(Action.user, LoadRequest(api.user).stamped(by: clock), overlap: .firstWins)
            case .appeared:
                return .triggers(id: "active", becameActive, clock: clock, action: Action.becameActive)
            case .becameActive(let now):
                return state.user.loadIfNeeded(Action.user, LoadRequest(api.user).stamped(by: clock), maxAge: .seconds(60), at: now)
            default:
                return EffectDocs.route(action, in: &state)
            }
        }
    }

    /// Requests: LoadRequest.swift, LoadTimeout.swift, RetryPolicy.swift, Jitter.swift, Backoff.swift.
    @MainActor
    static func requests(api: API, clock: LoadClock, query: String) -> [Any] {
        // LoadRequest.swift
        let user = LoadRequest(api.user) // typed throws → APIError
        let feed = LoadRequest(mapError: FeedError.init) { try await api.feed() }
        let inbox = LoadRequest { () async throws(InboxError) in try await api.inbox() }
            .retry(RetryPolicy(attempts: 3, backoff: .exponential(initial: .seconds(1), maximum: .seconds(8))))
            .timeout(LoadTimeout(.seconds(20), failure: .timedOut))
            .stamped(by: clock)
        let results = LoadRequest(stream: { api.results(for: query) }, mapError: SearchError.init)
        return [user, feed, inbox, results, timed(api: api), retried(api: api, clock: clock), jittered(), backoffs()]
    }

    @MainActor
    static func timed(api: API) -> LoadRequest<[String], FeedError> {
        // LoadTimeout.swift
        let feed = LoadRequest { () async throws(FeedError) in try await api.feed() }
            .timeout(LoadTimeout(.seconds(10), failure: .timedOut))
        return feed
    }

    @MainActor
    static func retried(api: API, clock: LoadClock) -> LoadRequest<[String], FeedError> {
        // RetryPolicy.swift
        let retry = RetryPolicy<FeedError>(
            attempts: 3,
            backoff: .exponential(initial: .seconds(1), maximum: .seconds(8)),
            clock: clock
        ) { failure, _ in failure != .unauthorized } // never retry what cannot succeed

        let feed = LoadRequest { () async throws(FeedError) in try await api.feed() }.retry(retry)
        return feed
    }

    static func jittered() -> RetryPolicy<FeedError> {
        // Jitter.swift
        let policy = RetryPolicy<FeedError>(
            attempts: 4, backoff: .exponential(initial: .seconds(1), maximum: .seconds(20)),
            jitter: .proportional(0.5, using: SystemRandomNumberGenerator()))
        return policy
    }

    static func backoffs() -> [Backoff] {
        // Backoff.swift
        let steady = Backoff.constant(.seconds(1)) // 1 s, 1 s, 1 s…
        let growing = Backoff.exponential(initial: .seconds(1), maximum: .seconds(30)) // 1 s, 2 s, 4 s… at most 30 s
        return [steady, growing]
    }

    /// LoadActivity.swift: the banner a feed shows.
    static func banner(for feed: Loadable<[String], FeedError>) -> String? {
        var banner: String?
        if let activity = feed.activity, let wait = activity.wait, let attempts = activity.attempts {
            banner = "Retrying (\(activity.attempt) of \(attempts)) after \(wait)…"
        } else if feed.activity?.reason == .retryAfterFailure, let failure = feed.activity?.lastFailure {
            banner = "Trying again after \(failure)…"
        }
        return banner
    }
}

extension EffectDocs.API {
    @MainActor func results(for query: String) -> AsyncStream<[String]> { results(query) }
}

@Suite("Doc comment examples: effects and requests")
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

    @Test(arguments: [false, true])
    func firstWinsIgnoresADoubleTap(fromLoadable: Bool) async {
        let store = Store(initialState: State(), reducer: EffectDocs.Saves(fromLoadable: fromLoadable))
        let save = store.send(.saveTapped)
        let doubleTap = store.send(.saveTapped)
        #expect(doubleTap.isEmpty)
        await save.finish()
        #expect(store.save.value == "draft".count)
        #expect(store.save.newestID == LoadID(1))
        guard fromLoadable else { return }
        await store.send(.refresh).finish()
        #expect(store.profile.value == "Lee")
    }

    @Test func aPollTickLoadsAndATriggerLoadsWhatIsStale() async {
        let clock = TestClock()
        let active = Broadcast()
        let store = Store(initialState: State(), reducer: EffectDocs.Refetch(clock: LoadClock(clock), becameActive: { active.listen() }))
        let poll = store.send(.startPolling)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(30))
        while store.user.value == nil { await Task.yield() }
        #expect(store.user.settledAt == LoadClock.Instant(offset: .seconds(30)))
        store.send(.stopPolling)
        await poll.finish()
        let triggers = store.send(.appeared)
        await yieldUntil { active.listenerCount == 1 }
        active.send()
        active.finish()
        await triggers.finish()
        #expect(store.user.newestID == LoadID(1), "fresh at 30 s: the trigger starts nothing")
    }

    @Test func everyRequestShapeBuilds() {
        let requests = EffectDocs.requests(api: EffectDocs.API(), clock: LoadClock(TestClock()), query: "q")
        #expect(requests.count == 8)
        #expect(EffectDocs.jittered().attempts == 4)
        #expect(EffectDocs.backoffs().map { $0.wait(after: 2) } == [.seconds(1), .seconds(2)])
        let retried = EffectDocs.retried(api: EffectDocs.API(), clock: LoadClock(TestClock()))
        #expect(retried.retryPolicy?.attempts == 3)
    }

    @Test func theBannerSaysWhyALoadRuns() {
        var feed = Loadable<[String], EffectDocs.FeedError>()
        _ = feed.apply(.started(LoadID(1)))
        _ = feed.apply(.retrying(LoadID(1), LoadRetry(attempt: 1, of: 3, failure: .offline, wait: .seconds(2))))
        #expect(EffectDocs.banner(for: feed) == "Retrying (2 of 3) after 2.0 seconds…")
        _ = feed.apply(.failed(LoadID(1), .offline))
        _ = feed.apply(.started(LoadID(2)))
        #expect(EffectDocs.banner(for: feed) == "Trying again after offline…")
    }
}
