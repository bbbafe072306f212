// A cache of paged lists keeps each entry's pages within a window, as one
// paged `Loadable` does: a feed cached per key, scrolled far, holds a bounded
// number of pages.

extension Cache {
    /// Creates an empty cache of paged lists whose entries each keep at most
    /// `window` pages.
    ///
    /// ```swift
    /// let feeds = Cache<String, Pages<Post, Int>, FeedError>(clock: ContinuousClock(), staleAfter: .seconds(60), window: 3) { topic in
    ///     LoadRequest { () async throws(FeedError) in try await api.feed(topic, after: nil) }
    /// }
    /// let subscription = feeds.subscribe("swift")
    /// await subscription.loaded()
    /// await feeds["swift"]?.loadMore { cursor in
    ///     LoadRequest { () async throws(FeedError) in try await api.feed("swift", after: cursor) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - clock: measures staleness and collection; a test clock in tests.
    ///   - staleAfter: how long a value counts as fresh.
    ///   - collectAfter: how long an unused entry stays.
    ///   - capacity: the most entries kept.
    ///   - window: the most pages each entry keeps, as
    ///     ``Loadable/init(window:)`` says; `nil` keeps every page.
    ///   - request: the load of one key's first page.
    @inlinable
    public convenience init<Element, Cursor>(
        clock: some Clock<Duration>,
        staleAfter: Duration,
        collectAfter: Duration = .seconds(300),
        capacity: Int = .max,
        window: Int?,
        request: @escaping (Key) -> LoadRequest<Value, Failure>
    ) where Value == Pages<Element, Cursor> {
        self.init(
            clock: LoadClock(clock), staleAfter: staleAfter, collectAfter: collectAfter, capacity: capacity, request: request,
            makeValue: { AsyncValue(Loadable(window: window), clock: $0) })
    }
}

extension CacheReducer {
    /// Creates the reducer of a cache of paged lists whose entries each keep
    /// at most `window` pages.
    ///
    /// - Parameters:
    ///   - clock: the clock effects read, stamp and sleep on.
    ///   - staleAfter: how long a value counts as fresh.
    ///   - collectAfter: how long an entry stays after its last user leaves.
    ///   - capacity: at most this many entries are kept.
    ///   - window: the most pages each entry keeps, as
    ///     ``Loadable/init(window:)`` says; `nil` keeps every page.
    ///   - request: the load of one key's first page.
    public init<Element, Cursor>(
        clock: LoadClock,
        staleAfter: Duration,
        collectAfter: Duration = .seconds(300),
        capacity: Int = .max,
        window: Int?,
        request: @escaping (Key) -> LoadRequest<Value, Failure>
    ) where Value == Pages<Element, Cursor> {
        self.init(clock: clock, staleAfter: staleAfter, collectAfter: collectAfter, capacity: capacity, request: request)
        newEntry = { Loadable(window: window) }
    }
}
