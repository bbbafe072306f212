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
        /// `false` only for the placeholder at a free position.
        @usableFromInline var _isCached: Bool

        init() {
            fresh = FreshLoadable()
            users = 0
            _idleToken = nil
            _isCached = true
        }

        /// What a free position holds: no value, so a removed entry's value
        /// is released at once.
        static var free: Entry {
            var entry = Entry()
            entry._isCached = false
            return entry
        }
    }

    @usableFromInline
    struct IdleMark: Equatable {
        @usableFromInline let _key: Key
        @usableFromInline let _token: UInt64
    }

    // Storage: each cached key has a position in `_keys` and `_values`, found
    // through `_index` — one multiply-and-shift hash for integer keys and,
    // on average, about one probe, where a `Dictionary` runs SipHash. A hit
    // then reads the `Loadable` in place, without copying the entry out.
    // A removed key's position is freed for the next new key instead of
    // moving the keys after it, so removal is O(1) and a key keeps its
    // position while it is cached, which lets ``Cache`` observe each key on
    // its own (see `_changes`).

    /// The key at each position; a free position keeps the key it last held
    /// until reused, and nothing reads it. So a collected key's value stays
    /// alive until a new key takes its position: harmless for the integers
    /// and strings keys usually are; a key that owns much should not be one.
    /// An optional key would free it, at the price of an unwrap on every hit.
    @usableFromInline var _keys: [Key] = []
    /// The entry at each position; ``Entry/free`` at a free one. Not
    /// optional, so a hit reads the loadable with no unwrap: with one, the
    /// optimizer copied the whole loadable out of the array.
    @usableFromInline var _values: [Entry] = []
    /// Each cached key's position.
    @usableFromInline var _index = KeyIndex()
    /// Free positions, the most recently freed last.
    @usableFromInline var _free: [Int] = []
    /// Unused entries, oldest first, for eviction. A mark whose token no
    /// longer matches its entry (used again, or gone) is skipped; see `compactIdle`.
    @usableFromInline var _idle: [IdleMark] = []
    @usableFromInline var _idleHead = 0
    @usableFromInline var _nextToken: UInt64 = 0
    /// What the action being reduced changed, for ``Cache`` to tell only the
    /// observers of those keys; `nil`, and not kept, in any other store.
    @usableFromInline var _changes: CacheChanges?

    /// An empty cache.
    @inlinable
    public init() {}

    /// The position of `key`, or `nil` if nothing is cached for it.
    @inlinable
    func position(of key: Key) -> Int? {
        _index.position(of: key, in: _keys)
    }

    /// The entry for `key`, or `nil` if nothing is cached for it.
    @inlinable
    public subscript(key: Key) -> Entry? {
        guard let position = position(of: key) else { return nil }
        return _values[position]
    }

    /// The loadable for `key`, or `nil` if nothing is cached for it.
    @inlinable
    public func loadable(for key: Key) -> Loadable<Value, Failure>? {
        guard let position = position(of: key) else { return nil }
        return _values[position].fresh._loadable
    }

    /// The cached keys, in no particular order.
    public var keys: some Collection<Key> { _values.indices.filter { _values[$0]._isCached }.map { _keys[$0] } }

    /// How many keys are cached.
    @inlinable
    public var count: Int { _keys.count - _free.count }

    // MARK: Bookkeeping for the reducer
    // Not inlinable: only the reducer calls these, not the hot read path.

    /// Starts recording what the next action changes, if this state records.
    mutating func beginChanges() {
        guard _changes != nil else { return }
        _changes?._positions.removeAll(keepingCapacity: true)
        _changes?._addedKey = false
    }

    /// Adds a user to `key`'s entry, creating it if needed.
    /// - Returns: whether the entry was new.
    mutating func addUser(_ key: Key) -> Bool {
        if let position = position(of: key) {
            _values[position].users += 1
            _values[position]._idleToken = nil
            return false
        }
        var entry = Entry()
        entry.users = 1
        let position: Int
        if let free = _free.popLast() {
            position = free
            _keys[position] = key
            _values[position] = entry
        } else {
            position = _keys.count
            _keys.append(key)
            _values.append(entry)
        }
        _index.insert(key, at: position, in: _keys, count: count)
        _changes?._positions.append(position)
        _changes?._addedKey = true
        return true
    }

    /// Removes a user from `key`'s entry; when it was the last, marks the
    /// entry idle and returns its token. `nil` if the key had no user.
    mutating func removeUser(_ key: Key) -> (isIdle: Bool, token: UInt64)? {
        guard let position = position(of: key), _values[position].users > 0 else { return nil }
        let users = _values[position].users
        _values[position].users = users - 1
        guard users == 1 else { return (false, 0) }
        let token = _nextToken
        _nextToken &+= 1
        _values[position]._idleToken = token
        _idle.append(IdleMark(_key: key, _token: token))
        compactIdle()
        return (true, token)
    }

    /// Removes `key`'s entry if it is still in the idle spell `token`.
    /// - Returns: the removed entry.
    mutating func collect(_ key: Key, token: UInt64) -> Entry? {
        guard let position = position(of: key), _values[position]._idleToken == token else { return nil }
        let entry = _values[position]
        _ = _index.remove(key, in: _keys)
        _values[position] = .free
        _free.append(position)
        _changes?._positions.append(position)
        return entry
    }

    /// Removes unused entries, longest unused first, until at most `capacity`
    /// remain or every remaining entry is in use.
    /// - Returns: the removed entries, so their loads can be cancelled.
    mutating func evict(toFit capacity: Int) -> [Entry] {
        var evicted: [Entry] = []
        while count > capacity, _idleHead < _idle.count {
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
        guard _idle.count > 64, _idle.count > 2 * count + _idleHead || _idleHead * 2 > _idle.count else { return }
        let state = self
        _idle = _idle[_idleHead...].filter { state[$0._key]?._idleToken == $0._token }
        _idleHead = 0
    }

    /// Changes `key`'s freshness in place, if it is cached.
    mutating func update<Result>(_ key: Key, _ body: (inout FreshLoadable<Value, Failure, Instant>, Int) -> Result) -> Result? {
        // In place through the position: no copy of the entry, one lookup.
        guard let position = position(of: key) else { return nil }
        let users = _values[position].users
        _changes?._positions.append(position)
        return body(&_values[position].fresh, users)
    }

    /// The cached keys with their entries, in position order.
    var entries: [(key: Key, entry: Entry)] {
        _values.indices.compactMap { position in _values[position]._isCached ? (_keys[position], _values[position]) : nil }
    }

    /// Equal when both cache the same keys with equal entries, whatever their
    /// positions, and have the same eviction bookkeeping.
    public static func == (lhs: CacheState, rhs: CacheState) -> Bool {
        guard lhs.count == rhs.count, lhs._idle == rhs._idle, lhs._idleHead == rhs._idleHead,
            lhs._nextToken == rhs._nextToken
        else { return false }
        return lhs.entries.allSatisfy { rhs[$0.key] == $0.entry }
    }
}

/// The positions of a ``CacheState`` that one action changed.
@usableFromInline
struct CacheChanges: Sendable {
    /// Positions whose entry changed, was created or was removed.
    @usableFromInline var _positions: [Int] = []
    /// Whether a key was added: readers of a missing key wait for that.
    @usableFromInline var _addedKey = false
}

extension CacheState: Sendable where Key: Sendable, Value: Sendable, Failure: Sendable, Instant: Sendable {}
extension CacheState.Entry: Sendable where Key: Sendable, Value: Sendable, Failure: Sendable, Instant: Sendable {}
extension CacheState.IdleMark: Sendable where Key: Sendable {}

extension CacheState: CustomStringConvertible {
    /// One line per entry, sorted by description: `7: success(value: "Lee") · 2 users`.
    public var description: String {
        let lines = entries.map { key, entry in
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
        Mirror(self, children: entries.map { (label: nil, value: ($0.key, $0.entry) as Any) }, displayStyle: .dictionary)
    }
}
