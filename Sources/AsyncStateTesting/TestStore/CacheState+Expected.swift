import AsyncState

extension CacheState {
    /// A cache holding `entries`, each key with the users `users` gives it,
    /// for describing an expected state by its values in a ``TestStore``
    /// step instead of replaying actions through `CacheReducer`, which
    /// would check the cache against itself.
    ///
    /// ```swift
    /// store.send(.users(.subscribe(7, at: clock.now))) {
    ///     $0.users = CacheState(expecting: [7: Loadable()], users: [7: 1])
    /// }
    /// ```
    ///
    /// Write each entry's loadable with `Loadable(expecting:…)` — with the
    /// `window:` of a cache of paged lists made with one, which each entry
    /// keeps, empty too (`Loadable(window:)`). A key with
    /// no users is unused: a full cache evicts such keys first to last in
    /// the order `entries` gives them, and two caches are equal only if they
    /// would evict in the same order. A key given twice keeps its first
    /// place and its last loadable; users for a key not in `entries`, and
    /// counts below one, count as none.
    ///
    /// - Parameters:
    ///   - entries: the cached keys and their loadables.
    ///   - users: how many users each key has; none by default.
    public init(expecting entries: KeyValuePairs<Key, Loadable<Value, Failure>>, users: [Key: Int] = [:]) {
        self.init(entries.lazy.map { ($0.key, $0.value) }, users: { users[$0] ?? 0 })
    }
}
