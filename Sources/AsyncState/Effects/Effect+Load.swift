// How a `LoadRequest` becomes a load effect: the work whose task the store
// starts. Every lane builds its loads here — the value lane, a paged list's
// more lane, an edit — each with its own `embed`, so every rule of a load
// (cancellation wins, one last action, stamps, retries, timeouts) is written
// once.

extension LoadRequest where Value: Equatable {
    /// The load effect of this request, reporting through `embed`.
    ///
    /// - Parameters:
    ///   - embed: wraps each load action in the feature's action.
    ///   - cancelsEarlier: whether the load, once started, cancels the work of
    ///     the load it supersedes (its overlap policy).
    ///   - stampsResult: whether a `.finished` is stamped with the request's
    ///     clock, or else `hostClock`, if there is one — for the value lane,
    ///     whose age it is.
    ///   - hostClock: the clock of the host that starts the load.
    ///   - start: the value shown when the load starts, where a stream in
    ///     ``StreamMode/append`` mode begins.
    ///   - announcesStart: whether `.started` goes out when the load starts;
    ///     not for an edit that showed when it was queued.
    ///   - announcesPlan: whether a load with a retry policy says how many
    ///     attempts it makes; not for an edit.
    // Inlinable, like the store's runner, so a load is specialized for the
    // feature's types: unspecialized, every load looked up generic metadata.
    @inlinable
    func loadEffect<Action>(
        _ embed: @escaping (consuming LoadAction<Value, Failure>) -> Action,
        cancelsEarlier: Bool,
        stampsResult: Bool = true,
        stampedBy hostClock: LoadClock? = nil,
        start: Value? = nil,
        announcesStart: Bool = true,
        announcesPlan: Bool = true
    ) -> Effect<Action>.Load {
        loadEffect(
            MainActorConsumingFunction(embed), cancelsEarlier: cancelsEarlier, stampsResult: stampsResult, stampedBy: hostClock,
            start: start, announcesStart: announcesStart, announcesPlan: announcesPlan)
    }

    /// ``loadEffect(_:cancelsEarlier:stampsResult:stampedBy:start:announcesStart:announcesPlan:)``
    /// with an `embed` already wrapped, as a lane that adds to the feature's
    /// own `embed` makes it.
    @inlinable
    func loadEffect<Action>(
        _ embed: MainActorConsumingFunction<LoadAction<Value, Failure>, Action>,
        cancelsEarlier: Bool,
        stampsResult: Bool = true,
        stampedBy hostClock: LoadClock? = nil,
        start: Value? = nil,
        announcesStart: Bool = true,
        announcesPlan: Bool = true
    ) -> Effect<Action>.Load {
        let clock = stampsResult ? (_options?.clock ?? hostClock) : nil
        let attempts = announcesPlan ? _options?.retry?.attempts : nil
        let announcement = LoadAnnouncement(embed: embed, clock: clock, attempts: attempts, announcesStart: announcesStart)
        // One object per load, of the shape's class (see `LoadStart`).
        let loadStart: LoadStart<Action>
        switch _source {
        case .operation(let operation) where isDirect:
            loadStart = TypedLoadStart(operation, announcement, cancelsEarlier: cancelsEarlier)
        case .untyped(let operation, let mapError) where isDirect:
            loadStart = UntypedLoadStart(operation, mapError, announcement, cancelsEarlier: cancelsEarlier)
        default:
            // Only a stream that appends starts from the value shown. That
            // value was made on the main actor, by the reducer that built
            // this load, and is read there by the load's task: carried in the
            // main-actor wrapper, it needs no `Sendable`. Any other load
            // skips the wrapper, an allocation.
            var startValue: MainActorFunction<Void, Value?>?
            if case .stream(_, .append) = _source, let start { startValue = MainActorFunction { start } }
            loadStart = ReportingLoadStart(self, startValue, announcement, cancelsEarlier: cancelsEarlier)
        }
        return Effect<Action>.Load(start: loadStart)
    }

