import Observation

extension Store {
    /// Reads the part of ``state`` at `path` — at any depth — and registers
    /// for changes of that part only: after an action, its readers are told
    /// when it is no longer `==` to what they read.
    ///
    /// ```swift
    /// let name = store[part: \.profile.value?.name]
    /// ```
    @inlinable
    public subscript<Part: Equatable>(part path: KeyPath<State, Part>) -> Part {
        let value = _currentState[keyPath: path]
        _valuePart(path).register(value, on: self)
        return value
    }

    /// Reads the row for `key` of the keyed collection at `path` and
    /// registers for changes of that row only: when an action changes one
    /// row, its readers alone are told, and finding them costs the same
    /// whether one row or thousands have readers.
    ///
    /// ```swift
    /// let row = store[part: \.messages, key: id]
    /// ```
    ///
    /// The store reads `path` after every action while the row has readers,
    /// so `path` must lead to a collection in every state. For a collection
    /// inside an optional or inside another row, which can go away, read the
    /// row as a part through optional chaining, `store[part: \.sheet?.items[id]]`,
    /// which reads `nil` once it is gone: a path through `!` stops the
    /// process at the first action after the optional became `nil`.
    @inlinable
    public subscript<Key, Row: Equatable>(part path: WritableKeyPath<State, KeyedStates<Key, Row>>, key key: Key) -> Row? {
        _rowsPart(path, isSame: { $0 == $1 }).register(key, on: self)
    }

    /// Reads the row for `key` of a keyed collection whose rows are not
    /// `Equatable`: its readers are told whenever an action writes that row.
    @inlinable
    public subscript<Key, Row>(part path: WritableKeyPath<State, KeyedStates<Key, Row>>, key key: Key) -> Row? {
        _rowsPart(path, isSame: nil).register(key, on: self)
    }

    /// Registers a reader of the whole ``state``: as a part compared with
    /// `==` when `State` is `Equatable`, told of every action otherwise.
    @inlinable
    func _registerStateRead() {
        if !_hasLookedUpStatePart {
            _hasLookedUpStatePart = true
            _statePart = _statePartMaker?() ?? _makeStatePart()
        }
        if let part = _statePart {
            part._registerCurrentValue(part, self)
        } else {
            _isPossiblyObserved = true
            _registrar.access(self, keyPath: _stateKey)
        }
    }

    /// The whole state as a part, or `nil` when `State` is not `Equatable`.
    @usableFromInline
    func _makeStatePart() -> StorePart<State, Action>? {
        guard let equatable = State.self as? any Equatable.Type else { return nil }
        func part<Whole: Equatable>(_: Whole.Type) -> StorePart<State, Action>? {
            // `Whole` is `State`, found at run time, so the cast succeeds.
            StatePart<Whole, Action>() as? StorePart<State, Action>
        }
        return part(equatable)
    }

    /// The part at `path`, made on its first read.
    @inlinable
    func _valuePart<Part: Equatable>(_ path: KeyPath<State, Part>) -> ValuePart<State, Action, Part> {
        if let part = _valueParts[path] { return unsafeDowncast(part, to: ValuePart<State, Action, Part>.self) }
        let part = ValuePart<State, Action, Part>(path: path)
        _valueParts[path] = part
        return part
    }

    /// The row readers of the collection at `path`, made on the first read of a row.
    @inlinable
    func _rowsPart<Key, Row>(
        _ path: WritableKeyPath<State, KeyedStates<Key, Row>>, isSame: ((Row?, Row?) -> Bool)?
    ) -> KeyedRowsPart<State, Action, Key, Row> {
        if let part = _rowParts[path] { return unsafeDowncast(part, to: KeyedRowsPart<State, Action, Key, Row>.self) }
        let part = KeyedRowsPart(path: path, key: _stateKeyPath.appending(path: path), isSame: isSame)
        _rowParts[path] = part
        return part
    }

    /// How many parts have readers, so are compared after each action.
    package var listedPartCount: Int { _listedParts.count }

    /// Puts `part` in the list compared after each action.
    @inlinable
    func _list(_ part: StorePart<State, Action>) {
        if part._isListed { return }
        part._isListed = true
        _listedParts.append(part)
    }

    /// Tells the readers of what the last action changed: the readers of each
    /// part that is no longer what they read, and — for a `State` that is not
    /// `Equatable`, which the store cannot compare — every reader of ``state``.
    /// Even after an action marked dropped: a combined reducer marks an
    /// action dropped when any of its parts dropped it, and another part may
    /// have changed the state.
    ///
    /// It runs after the reducer, before the transition observers and the
    /// action's effects: the state is whole when readers are told, and no
    /// code but the reducer ran since it changed. A reader that reads from
    /// its change handler sees the new state and registers anew.
    @inlinable
    @inline(never)
    func announceChanges() {
        if _isPossiblyObserved { announceStateChange() }
        var index = 0
        // One copy of the state for every part, which they read in place:
        // nothing writes the state while readers are told (an action they
        // send is queued), and a reader that reads sees the same value.
        let state = _currentState
        withPointer(to: state) { state in
            while index < _listedParts.count {
                let part = _listedParts[index]
                if part._bitsOffset >= 0, part._hasReaders,
                    StorePart<State, Action>.bits(at: state, offset: part._bitsOffset, size: part._bitsSize) == part._seenBits
                {
                    index += 1
                    continue
                }
                _ = part._announceChanges(part, self, state)
                // A reader's change handler may have emptied the list: it let
                // go of a cache entry, which tells every part and unlists
                // them (`announceEveryPart`). Parts only ever join at the
                // end, so the part is where it was unless that happened.
                guard index < _listedParts.count, _listedParts[index] === part else { continue }
                if part._hasReaders {
                    index += 1
                } else {
                    part._isListed = false
                    _listedParts.swapAt(index, _listedParts.count - 1)
                    _listedParts.removeLast()
                }
            }
        }
    }

    /// Tells every reader — of ``state`` and of every part — as if all had
    /// changed: for a host whose entry leaves it (a cache entry collected),
    /// so that its readers read again and find it gone.
    func announceEveryPart() {
        if _isPossiblyObserved { announceStateChange() }
        let parts = _listedParts
        _listedParts = []
        for part in parts {
            part._isListed = false
            part.announceAll(on: self)
        }
    }

    @inlinable
    func announceStateChange() {
        _isPossiblyObserved = false
        _registrar.willSet(self, keyPath: _stateKey)
        _registrar.didSet(self, keyPath: _stateKey)
    }
}
