import Observation

/// A part of a store's state that a reader read: what the store compares
/// after each action, so that only the readers of a part that changed are
/// told (see `Store.announceChanges()`).
///
/// A part stays in the store's list while it has readers. Every observation
/// — SwiftUI's, `withObservationTracking`'s — ends at the first change it is
/// told of, so once a part is announced it has none until someone reads it
/// again, and the store stops comparing it.
@MainActor
@usableFromInline
class StorePart<State, Action> {
    // The mutable properties opt out of dynamic exclusivity checks, as the
    // store's do, for the same reasons: the main actor, and accesses that are
    // each a single read or write.

    /// Whether the part is in the store's list of parts to compare.
    @exclusivity(unchecked) @usableFromInline final var _isListed = false
    /// Whether a reader read the part since it last changed.
    @exclusivity(unchecked) @usableFromInline final var _hasReaders = false
    /// Compares the part in the state with what its readers read, and tells
    /// the readers of what changed; returns whether anything did. A closure
    /// made where the part is, rather than an overridden method: it is made
    /// in the code specialized for the feature's types (the part's `init` is
    /// inlinable), where an override runs unspecialized, copying and
    /// comparing through value witnesses — 20 parts made a no-op `send`
    /// cost 6 µs (BENCHMARKS.md, issue 26).
    @usableFromInline final let _announceChanges: (StorePart, Store<State, Action>, UnsafePointer<State>) -> Bool
    /// Registers a reader of the part as it is now: for the whole state
    /// (`StatePart`), which `Store.state` registers without naming its type.
    @usableFromInline final let _registerCurrentValue: (StorePart, Store<State, Action>) -> Void
    /// Where a part of 1, 2, 4 or 8 bytes of plain data is stored in the
    /// state, or -1: such a part is first compared by its bits, in the
    /// store's loop, without calling `_announceChanges` — equal bits are an
    /// equal value, and only different bits go on to `==`. A field a view
    /// reads is most often a flag, a count or a small enum; the call, the
    /// downcast and the retain cost about 20 ns a part (BENCHMARKS.md, issue 26).
    @exclusivity(unchecked) @usableFromInline final var _bitsOffset = -1
    @exclusivity(unchecked) @usableFromInline final var _bitsSize = 0
    /// The bits of what the readers read, when `_bitsOffset` is not -1.
    @exclusivity(unchecked) @usableFromInline final var _seenBits: UInt64 = 0

    @inlinable
    init(
        announceChanges: @escaping (StorePart, Store<State, Action>, UnsafePointer<State>) -> Bool,
        registerCurrentValue: @escaping (StorePart, Store<State, Action>) -> Void
    ) {
        self._announceChanges = announceChanges
        self._registerCurrentValue = registerCurrentValue
    }

    /// Tells every reader of the part, changed or not.
    @usableFromInline
    func announceAll(on store: Store<State, Action>) {}