    /// Runs the whole load — every attempt its retry policy allows, within
    /// its timeout — reporting progress and retries of load `id` through
    /// `reporter`; returns how the load ended. `bounded` when called inside
    /// the load's own timeout.
    ///
    /// One function for the whole chain, not one per layer, and a typed
    /// operation called in place rather than through `attempt(of:…)`: each
    /// async function between the load's task and its operation costs two
    /// executor checks and a frame, and a retried load whose first attempt
    /// answered at once paid for four of them (BENCHMARKS.md, "Issue 25,
    /// fourth pass").
    @inlinable
    @MainActor
    func outcome<Action>(
        of id: LoadID, startingWith start: Value?,
        _ embed: MainActorConsumingFunction<LoadAction<Value, Failure>, Action>, _ reporter: LoadReporter<Action>,
        bounded: Bool = false
    ) async -> LoadOutcome<Value, Failure> {
        let options = _options
        if !bounded, let timeout = options?.timeout {
            return await outcome(of: id, startingWith: start, embed, reporter, within: timeout)
        }
        let policy = options?.retry
        var number = 1
        while true {
            let outcome: LoadOutcome<Value, Failure>
            if let limit = policy?.attemptTimeout {
                outcome = await attempt(of: id, startingWith: start, embed, reporter, within: limit)
            } else if case .operation(let operation) = _source {
                do throws(Failure) {
                    outcome = .value(try await operation())
                } catch {
                    outcome = .failure(error)
                }
            } else {
                outcome = await attempt(of: id, startingWith: start, embed, reporter)
            }
            guard let policy, case .failure(let failure) = outcome else { return outcome }
            // A failure thrown after cancellation (a network layer that wraps
            // every error), or a wrapped `CancellationError`, is a
            // cancellation: `shouldRetry` is not asked.
            if Self.endsCancelled(failing: failure) { return .cancelled }
            guard policy.retries(after: failure, attempt: number) else { return outcome }
            let retry = policy.retry(after: failure, attempt: number)
            reporter.send(embed(.retrying(id, retry)))
            // Cancelled while waiting: the clock throws, or — if it ignores
            // cancellation — returns to a cancelled task. Either way, not a failure.
            do { try await policy.sleep(retry.wait) } catch { return .cancelled }
            if Task.isCancelled { return .cancelled }
            number += 1
        }
    }

    /// Whether an attempt that failed with `failure` ends the load as
    /// cancelled: its task was cancelled, or `failure` wraps
    /// `CancellationError`. Out of line: inlined into the retry loop, the
    /// check cost its async frame a second slab of the task's allocator
    /// (BENCHMARKS.md, issue 25, eighteenth pass).
    @inlinable
    @inline(never)
    static func endsCancelled(failing failure: Failure) -> Bool {
        Task.isCancelled || AnyError.isCancellation(failure)
    }

    /// ``outcome(of:startingWith:_:_:bounded:)`` within the load's
    /// `timeout`.
    ///
    /// This and the other ways of running an attempt other than a typed
    /// operation's are not inlined into `outcome`: a function's async frame
    /// has room for everything it may hold across an `await`, and with them
    /// inlined, a retried load's frame (736 bytes for an `Int`) pushed its
    /// task past the first slab of its allocator, a `malloc` and a `free`
    /// per load (BENCHMARKS.md, "Issue 25, sixth pass").
    @inlinable
    @inline(never)
    @MainActor
    func outcome<Action>(
        of id: LoadID, startingWith start: Value?,
        _ embed: MainActorConsumingFunction<LoadAction<Value, Failure>, Action>, _ reporter: LoadReporter<Action>,
        within timeout: LoadTimeout<Failure>
    ) async -> LoadOutcome<Value, Failure> {
        let request = self
        return await withTimeout(timeout, onTimeout: { .failure(timeout.failure) }, onCancel: { .cancelled }) {
            await request.outcome(of: id, startingWith: start, embed, reporter, bounded: true)
        }
    }

    /// One attempt of load `id`, cut off after `limit` (see
    /// ``outcome(of:startingWith:_:_:within:)`` for why it is apart).
    @inlinable
    @inline(never)
    @MainActor
    func attempt<Action>(
        of id: LoadID, startingWith start: Value?,
        _ embed: MainActorConsumingFunction<LoadAction<Value, Failure>, Action>, _ reporter: LoadReporter<Action>,
        within limit: LoadTimeout<Failure>
    ) async -> LoadOutcome<Value, Failure> {
        let request = self
        return await withTimeout(limit, onTimeout: { .failure(limit.failure) }, onCancel: { .cancelled }) {
            await request.attempt(of: id, startingWith: start, embed, reporter)
        }
    }

