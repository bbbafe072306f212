extension Effect {
    /// Loads a value and reports its lifecycle as ``LoadAction``s. A newer load
    /// of the same ``Loadable`` supersedes it and cancels its work; for the
    /// other overlap policies, start the load with
    /// ``Loadable/load(_:overlap:timeout:operation:)``, which can see whether one
    /// is already in flight.
    ///
    /// The store gives the load the next ``LoadID``, sends `.started(id)` before
    /// `send` returns, runs `operation` on the main actor, and then sends exactly
    /// one of `.finished(id, value)`, `.failed(id, error)` or `.cancelled(id)`.
    /// If the task is cancelled — whether `operation` then throws, returns, or
    /// throws `CancellationError` — the result is `.cancelled`, never `.failed`.
    ///
    /// ```swift
    /// case .refresh:
    ///     return .load(Action.profile, operation: api.profile)
    /// case .search(let query):
    ///     return .load(Action.results) { () async throws(SearchError) in
    ///         try await api.search(query)
    ///     }
    /// ```
    ///
    /// Swift infers a closure that uses `try` as throwing `any Error`, so a
    /// closure passed here names its error type, as above — or pass a method
    /// reference, which keeps its typed `throws`. For untyped errors use
    /// ``load(_:timeout:mapError:operation:)``.
    ///
    /// - Parameters:
    ///   - embed: wraps each load action in this feature's action, usually an enum case.
    ///   - timeout: ends the load with a failure of your choice if it takes too long.
    ///   - operation: the work; its typed error becomes the state's failure.
    @inlinable
    public static func load<Value: SendableMetatype, Failure: Error & Equatable>(
        _ embed: @escaping (LoadAction<Value, Failure>) -> Action,
        timeout: LoadTimeout<Failure>? = nil,
        operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) -> Effect {
        makeLoad(embed, cancelsEarlier: true, timeout, operation: operation)
    }

    /// Loads a value whose operation throws untyped errors, turning each error
    /// into the state's failure with `mapError`.
    ///
    /// `CancellationError`, and any error thrown after the task was cancelled,
    /// become `.cancelled(id)` and never reach `mapError`.
    ///
    /// ```swift
    /// return .load(Action.feed, mapError: { FeedError($0) }) {
    ///     try await api.feed()
    /// }
    /// ```
    @inlinable
    public static func load<Value: SendableMetatype, Failure: Sendable>(
        _ embed: @escaping (LoadAction<Value, Failure>) -> Action,
        timeout: LoadTimeout<Failure>? = nil,
        mapError: @escaping (any Error) -> Failure,
        operation: @escaping @MainActor @Sendable () async throws -> Value
    ) -> Effect {
        let mapError = MainActorFunction(mapError)
        return makeLoad(embed, cancelsEarlier: true, timeout) { id in
            await LoadAction.outcome(of: id, operation, mapError: mapError.callAsFunction)
        }
    }

    /// A load effect whose work runs `run`, raced against `timeout` if there is one.
    // Inlinable, like the store's runner, so a load is specialized for the
    // feature's types: unspecialized, every load looked up generic metadata.
    @inlinable
    static func makeLoad<Value: SendableMetatype, Failure: Sendable>(
        _ embed: @escaping (LoadAction<Value, Failure>) -> Action,
        cancelsEarlier: Bool,
        _ timeout: LoadTimeout<Failure>?,
        _ run: @escaping @MainActor @Sendable (LoadID) async -> LoadAction<Value, Failure>
    ) -> Effect {
        let embed = MainActorFunction(embed)
        let work: Load.Work
        if let timeout {
            work = timedWork(embed, timeout, run)
        } else {
            work = { id, reporter in
                TaskBody { @MainActor in
                    reporter.began()
                    reporter.end(id, with: embed(await run(id)))
                }
            }
        }
        return Effect(Load(cancelID: nil, cancelsEarlier: cancelsEarlier, started: { embed(.started($0)) }, work: work))
    }

    /// A load effect whose work runs `operation`. Without a timeout the
    /// task's body calls the operation itself and ends the load in the frame
    /// where the value arrives: no `run` closure and no `outcome` frame
    /// between them, and no result buffer above it (see `LoadReporter`). The
    /// body keeps nothing else across its `await`: `began()` calls a method
    /// that is not inlined, and the store's tables hold the rest. That keeps
    /// an in-flight load's frames in its task's first allocator slab (984
    /// bytes).
    @inlinable
    static func makeLoad<Value: SendableMetatype, Failure: Error>(
        _ embed: @escaping (LoadAction<Value, Failure>) -> Action,
        cancelsEarlier: Bool,
        _ timeout: LoadTimeout<Failure>?,
        operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) -> Effect {
        if timeout != nil {
            return makeLoad(embed, cancelsEarlier: cancelsEarlier, timeout) { id in
                await LoadAction.outcome(of: id, operation)
            }
        }
        let embed = MainActorFunction(embed)
        return Effect(
            Load(
                cancelID: nil, cancelsEarlier: cancelsEarlier, started: { embed(.started($0)) },
                work: { id, reporter in
                    TaskBody { @MainActor in
                        reporter.began()
                        do throws(Failure) {
                            let value = try await operation()
                            reporter.end(id, with: embed(.ending(id, returning: value)))
                        } catch {
                            reporter.end(id, with: embed(.ending(id, throwing: error)))
                        }
                    }
                }))
    }

    /// The work of a load with a timeout: it races a timer, so it is not worth
    /// specializing.
    @usableFromInline
    static func timedWork<Value: SendableMetatype, Failure: Sendable>(
        _ embed: MainActorFunction<LoadAction<Value, Failure>, Action>,
        _ timeout: LoadTimeout<Failure>,
        _ run: @escaping @MainActor @Sendable (LoadID) async -> LoadAction<Value, Failure>
    ) -> Load.Work {
        { id, reporter in
            TaskBody { @MainActor in
                reporter.began()
                reporter.end(id, with: embed(await withTimeout(timeout, onTimeout: { .failed(id, timeout.failure) }) { await run(id) }))
            }
        }
    }

    /// A load effect whose work may report actions on the way — retries,
    /// progress — before the one that ends it; raced against `timeout` if
    /// there is one, which then bounds the whole load. Not inlinable: retries
    /// and streams wait and suspend far longer than a specialization saves.
    static func makeReportingLoad<Value: SendableMetatype, Failure: Sendable>(
        _ embed: @escaping (LoadAction<Value, Failure>) -> Action,
        cancelsEarlier: Bool,
        _ timeout: LoadTimeout<Failure>?,
        _ run: @escaping @MainActor @Sendable (LoadID, Send<LoadAction<Value, Failure>>) async -> LoadAction<Value, Failure>
    ) -> Effect {
        let embed = MainActorFunction(embed)
        let work: Load.Work = { id, reporter in
            TaskBody { @MainActor in
                reporter.began()
                let send = reporter._send
                let report = Send<LoadAction<Value, Failure>> { send(embed($0)) }
                guard let timeout else { return reporter.end(id, with: embed(await run(id, report))) }
                let result = await withTimeout(timeout, onTimeout: { .failed(id, timeout.failure) }) { await run(id, report) }
                reporter.end(id, with: embed(result))
            }
        }
        return Effect(Load(cancelID: nil, cancelsEarlier: cancelsEarlier, started: { embed(.started($0)) }, work: work))
    }
}

