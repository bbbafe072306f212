// AsyncValue's loads with retries and over streams, and the read-outs of a
// load's activity: the same capabilities a reducer has through `Loadable`.

extension AsyncValue {
    /// Why the load in flight runs — first load, refresh, retry after a
    /// failure — and which attempt it is on; `nil` when settled.
    public var activity: LoadActivity<Failure>? { _store.state.activity }

    /// The partial value streamed by the load in flight, or `nil`.
    public var partialValue: Value? { _store.state.partialValue }

    /// Loads with `operation`, trying again after a failed attempt as `retry`
    /// says; returns once the load has settled, been superseded, or been
    /// cancelled — also during a wait between attempts.
    ///
    /// ```swift
    /// await feed.load(retry: RetryPolicy(attempts: 3, backoff: .constant(.seconds(2)))) {
    ///     () async throws(FeedError) in try await api.feed()
    /// }
    /// ```
    public func load(
        overlap: OverlapPolicy = .latestWins,
        retry: RetryPolicy<Failure>,
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) async where Failure: Error, Value: SendableMetatype {
        await run(
            overlap,
            Effect.makeReportingLoad(_loaded, cancelsEarlier: overlap.cancelsEarlier, nil) { id, report in
                await retry.run(id, report: report) { await LoadAction.outcome(of: id, operation) }
            })
    }

    /// Loads with retries, attaching `context` for callers that join — for
    /// ``OperationTracker``'s runs with a retry policy.
    @discardableResult
    func load(
        overlap: OverlapPolicy,
        context: AnyObject?,
        retry: RetryPolicy<Failure>,
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) async -> Participation where Failure: Error, Value: SendableMetatype {
        await run(
            overlap,
            Effect.makeReportingLoad(_loaded, cancelsEarlier: overlap.cancelsEarlier, nil) { id, report in
                await retry.run(id, report: report) { await LoadAction.outcome(of: id, operation) }
            },
            context: context)
    }

    /// Loads with retries, turning the operation's errors into `Failure` with `mapError`.
    public func load(
        overlap: OverlapPolicy = .latestWins,
        retry: RetryPolicy<Failure>,
        mapError: @escaping (any Error) -> Failure,
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) async where Value: SendableMetatype, Failure: Sendable {
        await run(
            overlap,
            Effect.makeReportingLoad(_loaded, cancelsEarlier: overlap.cancelsEarlier, nil) { id, report in
                await retry.run(id, report: report) { await LoadAction.outcome(of: id, operation, mapError: mapError) }
            })
    }

    /// Loads with retries; untyped errors become ``AnyError``.
    public func load(
        overlap: OverlapPolicy = .latestWins,
        retry: RetryPolicy<AnyError>,
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) async where Failure == AnyError, Value: SendableMetatype {
        await load(overlap: overlap, retry: retry, mapError: AnyError.init, operation)
    }

    /// Loads over an `AsyncSequence` of whole values: each is shown as it
    /// arrives and the last one settles the load — see
    /// ``Loadable/load(_:overlap:stream:mode:retry:timeout:mapError:)``.
    ///
    /// ```swift
    /// await results.load(stream: { api.results(for: query) }, mapError: SearchError.init)
    /// ```
    public func load<Elements: AsyncSequence>(
        overlap: OverlapPolicy = .latestWins,
        stream: @escaping @MainActor @Sendable () -> Elements,
        mode: StreamMode = .startEmpty,
        retry: RetryPolicy<Failure>? = nil,
        timeout: LoadTimeout<Failure>? = nil,
        mapError: @escaping (any Error) -> Failure
    ) async where Elements.Element == Value, Value: SendableMetatype & Sendable, Failure: Sendable {
        // Built from the state when it starts, so a reload starts from the value
        // shown then (`.append`). Unowned: the value keeps this closure for
        // `reload()`, and only the value calls it.
        let request = { [unowned self] (overlap: OverlapPolicy) -> Effect<Feature.Action> in
            _store._currentState.load(
                _loaded, overlap: overlap, stream: stream, mode: mode, retry: retry, timeout: timeout,
                mapError: mapError)
        }
        await run(overlap, request(overlap)) { request(.latestWins) }
    }

    /// Loads over an `AsyncSequence` of parts folded into the value with
    /// `accumulate` — see
    /// ``Loadable/load(_:overlap:stream:mode:retry:timeout:initial:mapError:accumulate:)``.
    public func load<Elements: AsyncSequence>(
        overlap: OverlapPolicy = .latestWins,
        stream: @escaping @MainActor @Sendable () -> Elements,
        mode: StreamMode = .startEmpty,
        retry: RetryPolicy<Failure>? = nil,
        timeout: LoadTimeout<Failure>? = nil,
        initial: Value,
        mapError: @escaping (any Error) -> Failure,
        accumulate: @escaping @MainActor @Sendable (inout Value, Elements.Element) -> Void
    ) async where Value: SendableMetatype & Sendable, Failure: Sendable {
        // Built from the state when it starts, as above.
        let request = { [unowned self] (overlap: OverlapPolicy) -> Effect<Feature.Action> in
            _store._currentState.load(
                _loaded, overlap: overlap, stream: stream, mode: mode, retry: retry, timeout: timeout,
                initial: initial, mapError: mapError, accumulate: accumulate)
        }
        await run(overlap, request(overlap)) { request(.latestWins) }
    }
}
