import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Testing

/// An operation cancelled mid-way may throw an error of its own rather than
/// `CancellationError` — a network layer that wraps every failure does. It is
/// a cancellation all the same: it never reaches `mapError` or a retry
/// policy's `shouldRetry`, with a retry policy or a timeout or neither (from
/// an outside reading: with either, it reached both).
@Suite("Requests: an error thrown after cancellation", .hangGuard)
@MainActor
struct CancelledErrorTests {
    struct NetworkError: Error {}

    enum Options: String, CaseIterable, Sendable {
        case plain, retried, timed
    }

    /// `mapError`, counting its calls in `mapped`: each test here expects none.
    static func counting<Failure>(
        into mapped: LockedValue<Int>, _ mapError: @escaping @Sendable (any Error) -> Failure
    ) -> @Sendable (any Error) -> Failure {
        { error in
            mapped.withLock { $0 += 1 }
            return mapError(error)
        }
    }

    static func options(_ options: Options, _ request: LoadRequest<Int, TestError>, clock: TestClock) -> LoadRequest<Int, TestError> {
        switch options {
        case .plain: request
        case .retried: request.retry(RetryPolicy(attempts: 3, backoff: .constant(.seconds(1)), clock: clock))
        case .timed: request.timeout(LoadTimeout(.seconds(30), clock: clock, failure: .timedOut))
        }
    }

    @Test("it never reaches mapError, cancelled by the host or by its only caller", arguments: Options.allCases, [true, false])
    func neverMapped(options: Options, byHost: Bool) async {
        let clock = TestClock()
        let gate = Gate<Int>()
        let mapped = LockedValue(0)
        let value = AsyncValue<Int, TestError>()
        let request = LoadRequest<Int, TestError>(mapError: CancelledErrorTests.counting(into: mapped) { _ in .offline }) {
            do { return try await gate.wait() } catch { throw NetworkError() }
        }
        let caller = await startCaller { await value.load(Self.options(options, request, clock: clock)) }
        await gate.waitForArrivals()
        if byHost { value.cancel() } else { caller.cancel() }
        await caller.value
        await yieldUntil { value.runningCount == 0 }
        #expect(value.state == .notLoaded, "cancellation is not failure")
        #expect(mapped.current == 0)
    }

    @Test("it never reaches shouldRetry")
    func neverRetried() async {
        let clock = TestClock()
        let gate = Gate<Int>()
        let asked = LockedValue(0)
        let value = AsyncValue<Int, TestError>()
        let request = LoadRequest { () async throws(TestError) -> Int in
            do { return try await gate.wait() } catch { throw .offline }
        }
        .retry(
            RetryPolicy(attempts: 3, backoff: .constant(.seconds(1)), clock: clock) { _, _ in
                asked.withLock { $0 += 1 }
                return true
            })
        let caller = await startCaller { await value.load(request) }
        await gate.waitForArrivals()
        value.cancel()
        await caller.value
        await yieldUntil { value.runningCount == 0 }
        #expect(value.state == .notLoaded, "cancellation is not failure")
        #expect(asked.current == 0)
        #expect(clock.sleeperCount == 0, "no backoff wait began")
    }
}

/// The same when the operation throws in the main actor's turn right after
/// the cancellation, before the timeout's race has heard of it: the timed
/// attempt runs in a task of its own, which is cancelled with the load at
/// once (a second outside reading: it was cancelled only a turn later, and
/// an error thrown in between reached `mapError`). Cancelled by the host.
/// A caller that leaves abandons the shared load in the main actor's next
/// turn, so an error thrown before then is the load's own failure, not one
/// thrown after its cancellation.
@Suite("Requests: an error thrown in the turn after cancellation", .hangGuard)
@MainActor
struct CancelledInTimeoutTests {
    struct NetworkError: Error {}

    /// Where the operation waits: resumed from the main actor, so it goes on
    /// in the main actor's very next turn, ahead of anything enqueued after.
    @MainActor
    final class Held {
        var continuation: CheckedContinuation<Void, Never>?
    }

    enum Bound: String, CaseIterable, Sendable {
        case loadTimeout, attemptTimeout
    }

