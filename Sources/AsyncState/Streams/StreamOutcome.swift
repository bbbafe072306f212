extension LoadAction {
    /// Consumes `elements`, folding each into the result with `accumulate`
    /// and — when `showsProgress` — reporting the result so far as
    /// `.progress(id, …)`; returns the action that ends the attempt.
    ///
    /// - The sequence ends: `.finished(id, result)`; with no result at all
    ///   (a sequence of whole values that yields none), `.cancelled(id)`, which
    ///   returns to the settled state: there is nothing to show, and nothing failed.
    /// - It throws: `.failed(id, mapError(error))`, or `.cancelled(id)` for
    ///   `CancellationError` or once the task is cancelled.
    /// - The task is cancelled: the next element, if one ever comes, ends the
    ///   attempt as `.cancelled(id)` and is neither reported nor kept. A
    ///   sequence that never ends runs until cancelled, or until a timeout.
    @MainActor
    static func streamOutcome<Elements: AsyncSequence>(
        of id: LoadID,
        _ elements: Elements,
        startingWith start: Value?,
        showsProgress: Bool,
        report: Send<LoadAction>,
        accumulate: @MainActor (inout Value?, Elements.Element) -> Void,
        mapError: @MainActor (any Error) -> Failure
    ) async -> LoadAction {
        var result = start
        do {
            for try await element in elements {
                if Task.isCancelled { return .cancelled(id) }
                accumulate(&result, element)
                if showsProgress, let result { report(.progress(id, result)) }
            }
        } catch {
            if Task.isCancelled || error is CancellationError { return .cancelled(id) }
            return .failed(id, mapError(error))
        }
        if Task.isCancelled { return .cancelled(id) }
        guard let result else { return .cancelled(id) }
        return .finished(id, result)
    }
}

extension Effect {
    /// A load over a sequence made fresh by `makeElements` for each attempt.
    static func makeStreamLoad<Value: SendableMetatype & Sendable, Failure: Sendable, Elements: AsyncSequence>(
        _ embed: @escaping (LoadAction<Value, Failure>) -> Action,
        cancelsEarlier: Bool,
        mode: StreamMode,
        retry: RetryPolicy<Failure>?,
        timeout: LoadTimeout<Failure>?,
        startingWith start: Value?,
        makeElements: @escaping @MainActor @Sendable () -> Elements,
        accumulate: @escaping @MainActor @Sendable (inout Value?, Elements.Element) -> Void,
        mapError: @escaping (any Error) -> Failure
    ) -> Effect {
        let mapError = MainActorFunction(mapError)
        return makeReportingLoad(embed, cancelsEarlier: cancelsEarlier, timeout) { id, report in
            let attempt: @MainActor @Sendable () async -> LoadAction<Value, Failure> = {
                await LoadAction.streamOutcome(
                    of: id, makeElements(), startingWith: start, showsProgress: mode.showsProgress, report: report,
                    accumulate: accumulate, mapError: mapError.callAsFunction)
            }
            guard let retry else { return await attempt() }
            return await retry.run(id, report: report, attempt)
        }
    }
}