    /// Runs one attempt of load `id`; not inlined into `outcome` (see
    /// ``outcome(of:startingWith:_:_:within:)``).
    @inlinable
    @inline(never)
    @MainActor
    func attempt<Action>(
        of id: LoadID, startingWith start: Value?,
        _ embed: MainActorConsumingFunction<LoadAction<Value, Failure>, Action>, _ reporter: LoadReporter<Action>
    ) async -> LoadOutcome<Value, Failure> {
        switch _source {
        case .operation(let operation):
            do throws(Failure) {
                return .value(try await operation())
            } catch {
                return .failure(error)
            }
        case .untyped(let operation, let mapError):
            do {
                return .value(try await operation())
            } catch {
                // Thrown after cancellation, whatever the error: a cancellation,
                // which never reaches `mapError`.
                return Task.isCancelled || AnyError.isCancellation(error) ? .cancelled : .failure(mapError(error))
            }
        case .stream(let attempt, _):
            return await attempt(start) { reporter.send(embed(.progress(id, $0))) }
        }
    }
}

/// What every load made from a request announces with, and ends through:
/// its `embed`, the clock that stamps its result, its number of attempts.
@usableFromInline
struct LoadAnnouncement<Value: Equatable, Failure: Error & Equatable, Action>: Sendable {
    @usableFromInline let embed: MainActorConsumingFunction<LoadAction<Value, Failure>, Action>
    @usableFromInline let clock: LoadClock?
    /// Announced with `.planned` when there is a retry policy.
    @usableFromInline let attempts: Int?
    /// Whether `.started` goes out; not for an edit that showed when it was queued.
    @usableFromInline let announcesStart: Bool

    @inlinable
    init(embed: MainActorConsumingFunction<LoadAction<Value, Failure>, Action>, clock: LoadClock?, attempts: Int?, announcesStart: Bool) {
        self.embed = embed
        self.clock = clock
        self.attempts = attempts
        self.announcesStart = announcesStart
    }

    /// Queues the actions that announce load `id`: `.started`, and `.planned`
    /// with the number of attempts if there is a retry policy.
    @inlinable
    @MainActor
    func announce(_ id: LoadID, into queue: inout [Action]) {
        if announcesStart { queue.append(embed(.started(id))) }
        if let attempts { queue.append(embed(.planned(id, attempts: attempts))) }
    }

    /// The action that ends load `id`, whose operation returned `value`,
    /// stamped with `clock` (see `LoadAction.ending(_:returning:stampedBy:)`).
    @inlinable
    @MainActor
    func ending(_ id: LoadID, returning value: consuming Value) -> Action {
        embed(.ending(id, returning: value, stampedBy: clock))
    }
}

/// The start of a typed operation with no retry and no timeout.
///
/// Its task's body calls the operation itself and ends the load in the frame
/// where the value arrives: no closure and no outcome frame between them,
/// and no result buffer above it (see `LoadReporter`). The body keeps
/// nothing else across its `await`: `began()` calls a method that is not
/// inlined, and the store's tables hold the rest. That keeps an in-flight
/// load's frames in its task's first allocator slab (984 bytes).
// `@unchecked Sendable` restated, as Swift requires; safe as `LoadStart` says.
@usableFromInline
final class TypedLoadStart<Value: Equatable, Failure: Error & Equatable, Action>: LoadStart<Action>, @unchecked Sendable {
    @usableFromInline let _operation: @MainActor @Sendable () async throws(Failure) -> Value
    @usableFromInline let _announcement: LoadAnnouncement<Value, Failure, Action>

    @inlinable
    init(
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value,
        _ announcement: LoadAnnouncement<Value, Failure, Action>, cancelsEarlier: Bool
    ) {
        _operation = operation
        _announcement = announcement
        super.init(cancelsEarlier: cancelsEarlier, function: TypedLoadStart.start)
    }

