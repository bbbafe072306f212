extension PagedLoadable {
    /// Applies `action` as a reducer step: reports a dropped action to the
    /// store, and when a refresh starts, cancels the work of the refresh and
    /// the "load more" it supersedes.
    @inlinable
    public mutating func reduce<Action>(_ action: PageAction<Element, Cursor, Failure>) -> Effect<Action> {
        let list = _list.inFlightID
        let more = _more?.id
        guard apply(action) == .applied else { return Effect.dropped }
        guard case .list(.started(let newer)) = action else { return .none }
        var superseded: [Effect<Action>] = []
        if let list { superseded.append(Effect(.cancelLoad(list, supersededBy: newer))) }
        if let more { superseded.append(Effect(.cancelLoad(more, supersededBy: newer))) }
        return .merge(superseded)
    }

    /// Loads the first page, or refreshes: the page replaces every page, and
    /// supersedes a refresh or "load more" in flight.
    ///
    /// ```swift
    /// case .pulledToRefresh:
    ///     return state.feed.refresh(Action.feed) { () async throws(FeedError) in
    ///         try await api.feed(after: nil)
    ///     }
    /// ```
    @inlinable
    public func refresh<Action>(
        _ embed: @escaping (PageAction<Element, Cursor, Failure>) -> Action,
        operation: @escaping @MainActor @Sendable () async throws(Failure) -> Page<Element, Cursor>
    ) -> Effect<Action> where Element: Sendable, Cursor: Sendable, Failure: Error {
        Effect.makeLoad({ embed(.list($0)) }, cancelsEarlier: true, nil) { id in
            await LoadAction.outcome(of: id, operation)
        }
    }

    /// Loads the page at ``nextCursor`` and appends it — or starts nothing when
    /// ``nextRequest`` is `nil` (before the first page, at the end, while the
    /// list loads, or while a "load more" is in flight), so calling it every
    /// time the last row appears is safe.
    ///
    /// ```swift
    /// case .lastRowAppeared, .retryTapped:
    ///     return state.feed.loadMore(Action.feed) { cursor async throws(FeedError) in
    ///         try await api.feed(after: cursor)
    ///     }
    /// ```
    @inlinable
    public func loadMore<Action>(
        _ embed: @escaping (PageAction<Element, Cursor, Failure>) -> Action,
        operation: @escaping @MainActor @Sendable (Cursor) async throws(Failure) -> Page<Element, Cursor>
    ) -> Effect<Action> where Element: Sendable, Cursor: Sendable, Failure: Error {
        guard let request = nextRequest else { return .none }
        return Effect.makeLoad({ embed(.more(request, $0)) }, cancelsEarlier: true, nil) { id in
            await LoadAction.outcome(of: id) { () async throws(Failure) in try await operation(request.cursor) }
        }
    }
}
