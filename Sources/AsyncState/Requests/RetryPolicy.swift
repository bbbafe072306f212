/// How a load tries again after a failed attempt: how many attempts in all,
/// how long to wait between them, and which failures are worth a retry.
///
/// ```swift
/// let retry = RetryPolicy<FeedError>(
///     attempts: 3,
///     backoff: .exponential(initial: .seconds(1), maximum: .seconds(8)),
///     clock: clock
/// ) { failure, _ in failure != .unauthorized }   // never retry what cannot succeed
///
/// let feed = LoadRequest { () async throws(FeedError) in try await api.feed() }.retry(retry)
/// ```
///
/// All attempts share the load's ``LoadID``, so a newer load supersedes the
/// whole chain, and cancelling — during an attempt or during the wait — ends
/// it with `.cancelled(id)`, never a failure. As it starts the load sends
/// `.planned(id, attempts:)`, and before each wait `.retrying(id, LoadRetry)`,
/// which a reducer applies only while that load is in flight and which
/// ``Loadable/activity`` shows: "attempt 2 of 3".
///
/// **Two timeouts.** ``attemptTimeout`` bounds each attempt alone: its
/// failure is an attempt's failure, which `shouldRetry` may retry. The
/// `timeout:` of the load itself bounds the whole chain, waits included: its
/// failure ends the load, with no further attempt.
///
/// **Bad input.** Fewer than one attempt means one (a load always runs its
/// operation once); see ``Backoff`` and ``Jitter`` for their clamping.
public struct RetryPolicy<Failure: Sendable>: Sendable {
    /// How many attempts a load makes at most, the first included; at least 1.
    public let attempts: Int
    /// The wait between a failed attempt and the next.
    public let backoff: Backoff
    /// The randomness added to each wait.
    public let jitter: Jitter
    /// A limit on each attempt, whose failure counts as the attempt's.
    public let attemptTimeout: LoadTimeout<Failure>?
    @usableFromInline let shouldRetry: @Sendable (Failure, Int) -> Bool
    @usableFromInline let sleep: @Sendable (Duration) async throws -> Void

    /// A policy whose waits run on `clock` (a test clock in tests).
    ///
    /// - Parameters:
    ///   - attempts: how many attempts at most, the first included; below 1 counts as 1.
    ///   - backoff: the wait between attempts.
    ///   - jitter: randomness added to each wait, from a generator you pass.
    ///   - attemptTimeout: a limit on each attempt; its failure may be retried.
    ///   - clock: where waits run.
    ///   - shouldRetry: told the failure and the number of the attempt that
    ///     failed (from 1); `false` ends the load with that failure. Retries every failure by default.
    public init<C: Clock>(
        attempts: Int,
        backoff: Backoff = .none,
        jitter: Jitter = .none,
        attemptTimeout: LoadTimeout<Failure>? = nil,
        clock: C,
        shouldRetry: @escaping @Sendable (_ failure: Failure, _ attempt: Int) -> Bool = { _, _ in true }
    ) where C.Duration == Duration {
        self.attempts = max(attempts, 1)
        self.backoff = backoff
        self.jitter = jitter
        self.attemptTimeout = attemptTimeout
        self.shouldRetry = shouldRetry
        self.sleep = { try await clock.sleep(for: $0.clampedForSleeping) }
    }

    /// A policy whose waits run in real time.
    public init(
        attempts: Int,
        backoff: Backoff = .none,
        jitter: Jitter = .none,
        attemptTimeout: LoadTimeout<Failure>? = nil,
        shouldRetry: @escaping @Sendable (_ failure: Failure, _ attempt: Int) -> Bool = { _, _ in true }
    ) {
        self.init(
            attempts: attempts, backoff: backoff, jitter: jitter, attemptTimeout: attemptTimeout, clock: ContinuousClock(),
            shouldRetry: shouldRetry)
    }

    /// Runs `attempt` until it succeeds, is cancelled, fails for good or runs
    /// out of attempts, telling `retrying` of each retry before its wait;
    /// returns how the load ended. Inlinable, so a retried load runs
    /// specialized for its types.
    @inlinable
    @MainActor
    func run<Value>(
        _ attempt: @escaping @MainActor @Sendable () async -> LoadOutcome<Value, Failure>,
        retrying: @MainActor (LoadRetry<Failure>) -> Void
    ) async -> LoadOutcome<Value, Failure> where Failure: Equatable {
        var number = 1
        while true {
            let outcome: LoadOutcome<Value, Failure>
            if let attemptTimeout {
                outcome = await withTimeout(
                    attemptTimeout, onTimeout: { .failure(attemptTimeout.failure) }, onCancel: { .cancelled }, operation: attempt)
            } else {
                outcome = await attempt()
            }
            guard case .failure(let failure) = outcome, number < attempts, shouldRetry(failure, number) else { return outcome }
            if Task.isCancelled { return .cancelled }
            let wait = jitter.apply(to: backoff.wait(after: number))
            retrying(LoadRetry(attempt: number, of: attempts, failure: failure, wait: wait))
            // Cancelled while waiting: the clock throws, or — if it ignores
            // cancellation — returns to a cancelled task. Either way, not a failure.
            do { try await sleep(wait) } catch { return .cancelled }
            if Task.isCancelled { return .cancelled }
            number += 1
        }
    }
}
