/// A clock whose time moves only when a test says so, for effects that wait
/// (debounce, delay, timeout) without any real sleeping.
///
/// ```swift
/// let clock = TestClock()
/// let store = Store(initialState: Search.State(), reducer: Search(clock: clock))
/// let task = store.send(.queryChanged("swi"))   // debounced by 300 ms
/// await clock.waitForSleepers(1)
/// clock.advance(by: .milliseconds(300))         // the search runs now
/// await task.finish()
/// ```
public final class TestClock: Clock, Sendable {
    /// A point on a test clock: the time since the clock was created.
    public struct Instant: InstantProtocol, Sendable, CustomStringConvertible {
        /// How far this instant is from the clock's start.
        public let offset: Duration

        /// Creates the instant `offset` after the clock's start, clamped to
        /// ±`Int64.max` seconds: every instant then adds, subtracts and
        /// compares alike.
        public init(offset: Duration) { self.offset = offset.clamped }

        /// The instant `duration` later. Both are first clamped to
        /// ±`Int64.max` seconds, so that no sum overflows — never a trap.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset.clamped + duration.clamped) }
        /// The time from this instant to `other`, clamped as ``advanced(by:)`` clamps.
        public func duration(to other: Instant) -> Duration { other.offset.clamped - offset.clamped }
        /// Whether `lhs` comes first.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }

        /// The offset, e.g. `0.3 seconds`.
        public var description: String { "\(offset)" }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Sleeper] = []
        var sleeperWaiters: [(id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = LockedValue(State())

    /// Creates a clock at offset zero.
    public init() {}

    /// The current time; it moves only with ``advance(by:)`` and ``advance(to:)``.
    public var now: Instant { state.withLock { $0.now } }

    /// The smallest step of time: one nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// The earliest deadline a task is asleep until, or `nil` if none is.
    public var nextDeadline: Instant? { state.withLock { $0.sleepers.map(\.deadline).min() } }

    /// How many tasks are waiting on this clock now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until the clock is advanced to `deadline`; returns at once if it
    /// has passed, and throws `CancellationError` if the task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumed: [CheckedContinuation<Void, Never>] = state.withLock { state in
                    // Cancelled after the check above but before this lock:
                    // the cancellation handler has run already and found no
                    // sleeper to remove, so a sleeper added now would sleep on,
                    // cancelled, until its deadline. (A cancellation after this
                    // point finds the sleeper under the same lock.)
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                        return []
                    }
                    if deadline <= state.now {
                        continuation.resume()
                        return []
                    }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return Self.takeSatisfiedWaiters(&state)
                }
                for waiter in resumed { waiter.resume() }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Suspends until at least `count` tasks are asleep on this clock, so a
    /// test can advance time knowing the effect it expects is already waiting.
    /// Returns early if the waiting task is cancelled — by a test's time
    /// limit, when the sleepers never come.
    public func waitForSleepers(_ count: Int = 1) async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await waitUnlessCancelled { continuation in
            state.withLock { state in
                if state.sleepers.count >= count || Task.isCancelled { return true }
                state.sleeperWaiters.append((id, count, continuation))
                return false
            }
        } withdraw: { [state] in
            state.withLock { state in
                state.sleeperWaiters.firstIndex { $0.id == id }.map { state.sleeperWaiters.remove(at: $0).continuation }
            }
        }
    }

    /// Moves time forward by `duration`, waking every sleeper whose deadline
    /// has come, earliest first.
    public func advance(by duration: Duration = .zero) {
        advance(to: now.advanced(by: duration))
    }

    /// Moves time forward to `instant` (never backward), waking every sleeper
    /// whose deadline has come, earliest first.
    public func advance(to instant: Instant) {
        let due: [Sleeper] = state.withLock { state in
            if instant > state.now { state.now = instant }
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    private static func takeSatisfiedWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = state.sleepers.count
        let ready = state.sleeperWaiters.filter { $0.count <= count }.map(\.continuation)
        state.sleeperWaiters.removeAll { $0.count <= count }
        return ready
    }
}

extension Duration {
    /// This duration within ±`Int64.max` seconds: the sum or difference of
    /// two such never overflows `Duration`'s 128 bits.
    fileprivate var clamped: Duration { min(max(self, .seconds(-Int64.max)), .seconds(Int64.max)) }
}
