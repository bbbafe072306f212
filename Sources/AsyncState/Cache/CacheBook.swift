/// The bookkeeping of a shared keyed cache, whatever its entries are: where
/// each key's entry lives, how many users it has, and which unused entries to
/// collect or evict first. ``CacheState`` keeps ``Loadable``s in one for a
/// reducer; ``Cache`` keeps ``AsyncValue``s in one. So the rules of a cache —
/// an entry lives while it is used, an unused one is collected after a while
/// or evicted over capacity, the one unused the longest first, and one with an
/// edit in flight kept until the edit settles — are written once, here.
///
/// Each cached key has a position, found through a `KeyIndex` — one
/// multiply-and-shift hash for integer keys and, on average, about one probe,
/// where a `Dictionary` runs SipHash. A removed key's position is freed for
/// the next new key instead of moving the keys after it, so removal is O(1)
/// and a key keeps its position while it is cached.
@usableFromInline
struct CacheBook<Key: Hashable, Entry: CacheEntry> {
    /// The key at each position; a free position keeps the key it last held
    /// until reused, and nothing reads it. So a collected key stays alive
    /// until a new key takes its position: harmless for the integers and
    /// strings keys usually are.
    @usableFromInline var _keys: [Key] = []
    /// The entry at each position; the placeholder at a free one, so a
    /// removed entry is released at once. Not optional, so a hit reads the
    /// entry with no unwrap.
    @usableFromInline var _entries: [Entry] = []
    /// How many users each position's entry has.
    @usableFromInline var _users: [Int] = []
    /// Set while an entry is unused: it matches the collection timer and the
    /// eviction mark of this idle spell, so a stale timer or mark is ignored.
    @usableFromInline var _idleTokens: [UInt64?] = []
    @usableFromInline var _isCached: [Bool] = []
    /// Each cached key's position.
    @usableFromInline var _index = KeyIndex()
    /// Free positions, the most recently freed last.
    @usableFromInline var _free: [Int] = []
    /// Unused entries, oldest first, for eviction. A mark whose token no
    /// longer matches its entry (used again, or gone) is skipped.
    @usableFromInline var _idle: [IdleMark] = []
    @usableFromInline var _idleHead = 0
    @usableFromInline var _nextToken: UInt64 = 0
    /// What a free position holds.
    @usableFromInline let _placeholder: Entry

    @usableFromInline
    struct IdleMark: Equatable {
        @usableFromInline let _key: Key
        @usableFromInline let _token: UInt64
    }

    /// What one user leaving a key did.
    @usableFromInline
    enum Departure: Equatable {
        /// Others still use the entry.
        case stillUsed
        /// It was the last user: the entry is idle in the spell `token`.
        case idle(token: UInt64)
    }

    @inlinable
    init(placeholder: Entry) {
        _placeholder = placeholder
    }

    /// The position of `key`, or `nil` if nothing is cached for it.
    @inlinable
    func position(of key: Key) -> Int? {
        _index.position(of: key, in: _keys)
    }

    /// How many keys are cached.
    @inlinable
    var count: Int { _keys.count - _free.count }

    /// The cached keys, in position order.
    var keys: [Key] { _keys.indices.filter { _isCached[$0] }.map { _keys[$0] } }

    /// The users of `key`'s entry, or `nil` if it is not cached.
    func users(of key: Key) -> Int? { position(of: key).map { _users[$0] } }

    /// The idle spell of `key`'s entry, if it is cached and unused.
    func idleToken(of key: Key) -> UInt64? { position(of: key).flatMap { _idleTokens[$0] } }

    /// Makes sure `key` has an entry, made with `make` if it has none, and
    /// returns its position and whether it is new. A new entry has no user:
    /// it is idle — collected in time unless someone uses it — and, over
    /// `capacity`, the entries unused the longest are evicted to make room.
    mutating func insert(_ key: Key, capacity: Int, make: () -> Entry) -> (position: Int, isNew: Bool, evicted: [Entry]) {
        if let position = position(of: key) { return (position, false, []) }
        let position: Int
        if let free = _free.popLast() {
            position = free
            _keys[position] = key
            _entries[position] = make()
            _users[position] = 0
            _isCached[position] = true
        } else {
            position = _keys.count
            _keys.append(key)
            _entries.append(make())
            _users.append(0)
            _idleTokens.append(nil)
            _isCached.append(true)
        }
        _index.insert(key, at: position, in: _keys, count: count)
        markIdle(key, at: position)
        // Evicting the new entry itself would make room for nothing.
        let evicted = evict(toFit: capacity, sparing: key)
        return (position, true, evicted)
    }

    /// Adds a user to `key`'s entry, which is cached; it is no longer idle.
    mutating func addUser(at position: Int) {
        addUsers(1, at: position)
    }

