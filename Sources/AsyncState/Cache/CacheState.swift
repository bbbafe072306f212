/// The state of a shared keyed cache: one ``FreshLoadable`` per key, how many
/// users each has, and which unused entries to collect or evict first.
///
/// A plain value, evolved by ``CacheReducer``; ``Cache`` wraps both for code
/// that does not write reducers. Lookup by key is one hash, whatever the size.
public struct CacheState<Key: Hashable, Value: Equatable, Failure: Equatable, Instant: InstantProtocol>: Equatable {
    /// One key's cached value and its users.
    public struct Entry: Equatable {
        /// The value, its load in flight, its settle time and invalidation.
        public internal(set) var fresh: FreshLoadable<Value, Failure, Instant>
        /// How many subscribers use this entry now.
        public internal(set) var users: Int
        /// Set while unused: matches the collection timer and the eviction
        /// queue mark of this idle spell, so a stale timer or mark is ignored.
        @usableFromInline var _idleToken: UInt64?

        init() {
            fresh = FreshLoadable()
            users = 0
            _idleToken = nil
        }
    }

    @usableFromInline
    struct IdleMark: Equatable {
        @usableFromInline let _key: Key
        @usableFromInline let _token: UInt64
    }

    @usableFromInline var _entries: [Key: Entry] = [:]
    /// Unused entries, oldest first, for eviction. A mark whose token no
    /// longer matches its entry (used again, or gone) is skipped; see `compactIdle`.
    @usableFromInline var _idle: [IdleMark] = []
    @usableFromInline var _idleHead = 0
    @usableFromInline var _nextToken: UInt64 = 0

    /// An empty cache.
    @inlinable
    public init() {}

    /// The entry for `key`, or `nil` if nothing is cached for it.
    @inlinable
    public subscript(key: Key) -> Entry? { _entries[key] }

    /// The loadable for `key`, or `nil` if nothing is cached for it.
    @inlinable
    public func loadable(for key: Key) -> Loadable<Value, Failure>? {
        _entries[key]?.fresh._loadable
    }

    /// The cached keys, in no particular order.
    public var keys: some Collection<Key> { _entries.keys }

    /// How many keys are cached.
    @inlinable
    public var count: Int { _entries.count }

    // MARK: Bookkeeping for the reducer
    // Not inlinable: only the reducer calls these, not the hot read path.

    /// Adds a user to `key`'s entry, creating it if needed.
    /// - Returns: whether the entry was new.
    mutating func addUser(_ key: Key) -> Bool {
        let isNew = _entries[key] == nil
        _entries[key, default: Entry()].users += 1
        _entries[key]?._idleToken = nil
        return isNew
    }

    /// Removes a user from `key`'s entry; when it was the last, marks the
    /// entry idle and returns its token. `nil` if the key had no user.
    mutating func removeUser(_ key: Key) -> (isIdle: Bool, token: UInt64)? {
        guard let users = _entries[key]?.users, users > 0 else { return nil }
        _entries[key]?.users = users - 1
        guard users == 1 else { return (false, 0) }
        let token = _nextToken
        _nextToken &+= 1
        _entries[key]?._idleToken = token
        _idle.append(IdleMark(_key: key, _token: token))
        compactIdle()
        return (true, token)
    }

    /// Removes `key`'s entry if it is still in the idle spell `token`.
    /// - Returns: the removed entry.
    mutating func collect(_ key: Key, token: UInt64) -> Entry? {
        guard let entry = _entries[key], entry._idleToken == token else { return nil }
        _entries[key] = nil
        return entry
    }

    /// Removes unused entries, longest unused first, until at most `capacity`
    /// remain or every remaining entry is in use.
    /// - Returns: the removed entries, so their loads can be cancelled.
    mutating func evict(toFit capacity: Int) -> [Entry] {
        var evicted: [Entry] = []
        while _entries.count > capacity, _idleHead < _idle.count {
            let mark = _idle[_idleHead]
            _idleHead += 1
            if let entry = collect(mark._key, token: mark._token) { evicted.append(entry) }
        }
        compactIdle()
        return evicted
    }

    /// Drops consumed and stale marks once they outnumber the live ones, so
    /// the queue stays proportional to the cache: amortized O(1) per mark.
    mutating func compactIdle() {
        guard _idle.count > 64, _idle.count > 2 * _entries.count + _idleHead || _idleHead * 2 > _idle.count else { return }
        let entries = _entries
        _idle = _idle[_idleHead...].filter { entries[$0._key]?._idleToken == $0._token }
        _idleHead = 0
    }

    /// Changes `key`'s freshness in place, if it is cached.
    mutating func update<Result>(_ key: Key, _ body: (inout FreshLoadable<Value, Failure, Instant>, Int) -> Result) -> Result? {
        // Through the values view by index: mutated in place, with no copy
        // of the entry and no second hash.
        guard let index = _entries.index(forKey: key) else { return nil }
        let users = _entries.values[index].users
        return body(&_entries.values[index].fresh, users)
    }
}

extension CacheState: Sendable where Key: Sendable, Value: Sendable, Failure: Sendable, Instant: Sendable {}
extension CacheState.Entry: Sendable where Key: Sendable, Value: Sendable, Failure: Sendable, Instant: Sendable {}
extension CacheState.IdleMark: Sendable where Key: Sendable {}

extension CacheState: CustomStringConvertible {
    /// One line per entry, sorted by description: `7: success(value: "Lee") · 2 users`.
    public var description: String {
        let lines = _entries.map { key, entry in
            "\(key): \(entry.fresh) · \(entry.users) user\(entry.users == 1 ? "" : "s")"
        }
        return lines.isEmpty ? "empty" : lines.sorted().joined(separator: "; ")
    }
}

extension CacheState.Entry: CustomReflectable {
    /// The public fields, for dumps and snapshots.
    public var customMirror: Mirror {
        Mirror(self, children: ["fresh": fresh as Any, "users": users as Any], displayStyle: .struct)
    }
}

extension CacheState: CustomReflectable {
    /// The entries as key–value pairs, as a dictionary's; dumps sort them by key.
    public var customMirror: Mirror {
        Mirror(self, children: _entries.map { (label: nil, value: ($0.key, $0.value) as Any) }, displayStyle: .dictionary)
    }
}
