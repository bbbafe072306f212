import AsyncState

/// Two screens — a profile and a chat — that show the same user through a
/// shared keyed cache: they share one entry and one load, the entry outlives
/// a screen that closes while the other still shows it, an invalidation
/// during a load is followed by a fresh load, a stale user reloads when the
/// app becomes active, and an unused entry is collected.
public struct CacheScreensFeature<C: Clock>: Reducer where C.Duration == Duration {
    public typealias Users = CacheReducer<Int, String, DemoAPI.Failure>

    /// A screen that shows one user.
    public enum Screen: String, CaseIterable, Sendable, Codable {
        case profile, chat, search
    }

    public struct State: Equatable {
        /// Which user each open screen shows.
        public var open: [Screen: Int] = [:]
        public var users = Users.State()
        public init() {}
    }

    public enum Action: Codable {
        case opened(Screen, user: Int)
        case closed(Screen)
        /// The server says this user changed.
        case serverChanged(user: Int)
        case pulledToRefresh(user: Int)
        /// Watch the app's lifecycle for "became active".
        case watchLifecycle
        case users(Users.Action)
    }

    let clock: LoadClock
    let users: Users
    let becameActive: @Sendable () -> ScheduledEvents<C>

    /// - Parameters:
    ///   - becameActive: makes a sequence of the app's "became active"
    ///     events, one per start of the triggers (the demo plays them on the
    ///     simulated clock; an app makes an `AsyncStream` fed by a
    ///     notification observer).
    public init(
        api: DemoAPI, clock: C, staleAfter: Duration, collectAfter: Duration,
        becameActive: @escaping @Sendable () -> ScheduledEvents<C>
    ) {
        let clock = LoadClock(clock)
        self.clock = clock
        self.becameActive = becameActive
        let revisions = Revisions()
        users = Users(clock: clock, staleAfter: staleAfter, collectAfter: collectAfter) { id in
            LoadRequest { () async throws(DemoAPI.Failure) in try await api.user(id, revision: revisions.next(id)) }
        }
    }

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .opened(let screen, let user):
            state.open[screen] = user
            // The time of a subscribe comes from the clock, read in an effect.
            let clock = clock
            return .run { send in send(.users(.subscribe(user, at: clock.now))) }
        case .closed(let screen):
            guard let user = state.open.removeValue(forKey: screen) else { return .none }
            return reduce(into: &state, action: .users(.unsubscribe(user)))
        case .serverChanged(let user):
            return reduce(into: &state, action: .users(.invalidate(user)))
        case .pulledToRefresh(let user):
            return reduce(into: &state, action: .users(.refetch(user)))
        case .watchLifecycle:
            return .triggers(id: "active", becameActive, clock: clock) { .users(.refetchStale(at: $0)) }
        case .users(let action):
            return users.reduce(into: &state.users, action: action).map(Action.users)
        }
    }
}

/// How many times the pretend server has served each user, so a reload
/// brings back a new revision.
@MainActor
private final class Revisions {
    private var counts: [Int: Int] = [:]

    func next(_ id: Int) -> Int {
        let count = counts[id, default: 0] + 1
        counts[id] = count
        return count
    }
}

/// Events at fixed moments of a clock, then the end — an injected lifecycle
/// sequence for a simulation.
public struct ScheduledEvents<C: Clock>: AsyncSequence, Sendable {
    public typealias Element = Void
    let clock: C
    let moments: [C.Instant]

    public init(clock: C, at moments: [C.Instant]) {
        self.clock = clock
        self.moments = moments
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let clock: C
        var remaining: ArraySlice<C.Instant>

        public mutating func next() async -> Void? {
            guard let moment = remaining.popFirst() else { return nil }
            do { try await clock.sleep(until: moment, tolerance: nil) } catch { return nil }
            return ()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(clock: clock, remaining: moments[...])
    }
}
