/// A limit on how long a load may take, and the failure it ends with when the
/// limit passes — for operations that might never return.
///
/// ```swift
/// let feed = LoadRequest { () async throws(FeedError) in try await api.feed() }
///     .timeout(LoadTimeout(.seconds(10), failure: .timedOut))
/// ```
///
/// When the time is up the load reports `.failed(id, failure)` at once and its
/// operation is cancelled; the load does not wait for an operation that
/// ignores cancellation. Cancelling the load before then reports
/// `.cancelled` at once too — the timer stops with it, so it can never win
/// afterwards. A duration of zero or less times out at once, without running
/// the operation; one too long for a clock to sleep (over about 146 years)
/// waits that long instead of trapping.
public struct LoadTimeout<Failure: Sendable>: Sendable {
    @inlinable var duration: Duration { _storage.duration }
    @inlinable var failure: Failure { _storage.failure }
    @inlinable var sleep: @Sendable (Duration) async throws -> Void { _storage.sleep }

    // One reference, for the reason `RetryPolicy` gives: inline, its size
    // depends on `Failure`, and every copy went through value witnesses.
    @usableFromInline let _storage: Storage

    /// The fields, never changed after `init`.
    @usableFromInline
    final class Storage: Sendable {
        @usableFromInline let duration: Duration
        @usableFromInline let failure: Failure
        @usableFromInline let sleep: @Sendable (Duration) async throws -> Void

        init(duration: Duration, failure: Failure, sleep: @escaping @Sendable (Duration) async throws -> Void) {
            self.duration = duration
            self.failure = failure
            self.sleep = sleep
        }
    }

    /// Times out after `duration` on `clock` (a test clock in tests) with `failure`.
    public init<C: Clock>(_ duration: Duration, clock: C, failure: Failure) where C.Duration == Duration {
        _storage = Storage(duration: duration, failure: failure, sleep: { try await clock.sleep(for: $0.clampedForSleeping) })
    }

    /// Times out after `duration` of real time with `failure`.
    public init(_ duration: Duration, failure: Failure) {
        self.init(duration, clock: ContinuousClock(), failure: failure)
    }
}

/// Runs `operation` unless `timeout` passes first; then `onTimeout` is the
/// result and the operation's task is cancelled and abandoned. If the calling
/// task is cancelled first, `onCancel` is the result at once, and the timer
/// and the operation are cancelled: an operation that ignores cancellation is
/// abandoned too, and the timer can no longer win — cancellation is never a
/// timeout's failure. All on the main actor, so the result needs no
/// `Sendable`.
///
/// The operation and the timer run in tasks of their own, so that a timer
/// that wins need not wait for an operation that ignores cancellation. The
/// caller's cancellation handler cancels both tasks itself, from whatever
/// thread cancels: a `Task` handle is `Sendable`, which is why both are made
/// before the handler is installed. Cancelled only from the main actor, in
/// the turn after, the operation could throw in between, its error seen as a
/// failure and handed to `mapError`.
@usableFromInline
@MainActor
func withTimeout<Result, Failure: Sendable>(
    _ timeout: LoadTimeout<Failure>,
    onTimeout: @escaping @MainActor () -> Result,
    onCancel: @escaping @MainActor () -> Result,
    operation: @escaping @MainActor () async -> Result
) async -> Result {
    // A limit of zero or less has passed before the operation could begin:
    // timed out at once, unrun. A race against a sleep of zero was won by
    // whichever task the executor ran first.
    // (An attempt begun in a task cancelled already ends as cancelled, as the
    // handler below would end it.)
    guard timeout.duration > .zero else { return Task.isCancelled ? onCancel() : onTimeout() }
    let race = Race<Result>()
    // Both tasks are enqueued on the main actor: neither runs before this
    // function suspends below, so the race cannot end before it is awaited
    // (and `finish(with:)` keeps a result that comes first anyway).
    let work = Task { race.finish(with: await operation()) }
    let timer = Task {
        guard (try? await timeout.sleep(timeout.duration)) != nil else { return }
        race.finish(with: onTimeout())
    }
    race.work = work
    race.timer = timer
    await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if race.isFinished { continuation.resume() } else { race.continuation = continuation }
        }
    } onCancel: {
        work.cancel()
        timer.cancel()
        Task { @MainActor in race.finish(with: onCancel()) }
    }
    // The race resumes the caller only after it stores the winner, so the
    // result is always there; the fallback is never taken.
    return race.result ?? onTimeout()
}

/// The first of an operation and a timer to finish decides a load's result.
@MainActor
private final class Race<Result> {
    var continuation: CheckedContinuation<Void, Never>?
    var work: Task<Void, Never>?
    var timer: Task<Void, Never>?
    private(set) var isFinished = false
    private(set) var result: Result?

    func finish(with result: Result) {
        guard !isFinished else { return }
        isFinished = true
        self.result = result
        timer?.cancel()
        work?.cancel()
        continuation?.resume()
        continuation = nil
    }
}
