/// One description of a load: what to run — an operation, or a stream of
/// values or of parts — and how: retries, a timeout, how untyped errors
/// become the failure, and the clock that stamps its results for freshness.
///
/// Every place that starts a load takes one: a reducer
/// (``Loadable/load(_:_:overlap:)``, ``Loadable/loadMore(_:_:overlap:)``,
/// ``Loadable/edit(_:_:_:overlap:)``), ``AsyncValue``, ``Cache`` and
/// ``OperationTracker``. So any combination is one value, not an overload:
///
/// ```swift
/// let user = LoadRequest(api.user)                                    // typed throws → APIError
/// let feed = LoadRequest(mapError: FeedError.init) { try await api.feed() }
/// let inbox = LoadRequest { () async throws(InboxError) in try await api.inbox() }
///     .retry(RetryPolicy(attempts: 3, backoff: .exponential(initial: .seconds(1), maximum: .seconds(8))))
///     .timeout(LoadTimeout(.seconds(20), failure: .timedOut))
///     .stamped(by: clock)
/// let results = LoadRequest(stream: { api.results(for: query) }, mapError: SearchError.init)
/// ```
///
/// Swift infers a closure that uses `try` as throwing `any Error`, so a typed
/// request's closure names its error type, as `inbox` does — or pass a method
/// reference, which keeps its typed `throws`. An untyped closure needs
/// `mapError:`, or a ``AnyError`` failure, whose initializer takes it as it is.
///
/// Whatever its shape, a load keeps the same promises: its task's
/// cancellation, and `CancellationError` — also wrapped in the ``AnyError`` a
/// `throws(AnyError)` closure throws — become `.cancelled(id)` and never
/// reach `mapError` or a retry; a newer load supersedes it, with every retry
/// and every element it streams.
public struct LoadRequest<Value, Failure: Error & Equatable> {
    @usableFromInline
    enum Source {
        /// A typed operation, called straight from the load's task.
        case operation(@MainActor @Sendable () async throws(Failure) -> Value)
        /// An untyped operation and what turns its errors into `Failure`.
        case untyped(@MainActor @Sendable () async throws -> Value, ErrorMapping<Failure>)
        /// A stream, consumed once per attempt; told the value to start from
        /// and where to report progress.
        case stream(StreamAttempt, StreamMode)
    }

    /// One attempt of a stream: told the value the load starts from (the
    /// value shown, for ``StreamMode/append``) and where to report each
    /// partial result; returns how the attempt ended.
    @usableFromInline
    typealias StreamAttempt =
        @MainActor @Sendable (_ start: Value?, _ report: @escaping @MainActor (Value) -> Void) async -> LoadOutcome<Value, Failure>

    @usableFromInline let _source: Source
    /// The retry policy, the timeout and the clock, boxed, so a plain request
    /// copies its source and one word. A reducer builds a request for every
    /// load: with them inline it was 240 bytes, and with the clock beside the
    /// box, three references, enough for the compiler to copy a request
    /// through value witnesses (BENCHMARKS.md, step 19).
    @usableFromInline var _options: RequestOptions<Failure>?

    @inlinable
    init(_ source: Source) {
        _source = source
        _options = nil
    }

    /// The retry policy, if any.
    @inlinable
    var _retry: RetryPolicy<Failure>? {
        get { _options?.retry }
        set { _options = RequestOptions.make(retry: newValue, timeout: _timeout, clock: _clock) }
    }

    /// The timeout of the whole load, if any.
    @inlinable
    var _timeout: LoadTimeout<Failure>? {
        get { _options?.timeout }
        set { _options = RequestOptions.make(retry: _retry, timeout: newValue, clock: _clock) }
    }

    /// The clock that stamps the result, if any.
    @inlinable
    var _clock: LoadClock? {
        get { _options?.clock }
        set { _options = RequestOptions.make(retry: _retry, timeout: _timeout, clock: newValue) }
    }

    // MARK: Operations

    /// A load that runs `operation`, whose typed error becomes the failure.
    @inlinable
    public init(_ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value) {
        self.init(.operation(operation))
    }

    /// A load that runs `operation`, whose untyped errors `mapError` turns
    /// into the failure — except cancellation, which is never a failure.
    @inlinable
    public init(
        mapError: @escaping (any Error) -> Failure,
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) {
        self.init(.untyped(operation, ErrorMapping(mapError)))
    }