    /// The `size` bytes at `offset` in `base`, as the low bits of a word.
    @inlinable
    static func bits(at base: UnsafeRawPointer, offset: Int, size: Int) -> UInt64 {
        switch size {
        case 1: UInt64(base.loadUnaligned(fromByteOffset: offset, as: UInt8.self))
        case 2: UInt64(base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
        case 4: UInt64(base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        default: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        }
    }
}

/// A part reached by a key path, compared with `==`.
///
/// Its readers register on the part itself, not on the store: a registrar
/// of its own, and a path of one component, cost a reader and a change about
/// half of what the store's path to the part (`\Store.state.title`) cost to
/// hash in the store's registrar, shared by every part (BENCHMARKS.md, issue 26).
@usableFromInline
final class ValuePart<State, Action, Value: Equatable>: StorePart<State, Action>, Observable {
    @usableFromInline let _path: KeyPath<State, Value>
    @usableFromInline let _registrar = ObservationRegistrar()
    /// What a reader registers, built once: a generic class's key path costs
    /// an allocation to build.
    @usableFromInline nonisolated let _key: KeyPath<ValuePart, UInt8> & Sendable
    /// Where the part is stored in the state, when it is a stored property
    /// (of a stored property…): read through a pointer rather than the key
    /// path, whose projection copies the whole state and looks up generic
    /// metadata — about 700 instructions a part.
    @usableFromInline let _offset: Int?
    /// What the readers read; `nil` while the part has no readers.
    @exclusivity(unchecked) @usableFromInline var _seen: Value?

    @inlinable
    init(path: KeyPath<State, Value>) {
        self._path = path
        self._key = \ValuePart._mark
        let offset = MemoryLayout<State>.offset(of: path)
        self._offset = offset
        super.init(
            announceChanges: { part, store, state in
                unsafeDowncast(part, to: ValuePart.self).announceChanges(in: state, on: store)
            },
            // Only the whole state registers by the store's read of it (`StatePart`).
            registerCurrentValue: { _, _ in })
        let size = MemoryLayout<Value>.size
        if let offset, _isPOD(Value.self), size == 1 || size == 2 || size == 4 || size == 8 {
            _bitsOffset = offset
            _bitsSize = size
        }
    }

    /// Registers the current reader of `value`, the part as it is now.
    @inlinable
    func register(_ value: Value, on store: Store<State, Action>) {
        if !_seen.isSome {
            _seen = value
            _hasReaders = true
            if _bitsOffset >= 0 {
                _seenBits = withBytes(of: value) { Self.bits(at: $0.baseAddress!, offset: 0, size: _bitsSize) }
            }
        }
        store._list(self)
        _registrar.access(self, keyPath: _key)
    }

    /// Registers a reader again, for a part that already has readers, so is
    /// listed and holds what they read — through an unmanaged reference, at
    /// +0: a part read from a list its caller holds was retained and released
    /// around the call, a sixth of a `Cache` hit. Not isolated, so the closure
    /// costs no executor check; it touches only the thread-safe registrar
    /// and a `Sendable` `let`.
    @inlinable @inline(__always)
    nonisolated static func registerAgain(_ part: Unmanaged<ValuePart>) {
        part._withUnsafeGuaranteedRef { $0._registrar.access($0, keyPath: $0._key) }
    }

    /// What `_key` points at; only its identity matters. A stored byte, not
    /// a computed property: a key path to a generic class's computed
    /// property hashes its getter and generic arguments on every lookup in
    /// the registrar (see `Store._stateKey`).
    @usableFromInline nonisolated let _mark: UInt8 = 0

    @inlinable
    func announceChanges(in state: UnsafePointer<State>, on store: Store<State, Action>) -> Bool {
        guard let seen = _seen, value(in: state) != seen else { return false }
        announceAll(on: store)
        return true
    }

    /// The part in `state`.
    @inlinable
    func value(in state: UnsafePointer<State>) -> Value {
        guard let offset = _offset else { return state.pointee[keyPath: _path] }
        // A stored property's offset, from `MemoryLayout.offset(of:)`, which
        // documents this use: the memory there holds a `Value`.
        return (UnsafeRawPointer(state) + offset).assumingMemoryBound(to: Value.self).pointee
    }

    @inlinable
    override func announceAll(on store: Store<State, Action>) {
        // Cleared before telling: a reader that reads again from its change
        // handler registers anew, with the new value.
        _seen = nil
        _hasReaders = false
        _registrar.willSet(self, keyPath: _key)
        _registrar.didSet(self, keyPath: _key)
    }
}

/// The whole state as a part, for a `State` that is `Equatable`. Its readers
/// register on the store itself (`Store._stateKey`), as readers of `state` did
/// before parts: a reader of the whole state is often the only reader, and
/// a registrar of its own made it one object more to reach on every change
/// (≈ 10% of a re-armed read and change; BENCHMARKS.md, issue 26).
@usableFromInline
final class StatePart<State: Equatable, Action>: StorePart<State, Action> {
    /// What the readers read; `nil` while the part has no readers.
    @exclusivity(unchecked) @usableFromInline var _seen: State?

    @inlinable
    init() {
        super.init(
            announceChanges: { part, store, state in
                let part = unsafeDowncast(part, to: StatePart.self)
                guard let seen = part._seen, state.pointee != seen else { return false }
                part.announceAll(on: store)
                return true
            },
            registerCurrentValue: { part, store in
                let part = unsafeDowncast(part, to: StatePart.self)
                if !part._seen.isSome {
                    part._seen = store._currentState
                    part._hasReaders = true
                    if part._bitsOffset >= 0 {
                        part._seenBits = withBytes(of: store._currentState) {
                            Self.bits(at: $0.baseAddress!, offset: 0, size: part._bitsSize)
                        }
                    }
                }
                store._list(part)
                store._registrar.access(store, keyPath: store._stateKey)
            })
        // A state of plain data in a word is compared by its bits first, as a
        // small part is (see `_bitsOffset`).
        let size = MemoryLayout<State>.size
        if _isPOD(State.self), size == 1 || size == 2 || size == 4 || size == 8 {
            _bitsOffset = 0
            _bitsSize = size
        }
    }

    @inlinable
    override func announceAll(on store: Store<State, Action>) {
        _seen = nil
        _hasReaders = false
        store._registrar.willSet(store, keyPath: store._stateKey)
        store._registrar.didSet(store, keyPath: store._stateKey)
    }
}
