extension Loadable {
    /// A load over an `AsyncSequence` whose elements are whole values — each
    /// better than the last, such as search results refined as they arrive.
    ///
    /// ```swift
    /// case .search(let query):
    ///     return state.results.load(Action.results, stream: { api.results(for: query) }, mapError: SearchError.init)
    /// ```
    ///
    /// Each element is sent as `.progress(id, element)` (unless `mode` is
    /// ``StreamMode/keepUntilEnd``) and the end of the sequence finishes the
    /// load with the last one; a sequence that ends without any returns to the
    /// settled state, as `.cancelled(id)`. Failure and cancellation are as for
    /// any load, and a newer load supersedes this one: whatever the old
    /// sequence still yields is dropped, never shown. With `retry`, a failed
    /// attempt starts a fresh sequence from `stream`.
    ///
    /// - Parameters:
    ///   - embed: wraps each load action in the feature's action.
    ///   - overlap: what to do if a load of this resource is in flight.
    ///   - stream: makes the sequence, once per attempt.
    ///   - mode: what the screen shows while it streams.
    ///   - retry: tries again after a failed attempt.
    ///   - timeout: bounds the whole load — a sequence that never ends, too.
    ///   - mapError: turns an error the sequence throws into the state's failure.
    public func load<Action, Elements: AsyncSequence>(
        _ embed: @escaping (LoadAction<Value, Failure>) -> Action,
        overlap: OverlapPolicy = .latestWins,
        stream: @escaping @MainActor @Sendable () -> Elements,
        mode: StreamMode = .startEmpty,
        retry: RetryPolicy<Failure>? = nil,
        timeout: LoadTimeout<Failure>? = nil,
        mapError: @escaping (any Error) -> Failure
    ) -> Effect<Action> where Elements.Element == Value, Value: SendableMetatype & Sendable, Failure: Sendable {
        return effect(overlapping: overlap) {
            return Effect.makeStreamLoad(
                embed, cancelsEarlier: overlap.cancelsEarlier, mode: mode, retry: retry, timeout: timeout,
                startingWith: nil, makeElements: stream, accumulate: { $0 = $1 }, mapError: mapError)
        }
    }

    /// A load over an `AsyncSequence` whose elements are parts of the value —
    /// pages, rows, chunks — folded into it with `accumulate`.
    ///
    /// ```swift
    /// case .refresh:
    ///     return state.feed.load(Action.feed, stream: { api.pages() }, mode: .append, initial: [], mapError: FeedError.init) {
    ///         $0.append(contentsOf: $1)
    ///     }
    /// ```
    ///
    /// The result so far starts as `initial` — or, in ``StreamMode/append``
    /// mode, as the value shown now — and each element is folded in and sent
    /// as `.progress(id, result)` (unless `mode` is ``StreamMode/keepUntilEnd``).
    /// The end of the sequence finishes the load with the result. Failure,
    /// cancellation, supersession, `retry` and `timeout` are as for
    /// ``load(_:overlap:stream:mode:retry:timeout:mapError:)``; each retry starts
    /// over from the same starting value.
    public func load<Action, Elements: AsyncSequence>(
        _ embed: @escaping (LoadAction<Value, Failure>) -> Action,
        overlap: OverlapPolicy = .latestWins,
        stream: @escaping @MainActor @Sendable () -> Elements,
        mode: StreamMode = .startEmpty,
        retry: RetryPolicy<Failure>? = nil,
        timeout: LoadTimeout<Failure>? = nil,
        initial: Value,
        mapError: @escaping (any Error) -> Failure,
        accumulate: @escaping @MainActor @Sendable (inout Value, Elements.Element) -> Void
    ) -> Effect<Action> where Value: SendableMetatype & Sendable, Failure: Sendable {
        return effect(overlapping: overlap) {
            let start = mode == .append ? (_value ?? initial) : initial
            return Effect.makeStreamLoad(
                embed, cancelsEarlier: overlap.cancelsEarlier, mode: mode, retry: retry, timeout: timeout,
                startingWith: start, makeElements: stream,
                accumulate: { result, element in
                    // `result` starts non-nil here, so this folds in place.
                    if result != nil { accumulate(&result!, element) }
                },
                mapError: mapError)
        }
    }
}