    /// Adds `count` users, at least one, to the entry at `position`, which
    /// is cached; it is no longer idle.
    mutating func addUsers(_ count: Int, at position: Int) {
        _users[position] += count
        _idleTokens[position] = nil
    }

    /// Removes a user from `key`'s entry; `nil` if it had none.
    mutating func removeUser(_ key: Key) -> Departure? {
        guard let position = position(of: key), _users[position] > 0 else { return nil }
        _users[position] -= 1
        guard _users[position] == 0 else { return .stillUsed }
        return .idle(token: markIdle(key, at: position))
    }

    /// Starts an idle spell for the entry at `position` and returns its token.
    @discardableResult
    private mutating func markIdle(_ key: Key, at position: Int) -> UInt64 {
        let token = _nextToken
        _nextToken &+= 1
        _idleTokens[position] = token
        _idle.append(IdleMark(_key: key, _token: token))
        compactIdle()
        return token
    }

    /// Removes `key`'s entry if it is still in the idle spell `token`, and
    /// returns it — unless an edit of it is in flight: that edit uses the
    /// entry, so its write lands where the key's next user looks. The entry
    /// then stays, out of its idle spell, until the edit settles
    /// (`editsSettled(_:capacity:collectAfter:)`).
    mutating func collect(_ key: Key, token: UInt64) -> Entry? {
        guard let position = position(of: key), _idleTokens[position] == token else { return nil }
        guard !_entries[position].hasPendingEdits else {
            _idleTokens[position] = nil
            return nil
        }
        return remove(at: position)
    }

    /// Removes the entry at `position` and returns it.
    private mutating func remove(at position: Int) -> Entry {
        let entry = _entries[position]
        _ = _index.remove(_keys[position], in: _keys)
        _entries[position] = _placeholder
        _users[position] = 0
        _idleTokens[position] = nil
        _isCached[position] = false
        _free.append(position)
        return entry
    }

    /// Removes unused entries, longest unused first, until at most `capacity`
    /// remain or every remaining entry is in use (or is `sparing`); an entry
    /// with an edit in flight is in use (`collect(_:token:)`).
    /// - Returns: the removed entries, so their loads can be cancelled.
    mutating func evict(toFit capacity: Int, sparing spared: Key? = nil) -> [Entry] {
        var evicted: [Entry] = []
        while count > capacity, _idleHead < _idle.count {
            let mark = _idle[_idleHead]
            // The spared entry's mark is the newest: every older one is gone.
            if mark._key == spared, idleToken(of: mark._key) == mark._token { break }
            _idleHead += 1
            if let entry = collect(mark._key, token: mark._token) { evicted.append(entry) }
        }
        compactIdle()
        return evicted
    }

    /// Drops consumed and stale marks once they outnumber the live ones, so
    /// the queue stays proportional to the cache: amortized O(1) per mark.
    private mutating func compactIdle() {
        guard _idle.count > 64, _idle.count > 2 * count + _idleHead || _idleHead * 2 > _idle.count else { return }
        let book = self
        _idle = _idle[_idleHead...].filter { book.idleToken(of: $0._key) == $0._token }
        _idleHead = 0
    }

    /// The unused keys, in the order they would be evicted: the live marks
    /// of the idle queue, without the consumed and stale ones.
    var evictionOrder: [Key] {
        _idle[_idleHead...].filter { idleToken(of: $0._key) == $0._token }.map(\._key)
    }

    /// The cached keys with their positions, in position order.
    var cachedPositions: [(key: Key, position: Int)] {
        _keys.indices.compactMap { _isCached[$0] ? (_keys[$0], $0) : nil }
    }
}

extension CacheBook: Sendable where Key: Sendable, Entry: Sendable {}

/// What a cache's bookkeeping asks of an entry.
@usableFromInline
protocol CacheEntry {
    /// Whether an edit of the entry is in flight, which keeps the entry in
    /// the cache as a user does.
    var hasPendingEdits: Bool { get }
}

extension Loadable: CacheEntry {
    @usableFromInline
    var hasPendingEdits: Bool { newestPendingEdit != nil }
}

extension Optional: CacheEntry where Wrapped: CacheEntry {
    @usableFromInline
    var hasPendingEdits: Bool { self?.hasPendingEdits ?? false }
}
extension CacheBook.IdleMark: Sendable where Key: Sendable {}

/// What a cache does after a change to its book — the same for a reducer
/// (``CacheReducer``, which returns effects) and for ``Cache`` (which runs
/// tasks): so the rules stay in the book and each host only carries them out.
@usableFromInline
enum CacheCommand<Key, Entry> {
    /// Load `key` if its entry needs it — missing or stale for `staleAfter` —
    /// or join its load in flight.
    case loadIfNeeded(Key)
    /// Load `key` now, superseding a load in flight: it was invalidated.
    case reload(Key)
    /// Collect `key` once `collectAfter` passes in the idle spell `token`.
    case startTimer(Key, token: UInt64)
    /// Stop `key`'s collection timer: it is used again.
    case cancelTimer(Key)
    /// `entry` left the cache: stop its loads.
    case release(Entry)
}

