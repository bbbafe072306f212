extension Effect {
    /// This effect, started only after `duration` has passed on `clock`.
    ///
    /// Pass a test clock in tests to control time without sleeping.
    public func delayed<C: Clock>(for duration: C.Duration, clock: C) -> Effect {
        Effect.run { _ in try await clock.sleep(for: duration) }.concatenating(with: self)
    }

    /// This effect, started only once `duration` passes on `clock` without
    /// another effect with the same `id` being started: each new one cancels
    /// the previous, so only the last of a burst runs.
    ///
    /// ```swift
    /// case .queryChanged(let query):
    ///     return state.results.load(Action.results, LoadRequest { () async throws(SearchError) in try await search(query) })
    ///         .debounced(id: "search", for: .milliseconds(300), clock: clock)
    /// ```
    ///
    /// A load inside a debounced effect is started — and gets its ``LoadID`` —
    /// when the wait is over, so a burst of keystrokes starts a single load.
    /// The debounce owns that load too: a later start cancels it even after it
    /// began. To let started loads keep running (and have late answers
    /// dropped as stale instead), debounce an action and start the load from it:
    ///
    /// ```swift
    /// case .queryChanged(let query):
    ///     return Effect.send(.search(query)).debounced(id: "search", for: .milliseconds(300), clock: clock)
    /// case .search(let query):
    ///     let request = LoadRequest { () async throws(SearchError) in try await search(query) }
    ///     return state.results.load(Action.results, request, overlap: .latestWins(cancellingEarlier: false))
    /// ```
    public func debounced<C: Clock>(id: some Hashable & Sendable, for duration: C.Duration, clock: C) -> Effect {
        delayed(for: duration, clock: clock).cancellable(id: id, cancelInFlight: true)
    }
}
