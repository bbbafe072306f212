import Observation

/// The rows of one ``KeyedStates`` that readers read one by one: after an
/// action it finds the row that changed from the collection's
/// `ChangeJournal` — one lookup however many rows have readers — and
/// compares every read row only when the journal cannot say (many rows
/// changed, or the collection was replaced or copied and changed apart).
@usableFromInline
final class KeyedRowsPart<State, Action, Key: Hashable, Row>: StorePart<State, Action> {
    @usableFromInline let _path: WritableKeyPath<State, KeyedStates<Key, Row>>
    /// The collection as a path from the store, which each row's path extends.
    @usableFromInline let _key: KeyPath<Store<State, Action>, KeyedStates<Key, Row>>
    /// Whether two reads of a row are the same; `nil` when rows are not
    /// `Equatable`, and then a row the journal names has changed.
    @usableFromInline let _isSame: ((Row?, Row?) -> Bool)?
    /// The rows read since they last changed, with what was read.
    @exclusivity(unchecked) @usableFromInline var _readers: [Key: Reader] = [:]
    /// The journal of the collection as last compared, held weakly so that
    /// the collection stays the journal's only owner (and records in place).
    @exclusivity(unchecked) @usableFromInline weak var _journal: ChangeJournal<Key>?
    /// The journal's stamp when last compared.
    @exclusivity(unchecked) @usableFromInline var _seenStamp: UInt64 = 0

    @usableFromInline
    struct Reader {
        @usableFromInline let _key: KeyPath<Store<State, Action>, Row?>
        @usableFromInline let _seen: Row?

        @inlinable
        init(key: KeyPath<Store<State, Action>, Row?>, read: Row?) {
            self._key = key
            self._seen = read
        }
    }

    @inlinable
    init(
        path: WritableKeyPath<State, KeyedStates<Key, Row>>,
        key: KeyPath<Store<State, Action>, KeyedStates<Key, Row>>,
        isSame: ((Row?, Row?) -> Bool)?
    ) {
        self._path = path
        self._key = key
        self._isSame = isSame
        super.init(
            announceChanges: { part, store, state in
                unsafeDowncast(part, to: KeyedRowsPart.self).announceChanges(in: state, on: store)
            },
            registerCurrentValue: { _, _ in })
    }

    /// Registers a reader of the row for `key` and returns the row.
    @inlinable
    func register(_ key: Key, on store: Store<State, Action>) -> Row? {
        if store._currentState[keyPath: _path]._changes == nil {
            // Only collections with readers of rows record their changes.
            store._currentState[keyPath: _path].startJournal()
        }
        let rows = store._currentState[keyPath: _path]
        if !_isListed {
            _journal = rows._changes
            _seenStamp = rows._changes?._stamp ?? 0
        }
        store._list(self)
        let row = rows[key]
        let reader: Reader
        if let registered = _readers[key] {
            reader = registered
        } else {
            reader = Reader(key: _key.appending(path: \KeyedStates<Key, Row>.[key]), read: row)
            _readers[key] = reader
            _hasReaders = true
        }
        store._registrar.access(store, keyPath: reader._key)
        return row
    }

    @inlinable
    func announceChanges(in state: UnsafePointer<State>, on store: Store<State, Action>) -> Bool {
        let rows = state.pointee[keyPath: _path]
        let journal = rows._changes
        if let journal, let seen = _journal {
            if journal === seen, journal._stamp == _seenStamp { return false }
            // One change on from what was seen: in the same journal, or in
            // the first of a copy's journal, taken from the one seen.
            // A copy's journal must also have been taken at the stamp seen:
            // the origin may have changed since, apart from the copy, and
            // stamps alone could line up (found in review).
            let isNext =
                journal === seen
                || (journal._origin === seen && journal._originStamp == _seenStamp && journal._stamp == _seenStamp &+ 1)
            if isNext, journal._stampBefore == _seenStamp, let key = journal._changedKey {
                _journal = journal
                _seenStamp = journal._stamp
                return announceChange(of: key, in: rows, on: store)
            }
        }
        if journal == nil {
            // A new collection, which has no journal yet: start one, so that
            // its next change is found by it. Not a change of the value.
            store._currentState[keyPath: _path].startJournal()
        }
        _journal = store._currentState[keyPath: _path]._changes
        _seenStamp = _journal?._stamp ?? 0
        var anyChanged = false
        for key in Array(_readers.keys) where announceChange(of: key, in: rows, on: store) {
            anyChanged = true
        }
        return anyChanged
    }

    @inlinable
    override func announceAll(on store: Store<State, Action>) {
        let readers = _readers
        _readers = [:]
        _hasReaders = false
        for reader in readers.values {
            store._registrar.willSet(store, keyPath: reader._key)
            store._registrar.didSet(store, keyPath: reader._key)
        }
    }

    @inlinable
    func announceChange(of key: Key, in rows: KeyedStates<Key, Row>, on store: Store<State, Action>) -> Bool {
        guard let reader = _readers[key] else { return false }
        if let isSame = _isSame, isSame(reader._seen, rows[key]) { return false }
        _readers[key] = nil
        _hasReaders = !_readers.isEmpty
        store._registrar.willSet(store, keyPath: reader._key)
        store._registrar.didSet(store, keyPath: reader._key)
        return true
    }
}
