/// A load the store has scheduled and not yet ended: the token of its effect,
/// and whether it cancels the work of the load it supersedes.
@usableFromInline
struct RunningLoad: Equatable {
    @usableFromInline let _token: Int
    @usableFromInline let _cancelsEarlier: Bool
    /// The load waits in a queue (`OverlapPolicy.queue`): its token is the
    /// queued run's, and its work has not started.
    @usableFromInline let _isQueued: Bool

    @inlinable
    init(token: Int, cancelsEarlier: Bool, isQueued: Bool = false) {
        self._token = token
        self._cancelsEarlier = cancelsEarlier
        self._isQueued = isQueued
    }
}

/// Loads by ID, the newest in a slot of its own and the others in a
/// dictionary: the store's running loads, and the loads an ``AsyncValue``'s
/// callers wait for.
///
/// A table with one load at a time — the everyday case, and every load whose
/// operation answers at once — hashes nothing: a `Dictionary` insert and
/// removal per load, each a SipHash of the ID, were about 5% of a store's load
/// that answers at once. A newly entered load takes the slot, and the one it
/// displaces moves to the dictionary; IDs are never reused, so an ID is never
/// in both.
@usableFromInline
struct LoadTable<Element> {
    @usableFromInline var _newest: (id: LoadID, element: Element)?
    @usableFromInline var _older: [LoadID: Element] = [:]

    @inlinable
    init() {}

    /// Whether the table holds no load.
    @inlinable
    var isEmpty: Bool { _newest == nil && _older.isEmpty }

    /// How many loads the table holds.
    @inlinable
    var count: Int { (_newest == nil ? 0 : 1) + _older.count }

    /// The IDs of the loads the table holds, in no particular order.
    var ids: [LoadID] { (_newest.map { [$0.id] } ?? []) + _older.keys }

    /// The element of load `id`, or `nil`.
    @inlinable
    subscript(id: LoadID) -> Element? {
        if let newest = _newest, newest.id == id { return newest.element }
        return _older.isEmpty ? nil : _older[id]
    }

    /// Enters load `id`, which is not in the table (IDs are never reused).
    @inlinable
    mutating func insert(_ element: Element, forKey id: LoadID) {
        if let newest = _newest { _older[newest.id] = newest.element }
        _newest = (id, element)
    }

    /// Removes load `id` and returns its element, or `nil` if it is not in the table.
    @inlinable
    mutating func removeValue(forKey id: LoadID) -> Element? {
        if let newest = _newest, newest.id == id {
            _newest = nil
            return newest.element
        }
        return _older.isEmpty ? nil : _older.removeValue(forKey: id)
    }
}