    @inlinable
    @MainActor
    static func start(_ start: LoadStart<Action>, _ id: LoadID, _ reporter: LoadReporter<Action>, _ queue: inout [Action])
        -> TaskBody<Void>
    {
        // Unchecked: only this class's own objects hand the base this function.
        let load = unsafeDowncast(start, to: TypedLoadStart.self)
        load._announcement.announce(id, into: &queue)
        return TaskBody { @MainActor in
            reporter.began()
            do throws(Failure) {
                let value = try await load._operation()
                reporter.end(id, with: load._announcement.ending(id, returning: consume value))
            } catch {
                reporter.end(id, with: load._announcement.embed(.ending(id, throwing: error)))
            }
        }
    }
}

/// The start of an untyped operation with no retry and no timeout: the same
/// body as a typed one's, with `mapError` on the failure path only.
// `@unchecked Sendable` restated, as Swift requires; safe as `LoadStart` says.
@usableFromInline
final class UntypedLoadStart<Value: Equatable, Failure: Error & Equatable, Action>: LoadStart<Action>, @unchecked Sendable {
    @usableFromInline let _operation: @MainActor @Sendable () async throws -> Value
    @usableFromInline let _mapError: ErrorMapping<Failure>
    @usableFromInline let _announcement: LoadAnnouncement<Value, Failure, Action>

    @inlinable
    init(
        _ operation: @escaping @MainActor @Sendable () async throws -> Value, _ mapError: ErrorMapping<Failure>,
        _ announcement: LoadAnnouncement<Value, Failure, Action>, cancelsEarlier: Bool
    ) {
        _operation = operation
        _mapError = mapError
        _announcement = announcement
        super.init(cancelsEarlier: cancelsEarlier, function: UntypedLoadStart.start)
    }

    @inlinable
    @MainActor
    static func start(_ start: LoadStart<Action>, _ id: LoadID, _ reporter: LoadReporter<Action>, _ queue: inout [Action])
        -> TaskBody<Void>
    {
        // Unchecked: only this class's own objects hand the base this function.
        let load = unsafeDowncast(start, to: UntypedLoadStart.self)
        load._announcement.announce(id, into: &queue)
        return TaskBody { @MainActor in
            reporter.began()
            do {
                let value = try await load._operation()
                reporter.end(id, with: load._announcement.ending(id, returning: consume value))
            } catch {
                reporter.end(id, with: load._announcement.embed(.ending(id, throwing: error, mapError: load._mapError)))
            }
        }
    }
}

/// The start of a load that may report actions on the way — `.retrying`,
/// `.progress` — before the one that ends it, or that races a timer.
/// Specialized like the direct ones: unspecialized, a retried load whose
/// first attempt answered at once spent a quarter of its time looking up
/// generic metadata (BENCHMARKS.md, step 19).
// `@unchecked Sendable` restated, as Swift requires; safe as `LoadStart` says.
@usableFromInline
final class ReportingLoadStart<Value: Equatable, Failure: Error & Equatable, Action>: LoadStart<Action>, @unchecked Sendable {
    @usableFromInline let _request: LoadRequest<Value, Failure>
    /// The value shown when the load starts, where a stream in
    /// ``StreamMode/append`` mode begins; `nil` for any other load, and for
    /// one that starts with nothing shown.
    @usableFromInline let _startValue: MainActorFunction<Void, Value?>?
    /// For a queued load whose stream appends, the value shown when its turn
    /// came, which replaces `_startValue` (`startFrom(_:)`). Main-actor
    /// isolated, as everything that reads or writes it is; each access a
    /// single read or write, so without dynamic exclusivity checks. In a
    /// closure, not as a `Value??`: the class's deinit is generic, and a
    /// field of a type made from `Value` made it look up that type's
    /// metadata on every load, about 800 instructions.
    @MainActor @exclusivity(unchecked) @usableFromInline var _startValueAtTurn: MainActorFunction<Void, Value?>?
    @usableFromInline let _announcement: LoadAnnouncement<Value, Failure, Action>

    @inlinable
    init(
        _ request: LoadRequest<Value, Failure>, _ startValue: MainActorFunction<Void, Value?>?,
        _ announcement: LoadAnnouncement<Value, Failure, Action>, cancelsEarlier: Bool
    ) {
        _request = request
        _startValue = startValue
        _announcement = announcement
        super.init(cancelsEarlier: cancelsEarlier, function: ReportingLoadStart.start)
    }

