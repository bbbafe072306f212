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
    @inlinable public var attempts: Int { _storage.attempts }
    /// The wait between a failed attempt and the next.
    @inlinable public var backoff: Backoff { _storage.backoff }
    /// The randomness added to each wait.
    @inlinable public var jitter: Jitter { _storage.jitter }
    /// A limit on each attempt, whose failure counts as the attempt's.
    @inlinable public var attemptTimeout: LoadTimeout<Failure>? { _storage.attemptTimeout }
    /// Waits on the policy's clock.
    @inlinable var sleep: @Sendable (Duration) async throws -> Void { _storage.sleep }

    // One reference, not six fields. Inline, a policy's size depended on
    // `Failure`, so every copy, and the deinit of the request options that
    // keep one — generic code the compiler does not specialize — went
    // through value witnesses and a metadata lookup: 2,000 instructions of
    // a retried load that answered at once (BENCHMARKS.md, "Issue 25,
    // fourth pass"). A reference is copied with a retain.
    @usableFromInline let _storage: Storage

    /// The fields, never changed after `init`.
    @usableFromInline
    final class Storage: Sendable {
        @usableFromInline let attempts: Int
        @usableFromInline let backoff: Backoff
        @usableFromInline let jitter: Jitter
        @usableFromInline let attemptTimeout: LoadTimeout<Failure>?
        @usableFromInline let shouldRetry: @Sendable (Failure, Int) -> Bool
        @usableFromInline let sleep: @Sendable (Duration) async throws -> Void

        init(
            attempts: Int, backoff: Backoff, jitter: Jitter, attemptTimeout: LoadTimeout<Failure>?,
            shouldRetry: @escaping @Sendable (Failure, Int) -> Bool, sleep: @escaping @Sendable (Duration) async throws -> Void
        ) {
            self.attempts = attempts
            self.backoff = backoff
            self.jitter = jitter
            self.attemptTimeout = attemptTimeout
            self.shouldRetry = shouldRetry
            self.sleep = sleep
        }
    }

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
        _storage = Storage(
            attempts: max(attempts, 1), backoff: backoff, jitter: jitter, attemptTimeout: attemptTimeout,
            shouldRetry: shouldRetry, sleep: { try await clock.sleep(for: $0.clampedForSleeping) })
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

    /// Whether a load retries after its attempt `number` (from 1) failed
    /// with `failure`: an attempt is left, and ``init(attempts:backoff:jitter:attemptTimeout:clock:shouldRetry:)``'s
    /// `shouldRetry` says yes.
    @inlinable
    func retries(after failure: Failure, attempt number: Int) -> Bool {
        number < _storage.attempts && _storage.shouldRetry(failure, number)
    }

    /// The report of a retry after attempt `number` failed with `failure`,
    /// with the wait before the next attempt: the backoff, with jitter.
    @inlinable
    @MainActor
    func retry(after failure: Failure, attempt number: Int) -> LoadRetry<Failure> where Failure: Equatable {
        let wait = _storage.jitter.apply(to: _storage.backoff.wait(after: number))
        return LoadRetry(attempt: number, of: _storage.attempts, failure: failure, wait: wait)
    }
}
