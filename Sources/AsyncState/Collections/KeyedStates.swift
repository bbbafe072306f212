/// An ordered collection of values, each found by its key in constant time —
/// the state of a list whose rows are features of their own.
///
/// Iteration follows insertion order, so a list renders in a stable order;
/// looking a row up by key costs one hash, and integer keys hash in a few
/// instructions (see ``Reducer/forEach(_:action:extract:element:)``).
///
/// ```swift
/// var rows: KeyedStates<Int, Row.State> = [1: Row.State(), 2: Row.State()]
/// rows[3] = Row.State()                      // appended at the end
/// rows.withMutableValue(forKey: 2) { $0.isExpanded = true }
/// let order = rows.map(\.key)                // [1, 2, 3]
/// ```
///
/// Appending and lookup are O(1); removing a key is O(n), as removing from an
/// array is.
///
/// A key must be equal to itself, as a `Dictionary`'s must: one that is not
/// (a `Double.nan`) is stored as a new row by every write and never found
/// again, so ``Reducer/forEach(_:action:extract:element:)`` never reaches its
/// row.
public struct KeyedStates<Key: Hashable, Value> {
    @usableFromInline var _storedKeys: [Key]
    @usableFromInline var _storedValues: [Value]
    @usableFromInline var _keyIndex: KeyIndex
    /// The last change, for a store's readers of single rows; not part of the
    /// value (`==` ignores it). `nil` until a store has a reader of one of
    /// its rows: only then are changes recorded.
    @usableFromInline var _changes: ChangeJournal<Key>?
    /// Names the set of keys: a new stamp (``KeySetStamp``) whenever a key is
    /// added or removed, so `forEach` tells in one compare that an action
    /// removed no child. Not part of the value either; an empty collection
    /// has `0`.
    @usableFromInline var _keySetStamp: UInt64

    /// An empty collection.
    @inlinable
    public init() {
        _storedKeys = []
        _storedValues = []
        _keyIndex = KeyIndex()
        _changes = nil
        _keySetStamp = 0
    }

    /// A collection of `keysAndValues` in their order. When a key appears more
    /// than once, its last value is kept at its first position.
    public init(_ keysAndValues: some Sequence<(Key, Value)>) {
        self.init()
        for (key, value) in keysAndValues { store(value, forKey: key) }
    }

    /// The keys, in order.
    @inlinable
    public var keys: [Key] { _storedKeys }

    /// The values, in order.
    @inlinable
    public var values: [Value] { _storedValues }

    /// The index of `key`, or `nil` when it is not in the collection.
    @inlinable
    public func index(forKey key: Key) -> Index? {
        guard let offset = offset(forKey: key) else { return nil }
        return Index(offset)
    }

    // Always inlined, like `KeyIndex.position`: a keyed child's send is a
    // lookup and a small reducer, and each call left in it showed in the
    // keyed-child row (BENCHMARKS.md, "Issue 25, third pass").
    @inlinable @inline(__always)
    func offset(forKey key: Key) -> Int? {
        _keyIndex.position(of: key, in: _storedKeys)
    }

    /// The value for `key`, or `nil`. Setting a value for a new key appends it;
    /// setting `nil` removes the key.
    @inlinable
    public subscript(key: Key) -> Value? {
        get { offset(forKey: key).map { _storedValues[$0] } }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// The value for `key`, or `defaultValue()` when the key is not in the
    /// collection. Changing the value of a missing key appends it.
    ///
    /// ```swift
    /// var saves: KeyedStates<String, Int> = [:]
    /// saves["draft", default: 0] += 1          // ["draft": 1]
    /// ```
    @inlinable
    public subscript(key: Key, default defaultValue: @autoclosure () -> Value) -> Value {
        get { offset(forKey: key).map { _storedValues[$0] } ?? defaultValue() }
        _modify {
            // In place, like `Dictionary`'s: a child's state changed through
            // this subscript is not copied out and back.
            noteChange(of: key)
            let position: Int
            if let offset = offset(forKey: key) {
                position = offset
            } else {
                store(defaultValue(), forKey: key)
                position = _storedValues.count - 1
            }
            yield &_storedValues[position]
        }
    }

    /// Stores `value` for `key` — in place when the key is present, appended
    /// when it is new — and returns the value it replaced, if any.
    @inlinable
    @discardableResult
    public mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
        noteChange(of: key)
        return store(value, forKey: key)
    }