    @usableFromInline
    @MainActor
    override func startFrom(_ value: Any) {
        // Decided by the source, not by `_startValue`: a stream queued while
        // nothing was shown has no start value, yet its turn may come after
        // the load ahead of it left one.
        guard case .stream(_, .append) = _request._source else { return }
        let start = value as? Value
        _startValueAtTurn = MainActorFunction { start }
    }

    @inlinable
    @MainActor
    static func start(_ start: LoadStart<Action>, _ id: LoadID, _ reporter: LoadReporter<Action>, _ queue: inout [Action])
        -> TaskBody<Void>
    {
        // Unchecked: only this class's own objects hand the base this function.
        let load = unsafeDowncast(start, to: ReportingLoadStart.self)
        load._announcement.announce(id, into: &queue)
        return TaskBody { @MainActor in
            reporter.began()
            let announcement = load._announcement
            // Only a stream that appends has a start value to read.
            var start: Value?
            if let startValue = load._startValueAtTurn ?? load._startValue { start = startValue(()) }
            let outcome = await load._request.outcome(of: id, startingWith: start, announcement.embed, reporter)
            reporter.end(id, with: announcement.embed(.ending(id, with: outcome, stampedBy: announcement.clock)))
        }
    }
}

extension LoadAction {
    /// The action that ends load `id`, whose operation returned `value`:
    /// `.finished`, stamped with `clock`'s time if there is a clock, or
    /// `.cancelled` if the task was cancelled.
    @inlinable
    static func ending(_ id: LoadID, returning value: consuming Value, stampedBy clock: LoadClock? = nil) -> LoadAction {
        if Task.isCancelled { return .cancelled(id) }
        guard let clock else { return .finished(id, value) }
        return .at(clock.now, .finished(id, value))
    }

    /// The action that ends load `id`, whose operation threw `error`:
    /// `.failed`, or `.cancelled` if the task was cancelled or `error` wraps
    /// `CancellationError` (`AnyError.isCancellation(_:)`).
    @inlinable
    static func ending(_ id: LoadID, throwing error: Failure) -> LoadAction {
        Task.isCancelled || AnyError.isCancellation(error) ? .cancelled(id) : .failed(id, error)
    }

    /// The action that ends load `id`, whose operation threw an untyped
    /// `error`: `.failed` with the failure `mapError` makes of it, or
    /// `.cancelled` for a cancelled task or `CancellationError`, also
    /// wrapped in an `AnyError` — which never reach `mapError`.
    @inlinable
    @MainActor
    static func ending(_ id: LoadID, throwing error: any Error, mapError: ErrorMapping<Failure>) -> LoadAction {
        if Task.isCancelled || AnyError.isCancellation(error) { return .cancelled(id) }
        return .failed(id, mapError(error))
    }

    /// The action that ends load `id` with `outcome`; cancellation wins.
    @inlinable
    static func ending(_ id: LoadID, with outcome: consuming LoadOutcome<Value, Failure>, stampedBy clock: LoadClock?) -> LoadAction {
        switch consume outcome {
        case .value(let value): ending(id, returning: value, stampedBy: clock)
        case .failure(let failure): ending(id, throwing: failure)
        case .cancelled: .cancelled(id)
        }
    }
}

/// What an edit's request returns to its load: only that it succeeded.
@usableFromInline
struct EditConfirmation: Equatable, Sendable {
    @inlinable init() {}
}

extension LoadRequest where Value == Void {
    /// This request as the load of an edit, whose value only says it succeeded.
    @usableFromInline
    var confirming: LoadRequest<EditConfirmation, Failure> {
        var request: LoadRequest<EditConfirmation, Failure>
        switch _source {
        case .operation(let operation):
            request = LoadRequest<EditConfirmation, Failure> { () async throws(Failure) in
                try await operation()
                return EditConfirmation()
            }
        case .untyped(let operation, let mapError):
            request = LoadRequest<EditConfirmation, Failure>(
                .untyped(
                    {
                        try await operation(); return EditConfirmation()
                    }, mapError))
        case .stream(let attempt, let mode):
            request = LoadRequest<EditConfirmation, Failure>(
                .stream(
                    { _, _ in
                        switch await attempt(nil, { _ in }) {
                        case .value: .value(EditConfirmation())
                        case .failure(let failure): .failure(failure)
                        case .cancelled: .cancelled
                        }
                    }, mode))
        }
        request._options = _options
        return request
    }
}
