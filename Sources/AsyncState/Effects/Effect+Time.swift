extension Effect {
    /// This effect, started only after `duration` has passed on `clock`.
    ///
    /// Pass a test clock in tests to control time without sleeping. A load
    /// in it keeps the overlap decision made when the reducer returned it;
    /// see ``debounced(id:for:clock:)``.
    public func delayed<C: Clock>(for duration: C.Duration, clock: C) -> Effect {
        Effect.run { _ in try await clock.sleepClamped(for: duration) }.concatenating(with: self)
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
    /// began.
    ///
    /// Its ``OverlapPolicy`` was decided when the reducer returned it,
    /// against the load in flight then, and the wait does not decide again:
    /// a load decided as a start supersedes whatever runs when the wait is
    /// over, and a join or a queued start waits for the load that was in
    /// flight then — a join of a load that has since ended starts nothing,
    /// and a queued start behind one starts at once, superseding a load
    /// started during the wait.
    /// To have the policy decided when the wait is over, or to let started
    /// loads keep running (and have late answers dropped as stale instead),
    /// debounce an action and start the load from it:
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
