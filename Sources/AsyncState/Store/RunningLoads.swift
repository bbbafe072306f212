/// A load the store has scheduled and not yet ended: the token of its effect,
/// and whether it cancels the work of the load it supersedes.
@usableFromInline
struct RunningLoad: Equatable {
    @usableFromInline let _token: Int
    @usableFromInline let _cancelsEarlier: Bool

    @inlinable
    init(token: Int, cancelsEarlier: Bool) {
        self._token = token
        self._cancelsEarlier = cancelsEarlier
    }
}

/// The store's running loads, by ID.
///
/// The newest load has a slot of its own and the others live in a
/// dictionary, so a store with one load at a time — the everyday case, and
/// every load whose operation answers at once — hashes nothing: a
/// `Dictionary` insert and removal per load, each a SipHash of the ID, were
/// about 5% of a load that answers at once. A newly scheduled load takes the
/// slot, and the one it displaces moves to the dictionary; a store never
/// reuses an ID, so an ID is never in both.
@usableFromInline
struct RunningLoads {
    @usableFromInline var _newestID: LoadID?
    /// The newest load; meaningful only while `_newestID` is set.
    @usableFromInline var _newest = RunningLoad(token: 0, cancelsEarlier: false)
    @usableFromInline var _older: [LoadID: RunningLoad] = [:]

    @inlinable
    init() {}

    /// Whether no load is running.
    @inlinable
    var isEmpty: Bool { _newestID == nil && _older.isEmpty }

    /// How many loads are running.
    @inlinable
    var count: Int { (_newestID == nil ? 0 : 1) + _older.count }

    /// The running load `id`, or `nil`.
    @inlinable
    subscript(id: LoadID) -> RunningLoad? {
        if id == _newestID { return _newest }
        return _older.isEmpty ? nil : _older[id]
    }

    /// Enters load `id`, which is not running (a store never reuses an ID).
    @inlinable
    mutating func insert(_ load: RunningLoad, forKey id: LoadID) {
        if let newestID = _newestID { _older[newestID] = _newest }
        _newestID = id
        _newest = load
    }

    /// Removes load `id` and returns it, or `nil` if it is not running.
    @inlinable
    mutating func removeValue(forKey id: LoadID) -> RunningLoad? {
        if id == _newestID {
            _newestID = nil
            return _newest
        }
        return _older.isEmpty ? nil : _older.removeValue(forKey: id)
    }
}