    /// A load that runs `operation`, whose untyped errors become ``AnyError``.
    ///
    /// Disfavored, so that a closure that throws nothing, or throws
    /// `AnyError` itself, takes the typed initializer instead of being
    /// ambiguous.
    @inlinable
    @_disfavoredOverload
    public init(_ operation: @escaping @MainActor @Sendable () async throws -> Value) where Failure == AnyError {
        self.init(.untyped(operation, .anyError))
    }

    // MARK: Streams

    /// A load over an `AsyncSequence` whose elements are whole values — each
    /// better than the last, such as search results refined as they arrive.
    ///
    /// Each element is shown as it arrives (unless `mode` is
    /// ``StreamMode/keepUntilEnd``) and the end of the sequence finishes the
    /// load with the last one; a sequence that ends without any returns to
    /// the settled state, as `.cancelled(id)`. With a retry policy, each
    /// attempt makes a fresh sequence with `stream`.
    ///
    /// - Parameters:
    ///   - stream: makes the sequence, once per attempt.
    ///   - mode: what the screen shows while it streams.
    ///   - mapError: turns an error the sequence throws into the failure.
    public init<Elements: AsyncSequence>(
        stream: @escaping @MainActor @Sendable () -> Elements,
        mode: StreamMode = .startEmpty,
        mapError: @escaping (any Error) -> Failure
    ) where Elements.Element == Value, Value: Sendable {
        let mapError = MainActorFunction(mapError)
        self.init(
            .stream(
                { _, report in
                    await LoadOutcome.consuming(
                        stream(), startingWith: nil, showsProgress: mode.showsProgress, report: report,
                        accumulate: { $0 = $1 }, mapError: mapError.callAsFunction)
                }, mode))
    }

    /// A load over an `AsyncSequence` whose elements are parts of the value —
    /// pages, rows, chunks — folded into it with `accumulate`.
    ///
    /// The result so far starts as `initial` — or, in ``StreamMode/append``
    /// mode, as the value shown when the load starts — and each element is
    /// folded in and shown (unless `mode` is ``StreamMode/keepUntilEnd``).
    /// The end of the sequence finishes the load with the result. Each retry
    /// starts over from the same starting value.
    public init<Elements: AsyncSequence>(
        stream: @escaping @MainActor @Sendable () -> Elements,
        mode: StreamMode = .startEmpty,
        initial: Value,
        mapError: @escaping (any Error) -> Failure,
        accumulate: @escaping @MainActor @Sendable (inout Value, Elements.Element) -> Void
    ) where Value: Sendable {
        let mapError = MainActorFunction(mapError)
        self.init(
            .stream(
                { start, report in
                    await LoadOutcome.consuming(
                        stream(), startingWith: mode == .append ? (start ?? initial) : initial,
                        showsProgress: mode.showsProgress, report: report,
                        accumulate: { result, element in
                            // `result` starts non-nil here, so this folds in place.
                            if result.isSome { accumulate(&result!, element) }
                        },
                        mapError: mapError.callAsFunction)
                }, mode))
    }

    // MARK: How it runs

    /// This request, trying again after a failed attempt as `policy` says.
    ///
    /// Every attempt shares the load's ``LoadID``: a newer load supersedes the
    /// whole chain, and a cancellation during an attempt or a wait ends it
    /// with `.cancelled(id)`, never a failure. The load says how many attempts
    /// it makes (`.planned`) as it starts, and reports each retry
    /// (`.retrying`) before its wait. `nil` makes one attempt.
    @inlinable
    public func retry(_ policy: RetryPolicy<Failure>?) -> LoadRequest {
        var request = self
        request._retry = policy
        return request
    }

    /// This request, ended with `timeout`'s failure if it takes too long —
    /// all attempts and the waits between them; the policy's
    /// ``RetryPolicy/attemptTimeout`` bounds each attempt instead. The load
    /// does not wait for an operation that ignores cancellation. `nil` sets
    /// no limit.
    @inlinable
    public func timeout(_ timeout: LoadTimeout<Failure>?) -> LoadRequest {
        var request = self
        request._timeout = timeout
        return request
    }

    /// This request, stamping its result with the time on `clock` when it
    /// arrives — read by the load's effect, never by a reducer — so the
    /// loadable knows how old its value is (``Loadable/isStale(maxAge:at:)``).
    @inlinable
    public func stamped(by clock: LoadClock) -> LoadRequest {
        var request = self
        request._clock = clock
        return request
    }

    /// The retry policy, if any.
    public var retryPolicy: RetryPolicy<Failure>? { _retry }

