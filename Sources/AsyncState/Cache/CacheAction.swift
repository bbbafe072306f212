/// What can happen to a shared keyed cache; see ``CacheReducer``.
///
/// Actions that depend on the time carry it, read from the injected
/// ``LoadClock`` by whoever sends them (the reducer's own effects do).
public enum CacheAction<Key: Hashable & Sendable, Value: Equatable, Failure: Equatable> {
    /// A user (a screen, a feature) starts using `key` at `at`: the entry is
    /// created if needed and kept while it has users; a missing or stale value
    /// loads, and a load in flight is shared — unless an invalidation has
    /// overtaken it, in which case a fresh load starts.
    case subscribe(Key, at: LoadClock.Instant)
    /// A user stops using `key`. After the last one leaves, the entry is
    /// collected once the reducer's `collectAfter` has passed unused.
    /// An unsubscribe without a matching subscribe is dropped.
    case unsubscribe(Key)
    /// Loads `key` ahead of its first user: the entry is created with no
    /// user, loaded if missing or stale, and collected `collectAfter` later
    /// unless someone subscribes first.
    case prefetch(Key, at: LoadClock.Instant)
    /// A load action for one key's loadable — any lane or layer.
    case entry(Key, LoadAction<Value, Failure>)
    /// Marks `key` stale and, if it is in use, reloads it now, superseding a
    /// load in flight. Dropped for a key that is not cached.
    case invalidate(Key)
    /// Invalidates every cached key for which `isIncluded` is true — "all
    /// pages of feed X". Entries in use reload; unused ones reload when next used.
    case invalidateAll(where: @Sendable (Key) -> Bool)
    /// A refetch trigger at `at` (the app became active, the network came
    /// back): every entry in use whose value is stale reloads.
    case refetchStale(at: LoadClock.Instant)
    /// Reloads `key` now if it is cached and in use — a poll tick — unless a
    /// load of it is in flight or queued: one that no invalidation has
    /// overtaken, or a "load more", which a reload would supersede.
    case refetch(Key)
    /// The collection timer of an idle spell ran out; ignored if the entry
    /// was used again since.
    case collect(Key, token: UInt64)
}

extension CacheAction: Sendable where Value: Sendable, Failure: Sendable {}

extension CacheAction: CustomStringConvertible {
    /// A short form such as `entry(7, finished(#2, "Lee") at 0.3 seconds)`.
    public var description: String {
        switch self {
        case .subscribe(let key, let now): "subscribe(\(key)) at \(now)"
        case .unsubscribe(let key): "unsubscribe(\(key))"
        case .prefetch(let key, let now): "prefetch(\(key)) at \(now)"
        case .entry(let key, let action): "entry(\(key), \(action))"
        case .invalidate(let key): "invalidate(\(key))"
        case .invalidateAll: "invalidateAll(where:)"
        case .refetchStale(let now): "refetchStale at \(now)"
        case .refetch(let key): "refetch(\(key))"
        case .collect(let key, _): "collect(\(key))"
        }
    }
}