    @Test("it never reaches mapError", arguments: Bound.allCases)
    func neverMapped(bound: Bound) async {
        let clock = TestClock()
        let held = Held()
        let mapped = LockedValue(0)
        let value = AsyncValue<Int, TestError>()
        let request = LoadRequest<Int, TestError>(mapError: CancelledErrorTests.counting(into: mapped) { _ in .offline }) {
            await withCheckedContinuation { held.continuation = $0 }
            throw NetworkError()
        }
        let bounded =
            switch bound {
            case .loadTimeout: request.timeout(LoadTimeout(.seconds(30), clock: clock, failure: .timedOut))
            case .attemptTimeout:
                request.retry(
                    RetryPolicy(
                        attempts: 2, backoff: .constant(.seconds(1)),
                        attemptTimeout: LoadTimeout(.seconds(30), clock: clock, failure: .timedOut), clock: clock))
            }
        let caller = await startCaller { await value.load(bounded) }
        await yieldUntil { held.continuation != nil }
        // The operation throws in the next turn; the cancellation comes now.
        held.continuation?.resume()
        value.cancel()
        await caller.value
        await yieldUntil { value.runningCount == 0 }
        #expect(value.state == .notLoaded, "cancellation is not failure")
        #expect(mapped.current == 0, "the error came after the cancellation")
        #expect(clock.sleeperCount == 0, "no retry wait began")
    }
}

/// A typed closure that throws `AnyError` and wraps whatever it catches
/// throws a `CancellationError` wrapped, and an untyped closure may let such
/// an error through from a typed helper: a cancellation all the same, as a
/// bare `CancellationError` is — not a failure, never retried, never handed
/// to `mapError` (an outside reading, then a second reading for the untyped
/// closure: each failed the load, and a retry policy retried it).
@Suite("Requests: a wrapped CancellationError", .hangGuard)
@MainActor
struct WrappedCancellationTests {
    enum Closure: String, CaseIterable, Sendable {
        /// `throws(AnyError)`, wrapping what it catches.
        case typed
        /// Untyped, rethrowing what a `throws(AnyError)` helper threw.
        case untyped
    }

    static func typedHelper() async throws(AnyError) -> Int {
        do { throw CancellationError() } catch { throw AnyError(error) }
    }

    static func request(_ closure: Closure, mapped: LockedValue<Int>) -> LoadRequest<Int, AnyError> {
        switch closure {
        case .typed:
            LoadRequest { () async throws(AnyError) -> Int in try await typedHelper() }
        case .untyped:
            LoadRequest(mapError: CancelledErrorTests.counting(into: mapped, AnyError.init)) { () async throws -> Int in
                try await typedHelper()
            }
        }
    }

    @Test(
        "is a cancellation, never a failure, a retry or a mapping", arguments: Closure.allCases, CancelledErrorTests.Options.allCases)
    func isCancellation(closure: Closure, options: CancelledErrorTests.Options) async {
        let clock = TestClock()
        let asked = LockedValue(0)
        let mapped = LockedValue(0)
        let value = AsyncValue<Int, AnyError>(value: 1)
        let request = Self.request(closure, mapped: mapped)
        let shaped =
            switch options {
            case .plain: request
            case .retried:
                request.retry(
                    RetryPolicy(attempts: 3, backoff: .constant(.seconds(1)), clock: clock) { _, _ in
                        asked.withLock { $0 += 1 }
                        return true
                    })
            case .timed: request.timeout(LoadTimeout(.seconds(30), clock: clock, failure: AnyError(TestError.timedOut)))
            }
        let caller = await startCaller { await value.load(shaped) }
        // Settled, or — retried as a failure — waiting to retry.
        await yieldUntil { value.runningCount == 0 || clock.sleeperCount > (options == .timed ? 1 : 0) }
        #expect(value.state == .success(value: 1), "cancellation is not failure: the value is kept, with no error")
        #expect(asked.current == 0 && mapped.current == 0)
        value.cancel()
        await caller.value
    }

    @Test("a tracker's run of it is cancelled", arguments: Closure.allCases)
    func trackerRun(closure: Closure) async {
        let operations = OperationTracker<String, AnyError>()
        let result = await operations.run("save", Self.request(closure, mapped: LockedValue(0)))
        #expect(result == .cancelled)
        #expect(operations.error(for: "save") == nil)
    }
}