    /// The timeout of the whole load, if any.
    public var loadTimeout: LoadTimeout<Failure>? { _timeout }

    /// The clock that stamps the result, if any.
    public var clock: LoadClock? { _clock }

    /// Whether the request takes the fast path: an operation called straight
    /// from the load's task, with no retry and no timeout around it.
    @inlinable
    var isDirect: Bool {
        if let options = _options, !options.isOneAttempt { return false }
        if case .stream = _source { return false }
        return true
    }
}

extension LoadRequest: Sendable {}

/// What turns an untyped operation's errors into the failure.
///
/// A value, not an object: made into a load in specialized code, the
/// request's untyped case copies its two closures inline, and the object
/// this once was cost an allocation per request, most of what a `mapError:`
/// load paid over a typed one (BENCHMARKS.md, "Issue 25, third pass").
@usableFromInline
struct ErrorMapping<Failure>: Sendable {
    @usableFromInline let _map: MainActorFunction<any Error, Failure>

    @inlinable
    init(_ map: @escaping (any Error) -> Failure) {
        _map = MainActorFunction(map)
    }

    @inlinable
    @MainActor
    func callAsFunction(_ error: any Error) -> Failure {
        _map(error)
    }
}

extension ErrorMapping where Failure == AnyError {
    /// The mapping of every `AnyError` request: a function with nothing to
    /// capture, so making it allocates nothing.
    @inlinable
    static var anyError: ErrorMapping { ErrorMapping(AnyError.init) }
}

/// How a request runs, when it is more than one plain attempt or stamps its
/// result: a request's retry policy, timeout and clock, shared by its copies.
@usableFromInline
final class RequestOptions<Failure: Error>: Sendable {
    @usableFromInline let retry: RetryPolicy<Failure>?
    @usableFromInline let timeout: LoadTimeout<Failure>?
    @usableFromInline let clock: LoadClock?
    /// No retry and no timeout: the request is one attempt, run directly.
    @usableFromInline let isOneAttempt: Bool

    @usableFromInline
    init(retry: RetryPolicy<Failure>?, timeout: LoadTimeout<Failure>?, clock: LoadClock?) {
        self.retry = retry
        self.timeout = timeout
        self.clock = clock
        isOneAttempt = retry == nil && timeout == nil
    }

    /// These options, or `nil` when there are none.
    @usableFromInline
    static func make(retry: RetryPolicy<Failure>?, timeout: LoadTimeout<Failure>?, clock: LoadClock?) -> RequestOptions? {
        retry == nil && timeout == nil && clock == nil ? nil : RequestOptions(retry: retry, timeout: timeout, clock: clock)
    }
}

/// How one attempt of a load ended.
@usableFromInline
enum LoadOutcome<Value, Failure> {
    case value(Value)
    case failure(Failure)
    case cancelled
}

extension LoadOutcome: Sendable where Value: Sendable, Failure: Sendable {}

extension LoadRequest.Source: Sendable {}

extension LoadOutcome {
    /// Consumes `elements`, folding each into the result with `accumulate`
    /// and — when `showsProgress` — reporting the result so far; returns how
    /// the attempt ended.
    ///
    /// - The sequence ends: the result; with no result at all (a sequence of
    ///   whole values that yields none), `.cancelled`, which returns to the
    ///   settled state: there is nothing to show, and nothing failed.
    /// - It throws: `mapError(error)`, or `.cancelled` for `CancellationError`
    ///   or once the task is cancelled.
    /// - The task is cancelled: the next element, if one ever comes, ends the
    ///   attempt as `.cancelled` and is neither reported nor kept. A sequence
    ///   that never ends runs until cancelled, or until a timeout.
    @MainActor
    static func consuming<Elements: AsyncSequence>(
        _ elements: Elements,
        startingWith start: Value?,
        showsProgress: Bool,
        report: @MainActor (Value) -> Void,
        accumulate: @MainActor (inout Value?, Elements.Element) -> Void,
        mapError: @MainActor (any Error) -> Failure
    ) async -> LoadOutcome {
        var result = start
        do {
            for try await element in elements {
                if Task.isCancelled { return .cancelled }
                accumulate(&result, element)
                if showsProgress, let result { report(result) }
            }
        } catch {
            if Task.isCancelled || AnyError.isCancellation(error) { return .cancelled }
            return .failure(mapError(error))
        }
        if Task.isCancelled { return .cancelled }
        guard let result else { return .cancelled }
        return .value(result)
    }
}