    /// `updateValue` without the change record: a new collection has no readers.
    @inlinable
    @discardableResult
    mutating func store(_ value: Value, forKey key: Key) -> Value? {
        if let position = offset(forKey: key) {
            let old = _storedValues[position]
            _storedValues[position] = value
            return old
        }
        _storedKeys.append(key)
        _storedValues.append(value)
        _keyIndex.append(key, in: _storedKeys)
        _keySetStamp = KeySetStamp.next()
        return nil
    }

    /// Removes `key` and returns its value, or returns `nil` when it is not
    /// in the collection. The keys after it move up one position.
    @discardableResult
    public mutating func removeValue(forKey key: Key) -> Value? {
        guard let position = offset(forKey: key) else { return nil }
        noteChange(of: key)
        _storedKeys.remove(at: position)
        let value = _storedValues.remove(at: position)
        _keyIndex = KeyIndex(keys: _storedKeys, seed: keyHashSeed)
        _keySetStamp = KeySetStamp.next()
        return value
    }

    /// Removes every key and value.
    public mutating func removeAll() {
        _storedKeys = []
        _storedValues = []
        _keyIndex = KeyIndex()
        _keySetStamp = 0
        noteChange(of: nil)
    }
}

extension KeyedStates {
    // Always inlined, so the optimizer can inline the caller's `body` — a
    // keyed child's reducer — rather than call it through a closure.
    /// Calls `body` with in-place access to the value for `key` — no copy of
    /// the value — or returns `nil` when the key is not in the collection.
    @inlinable @inline(__always)
    public mutating func withMutableValue<Result>(forKey key: Key, _ body: (inout Value) -> Result) -> Result? {
        guard let position = offset(forKey: key) else { return nil }
        noteChange(of: key)
        return body(&_storedValues[position])
    }
}

extension KeyedStates: RandomAccessCollection {
    /// A position in the collection. It is its own type, not `Int`, so that
    /// `rows[3]` on integer keys always means the value for key `3`.
    public struct Index: Strideable, Hashable, Sendable {
        /// The offset from the start of the collection.
        public let offset: Int

        @inlinable
        init(_ offset: Int) { self.offset = offset }

        /// How far `other` is from this index.
        @inlinable
        public func distance(to other: Index) -> Int { other.offset - offset }

        /// The index `n` positions after this one.
        @inlinable
        public func advanced(by n: Int) -> Index { Index(offset + n) }

        /// Whether `lhs` comes before `rhs`.
        @inlinable
        public static func < (lhs: Index, rhs: Index) -> Bool { lhs.offset < rhs.offset }
    }

    /// The position of the first pair.
    @inlinable
    public var startIndex: Index { Index(0) }

    /// One past the position of the last pair.
    @inlinable
    public var endIndex: Index { Index(_storedKeys.count) }

    /// The key and value at `index`.
    @inlinable
    public subscript(index: Index) -> (key: Key, value: Value) {
        (_storedKeys[index.offset], _storedValues[index.offset])
    }
}

extension KeyedStates: ExpressibleByDictionaryLiteral {
    /// A collection of the literal's pairs in order; a repeated key keeps its
    /// last value at its first position.
    public init(dictionaryLiteral elements: (Key, Value)...) {
        self.init(elements)
    }
}

extension KeyedStates: Equatable where Value: Equatable {
    /// Equal when both hold the same keys in the same order with equal values.
    public static func == (lhs: KeyedStates, rhs: KeyedStates) -> Bool {
        lhs._storedKeys == rhs._storedKeys && lhs._storedValues == rhs._storedValues
    }
}

extension KeyedStates: Hashable where Value: Hashable {
    /// Hashes the keys and values in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(_storedKeys)
        hasher.combine(_storedValues)
    }
}

extension KeyedStates: Sendable where Key: Sendable, Value: Sendable {}

extension KeyedStates: CustomStringConvertible {
    /// The pairs in order, written like a dictionary literal: `[1: a, 2: b]`.
    public var description: String {
        if isEmpty { return "[:]" }
        return "[" + map { "\(String(reflecting: $0.key)): \(String(reflecting: $0.value))" }.joined(separator: ", ") + "]"
    }
}

extension KeyedStates: CustomReflectable, OrderedKeyValuePairs {
    /// Reflects as a dictionary whose pairs keep their order.
    public var customMirror: Mirror {
        Mirror(self, unlabeledChildren: map { (key: $0.key, value: $0.value) }, displayStyle: .dictionary)
    }
}

/// A collection that reflects as a dictionary but whose order is part of its
/// value, so dumps must keep the mirror's order instead of sorting.
package protocol OrderedKeyValuePairs {}