extension CacheBook {
    /// A user starts using `key`: its entry is made if needed and loads if it
    /// needs to; entries unused the longest make room over `capacity`.
    mutating func subscribe(_ key: Key, capacity: Int, make: () -> Entry) -> [CacheCommand<Key, Entry>] {
        let (position, _, evicted) = insert(key, capacity: capacity, make: make)
        addUser(at: position)
        return [.cancelTimer(key), .loadIfNeeded(key)] + evicted.map { .release($0) }
    }

    /// `key` is loaded ahead of its first user: its entry is made if needed,
    /// with no user, and collected `collectAfter` from now unless someone
    /// uses it — an entry already idle starts its idle spell anew, last in
    /// the order of eviction.
    ///
    /// With a `collectAfter` of zero or less there is nothing to keep it for:
    /// a key not cached is left alone — not made, loaded or evicted for.
    mutating func prefetch(_ key: Key, capacity: Int, collectAfter: Duration, make: () -> Entry) -> [CacheCommand<Key, Entry>] {
        guard collectAfter > .zero || position(of: key) != nil else { return [] }
        let (position, isNew, evicted) = insert(key, capacity: capacity, make: make)
        var commands: [CacheCommand<Key, Entry>] = [.loadIfNeeded(key)] + evicted.map { .release($0) }
        guard _users[position] == 0 else { return commands }
        let token = isNew ? idleToken(of: key) : markIdle(key, at: position)
        if let token { commands += idle(key, token: token, collectAfter: collectAfter) }
        return commands
    }

    /// A user stops using `key`; `nil` if it had no user. The last user to
    /// leave starts the entry's idle spell: collected at once without a
    /// `collectAfter`, else when it passes, or sooner to make room.
    mutating func unsubscribe(_ key: Key, capacity: Int, collectAfter: Duration) -> [CacheCommand<Key, Entry>]? {
        guard let departure = removeUser(key) else { return nil }
        guard case .idle(let token) = departure else { return [] }
        return becameUnused(key, token: token, capacity: capacity, collectAfter: collectAfter)
    }

    /// An edit of `key`'s entry settled. If it was the last edit in flight
    /// on an entry with no user — one that collection or eviction kept for
    /// it — the entry's idle spell begins, as when a last user leaves.
    mutating func editsSettled(_ key: Key, capacity: Int, collectAfter: Duration) -> [CacheCommand<Key, Entry>] {
        // No user and no idle spell: only an edit kept it (`collect(_:token:)`).
        guard let position = position(of: key), _users[position] == 0, _idleTokens[position] == nil,
            !_entries[position].hasPendingEdits
        else { return [] }
        let token = markIdle(key, at: position)
        // Collection or eviction was due when the edit kept it: over
        // capacity, it goes now, ahead of the entries idle since.
        if count > capacity, let entry = collect(key, token: token) {
            return [.release(entry)] + evict(toFit: capacity).map { .release($0) }
        }
        return becameUnused(key, token: token, capacity: capacity, collectAfter: collectAfter)
    }

    /// `key`'s entry began the idle spell `token`: over capacity, the entries
    /// unused the longest go first — maybe this one — and it is collected
    /// as `idle(_:token:collectAfter:)` says.
    private mutating func becameUnused(_ key: Key, token: UInt64, capacity: Int, collectAfter: Duration) -> [CacheCommand<Key, Entry>] {
        let evicted = evict(toFit: capacity).map { CacheCommand<Key, Entry>.release($0) }
        return evicted + idle(key, token: token, collectAfter: collectAfter)
    }

    /// The idle spell `token` of `key` began.
    private mutating func idle(_ key: Key, token: UInt64, collectAfter: Duration) -> [CacheCommand<Key, Entry>] {
        guard idleToken(of: key) == token else { return [] }
        guard collectAfter > .zero else { return collect(key, token: token).map { [.release($0)] } ?? [] }
        return [.startTimer(key, token: token)]
    }

    /// `key` was invalidated: reloaded now if it is in use.
    func invalidated(_ key: Key) -> [CacheCommand<Key, Entry>] {
        (users(of: key) ?? 0) > 0 ? [.reload(key)] : []
    }

    /// A refetch trigger: every entry in use loads if it needs to.
    func refetchStale() -> [CacheCommand<Key, Entry>] {
        cachedPositions.compactMap { _users[$0.position] > 0 ? .loadIfNeeded($0.key) : nil }
    }
}
