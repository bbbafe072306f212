extension Optimistic {
    /// Applies `action` as a reducer step: reports a dropped action to the
    /// store, and cancels the work of a load that a newer load supersedes.
    /// Mutations never supersede each other: each settles on its own.
    @inlinable
    public mutating func reduce<Action>(_ action: EditAction<Change, Failure>) -> Effect<Action> {
        let superseded = _confirmed.inFlightID
        guard apply(action) == .applied else { return Effect.dropped }
        guard case .load(.started(let newer)) = action, let superseded else { return .none }
        return Effect(.cancelLoad(superseded, supersededBy: newer))
    }

    /// Loads the confirmed value, honouring `overlap` as
    /// ``Loadable/load(_:overlap:timeout:operation:)`` does. Pending edits stay
    /// shown on top of the value it brings.
    @inlinable
    public func load<Action>(
        _ embed: @escaping (EditAction<Change, Failure>) -> Action,
        overlap: OverlapPolicy = .latestWins,
        operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) -> Effect<Action> where Value: SendableMetatype, Failure: Error {
        _confirmed.load({ embed(.load($0)) }, overlap: overlap, operation: operation)
    }

    /// Runs a mutation that shows `edit` at once: the edit is pending while
    /// `operation` runs, joins the confirmed value when it returns, and is
    /// rolled back — alone — when it throws or is cancelled.
    ///
    /// ```swift
    /// case .likeTapped(let id):
    ///     return state.posts.mutate(Action.posts, .like(postID: id)) { () async throws(PostError) in
    ///         try await api.like(id)
    ///     }
    /// ```
    @inlinable
    public func mutate<Action>(
        _ embed: @escaping (EditAction<Change, Failure>) -> Action,
        _ edit: Change,
        operation: @escaping @MainActor @Sendable () async throws(Failure) -> Void
    ) -> Effect<Action> where Change: Sendable, Failure: Error {
        // A mutation has side effects on the server, so nothing newer cancels
        // it; only `cancel(mutation:)` with `Effect.cancel(load:)` does.
        Effect.makeLoad({ embed(.mutation(edit, $0)) }, cancelsEarlier: false, nil) { id in
            await LoadAction.outcome(of: id) { () async throws(Failure) in
                try await operation()
                return edit
            }
        }
    }
}
