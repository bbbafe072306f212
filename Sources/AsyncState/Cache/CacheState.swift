/// The state of a shared keyed cache in a reducer: one ``Loadable`` per key —
/// of any shape, a paged list too — how many users each has, and which unused
/// entries to collect or evict first.
///
/// A plain value, evolved by ``CacheReducer``; ``Cache`` does the same for
/// code that does not write reducers. Lookup by key is one hash, whatever the
/// size.
public struct CacheState<Key: Hashable, Value: Equatable, Failure: Equatable> {
    @usableFromInline var _book = CacheBook<Key, Loadable<Value, Failure>>(placeholder: Loadable())

    /// An empty cache.
    @inlinable
    public init() {}

    /// A cache holding `entries` in the order given, each with the users
    /// `users` gives its key: the testing library's expected value
    /// (`CacheState(expecting:users:)`). Keys without users are unused, and
    /// evicted first to last in that order; a key given twice keeps its
    /// first place and its last loadable.
    package init(_ entries: some Sequence<(Key, Loadable<Value, Failure>)>, users: (Key) -> Int) {
        for (key, loadable) in entries {
            let position = _book.insert(key, capacity: .max) { loadable }.position
            _book._entries[position] = loadable
            let count = users(key)
            if count > 0, _book._users[position] == 0 { _book.addUsers(count, at: position) }
        }
    }

    /// The loadable cached for `key`, or `nil` if nothing is cached for it.
    @inlinable
    public subscript(key: Key) -> Loadable<Value, Failure>? {
        guard let position = _book.position(of: key) else { return nil }
        return _book._entries[position]
    }

    /// How many users `key`'s entry has; 0 if it is not cached.
    public func users(of key: Key) -> Int { _book.users(of: key) ?? 0 }

    /// The cached keys, in no particular order.
    public var keys: [Key] { _book.keys }

    /// How many keys are cached.
    @inlinable
    public var count: Int { _book.count }

    /// Changes `key`'s loadable in place, if it is cached, and returns what
    /// `body` returns — an effect, say, to start an edit of one entry:
    ///
    /// ```swift
    /// return state.users.update(7) {
    ///     $0.edit(
    ///         { Action.users(.entry(7, $0)) }, Rename(to: name),
    ///         LoadRequest { () async throws(APIError) in try await api.rename(7, name) })
    /// } ?? .none
    /// ```
    @inlinable
    public mutating func update<Result>(_ key: Key, _ body: (inout Loadable<Value, Failure>) -> Result) -> Result? {
        guard let position = _book.position(of: key) else { return nil }
        return body(&_book._entries[position])
    }

    /// The cached keys with their loadables, in position order.
    var entries: [(key: Key, loadable: Loadable<Value, Failure>, users: Int)] {
        _book.cachedPositions.map { ($0.key, _book._entries[$0.position], _book._users[$0.position]) }
    }
}

extension CacheState: Equatable {
    /// Equal when both cache the same keys with equal loadables and users,
    /// whatever their positions, and would evict their unused keys in the
    /// same order.
    public static func == (lhs: CacheState, rhs: CacheState) -> Bool {
        guard lhs.count == rhs.count, lhs._book.evictionOrder == rhs._book.evictionOrder else { return false }
        return lhs.entries.allSatisfy { rhs[$0.key] == $0.loadable && rhs.users(of: $0.key) == $0.users }
    }
}

extension CacheState: Sendable where Key: Sendable, Value: Sendable, Failure: Sendable {}

extension CacheState: CustomStringConvertible {
    /// One line per entry, sorted by description: `7: success(value: "Lee") · 2 users`.
    public var description: String {
        let lines = entries.map { key, loadable, users in "\(key): \(loadable) · \(users) user\(users == 1 ? "" : "s")" }
        return lines.isEmpty ? "empty" : lines.sorted().joined(separator: "; ")
    }
}

extension CacheState: CustomReflectable {
    /// The entries as key–value pairs, as a dictionary's, each with its
    /// users; dumps sort them by key.
    public var customMirror: Mirror {
        Mirror(
            self, children: entries.map { (label: nil, value: ($0.key, CacheEntryDump(loadable: $0.loadable, users: $0.users)) as Any) },
            displayStyle: .dictionary)
    }
}

/// How a dump shows one cache entry.
struct CacheEntryDump<Value: Equatable, Failure: Equatable> {
    let loadable: Loadable<Value, Failure>
    let users: Int
}
