extension Effect {
    /// Loads a value, trying again after a failed attempt as `retry` says.
    ///
    /// ```swift
    /// case .refresh:
    ///     return .load(Action.feed, retry: RetryPolicy(attempts: 3, backoff: .constant(.seconds(2)), clock: clock)) {
    ///         () async throws(FeedError) in try await api.feed()
    ///     }
    /// ```
    ///
    /// Every attempt shares the load's ``LoadID``. Before each wait the load
    /// sends `.retrying(id, LoadRetry)`; in the end it sends one of
    /// `.finished`, `.failed` (the last attempt's failure, or one
    /// `shouldRetry` declined) or `.cancelled` — also when cancelled during a
    /// wait. `timeout` bounds the whole chain, waits included; the policy's
    /// ``RetryPolicy/attemptTimeout`` bounds each attempt.
    public static func load<Value: SendableMetatype, Failure: Error & Equatable>(
        _ embed: @escaping (LoadAction<Value, Failure>) -> Action,
        retry: RetryPolicy<Failure>,
        timeout: LoadTimeout<Failure>? = nil,
        operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) -> Effect {
        makeReportingLoad(embed, cancelsEarlier: true, timeout) { id, report in
            await retry.run(id, report: report) { await LoadAction.outcome(of: id, operation) }
        }
    }

    /// Loads a value with retries, for an operation that throws untyped
    /// errors; `mapError` turns each into the state's failure, which
    /// `shouldRetry` then judges. Cancellation never reaches `mapError`.
    public static func load<Value: SendableMetatype, Failure: Sendable>(
        _ embed: @escaping (LoadAction<Value, Failure>) -> Action,
        retry: RetryPolicy<Failure>,
        timeout: LoadTimeout<Failure>? = nil,
        mapError: @escaping (any Error) -> Failure,
        operation: @escaping @MainActor @Sendable () async throws -> Value
    ) -> Effect {
        let mapError = MainActorFunction(mapError)
        return makeReportingLoad(embed, cancelsEarlier: true, timeout) { id, report in
            await retry.run(id, report: report) { await LoadAction.outcome(of: id, operation, mapError: mapError.callAsFunction) }
        }
    }
}

extension Loadable {
    /// A load with retries that honours `overlap` — see
    /// ``Effect/load(_:retry:timeout:operation:)`` for the retries and
    /// ``load(_:overlap:timeout:operation:)`` for the overlap.
    public func load<Action>(
        _ embed: @escaping (LoadAction<Value, Failure>) -> Action,
        overlap: OverlapPolicy,
        retry: RetryPolicy<Failure>,
        timeout: LoadTimeout<Failure>? = nil,
        operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) -> Effect<Action> where Value: SendableMetatype, Failure: Error {
        return effect(overlapping: overlap) {
            return Effect.makeReportingLoad(embed, cancelsEarlier: overlap.cancelsEarlier, timeout) { id, report in
                await retry.run(id, report: report) { await LoadAction.outcome(of: id, operation) }
            }
        }
    }

    /// A load with retries that honours `overlap`, for an operation that
    /// throws untyped errors; `mapError` turns each into the state's failure.
    public func load<Action>(
        _ embed: @escaping (LoadAction<Value, Failure>) -> Action,
        overlap: OverlapPolicy,
        retry: RetryPolicy<Failure>,
        timeout: LoadTimeout<Failure>? = nil,
        mapError: @escaping (any Error) -> Failure,
        operation: @escaping @MainActor @Sendable () async throws -> Value
    ) -> Effect<Action> where Value: SendableMetatype, Failure: Sendable {
        let mapError = MainActorFunction(mapError)
        return effect(overlapping: overlap) {
            return Effect.makeReportingLoad(embed, cancelsEarlier: overlap.cancelsEarlier, timeout) { id, report in
                await retry.run(id, report: report) { await LoadAction.outcome(of: id, operation, mapError: mapError.callAsFunction) }
            }
        }
    }
}