extension LoadAction {
    /// The action that ends load `id` once `operation` returns or throws.
    /// Cancellation wins: if the task was cancelled, the outcome is
    /// `.cancelled(id)` whatever the operation did.
    @inlinable
    @MainActor
    static func outcome(
        of id: LoadID,
        _ operation: @MainActor () async throws(Failure) -> Value
    ) async -> LoadAction where Failure: Error {
        do throws(Failure) {
            return .ending(id, returning: try await operation())
        } catch {
            return .ending(id, throwing: error)
        }
    }

    /// The action that ends load `id`, whose operation returned `value`:
    /// `.finished`, or `.cancelled` if the task was cancelled.
    @inlinable
    static func ending(_ id: LoadID, returning value: Value) -> LoadAction {
        Task.isCancelled ? .cancelled(id) : .finished(id, value)
    }

    /// The action that ends load `id`, whose operation threw `error`:
    /// `.failed`, or `.cancelled` if the task was cancelled.
    @inlinable
    static func ending(_ id: LoadID, throwing error: Failure) -> LoadAction {
        Task.isCancelled ? .cancelled(id) : .failed(id, error)
    }

    /// The action that ends load `id` once `operation` returns or throws an
    /// untyped error, which `mapError` turns into the failure. Cancellation
    /// wins, and `CancellationError` never reaches `mapError`.
    @inlinable
    @MainActor
    static func outcome(
        of id: LoadID,
        _ operation: @MainActor () async throws -> Value,
        mapError: (any Error) -> Failure
    ) async -> LoadAction {
        do {
            let value = try await operation()
            return Task.isCancelled ? .cancelled(id) : .finished(id, value)
        } catch {
            if Task.isCancelled || error is CancellationError { return .cancelled(id) }
            return .failed(id, mapError(error))
        }
    }
}
