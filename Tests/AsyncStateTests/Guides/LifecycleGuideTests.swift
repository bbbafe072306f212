import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

// The code of the DocC article Sources/AsyncState/Documentation.docc/LoadLifecycle.md,
// copied line for line so it is known to compile and behave as described
// (`SampleCoverageTests` checks the copy).

enum LifecycleGuide {
    typealias Message = String

    enum InboxError: Error, Equatable { case offline, unauthorized }

    struct InboxAPI: Sendable {
        var messages: @MainActor @Sendable () async throws(InboxError) -> [Message]
        var pages: @MainActor @Sendable (String) -> AsyncStream<[Message]>
    }

    struct Inbox: Reducer {
        struct State: Equatable {
            var messages = Loadable<[Message], InboxError>()
        }

        enum Action: Equatable {
            case refresh
            case search(String)
            case cancel
            case messages(LoadAction<[Message], InboxError>)
        }

        let api: InboxAPI
        let retry: RetryPolicy<InboxError>

        init(api: InboxAPI, clock: any Clock<Duration>) {
            self.api = api
            self.retry = RetryPolicy(
                attempts: 3,
                backoff: .exponential(initial: .seconds(1), maximum: .seconds(8)),
                jitter: .proportional(0.2, using: SystemRandomNumberGenerator()),
                clock: clock
            ) { failure, _ in failure != .unauthorized } // waiting will not fix this one
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            let api = api
            switch action {
            case .refresh:
                let request = LoadRequest { () async throws(InboxError) in try await api.messages() }
                return state.messages.load(Action.messages, request.retry(retry))
            case .search(let query):
                let pages = LoadRequest(stream: { api.pages(query) }, initial: [], mapError: { _ in InboxError.offline }) {
                    shown, page in shown += page
                }
                return state.messages.load(Action.messages, pages)
            case .cancel:
                return .cancel(load: state.messages.cancel()) // also during a wait between attempts
            case .messages(let load):
                return state.messages.reduce(load) // drops stale retries and stale pages too
            }
        }
    }

    /// What a banner over the list (or over the skeleton) says.
    static func banner(for messages: Loadable<[Message], InboxError>) -> String? {
        guard let activity = messages.activity else {
            return messages.error.map { "Could not load: \($0)" }
        }
        if let attempts = activity.attempts, activity.isRetry, let wait = activity.wait {
            return "Retrying (\(activity.attempt) of \(attempts)) after \(wait)…"
        }
        switch activity.reason {
        case .firstLoad: return nil // the skeleton says enough
        case .refresh, .nextPage: return "Refreshing…"
        case .retryAfterFailure: return "Trying again after \(activity.lastFailure!)…"
        }
    }
}

@Suite("Retries, activity and streams guide")
@MainActor
struct LifecycleGuideTests {
    typealias Inbox = LifecycleGuide.Inbox

    @Test("the banner tells a first load, a refresh, a retry after a failure and a pending retry apart")
    func banners() {
        var messages = Loadable<[String], LifecycleGuide.InboxError>()
        func banner() -> String? { LifecycleGuide.banner(for: messages) }
        _ = messages.apply(.started(LoadID(1)))
        #expect(banner() == nil)
        _ = messages.apply(.retrying(LoadID(1), LoadRetry(attempt: 1, of: 3, failure: .offline, wait: .seconds(4))))
        #expect(banner() == "Retrying (2 of 3) after 4.0 seconds…")
        _ = messages.apply(.failed(LoadID(1), .offline))
        #expect(banner() == "Could not load: offline")
        _ = messages.apply(.started(LoadID(2)))
        #expect(banner() == "Trying again after offline…")
        _ = messages.apply(.finished(LoadID(2), ["hi"]))
        _ = messages.apply(.started(LoadID(3)))
        #expect(banner() == "Refreshing…")
    }

    @Test("the inbox retries on its clock and streams its search pages")
    func inbox() async {
        let clock = TestClock()
        let calls = LockedValue(0)
        let api = LifecycleGuide.InboxAPI(
            messages: { () async throws(LifecycleGuide.InboxError) in
                let call = calls.withLock { count in
                    count += 1
                    return count
                }
                if call == 1 { throw .offline }
                return ["hello"]
            },
            pages: { query in
                AsyncStream { continuation in
                    continuation.yield(["\(query) 1"])
                    continuation.yield(["\(query) 2"])
                    continuation.finish()
                }
            })
        let store = Store(initialState: Inbox.State(), reducer: Inbox(api: api, clock: clock))
        let refresh = store.send(.refresh)
        await clock.waitForSleepers(1)
        #expect(store.messages.activity?.attempt == 2)
        clock.advance(by: .seconds(1))
        await refresh.finish()
        #expect(store.messages.value == ["hello"])
        await store.send(.search("a")).finish()
        #expect(store.messages.value == ["a 1", "a 2"])
    }

    @Test("AsyncValue loads with a retry policy and reads out its activity")
    func asyncValue() async {
        let feed = AsyncValue<[String], AnyError>()
        await feed.load(LoadRequest { try await fetchPosts() }.retry(RetryPolicy(attempts: 3, backoff: .constant(.seconds(1)))))
        let activity = feed.activity // nil once settled; while loading: reason, attempt k of n, last failure
        #expect(feed.value == ["post"])
        #expect(activity == nil)
    }
}

@MainActor
private func fetchPosts() async throws -> [String] { ["post"] }
