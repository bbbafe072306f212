/// Child states stored by key, which ``Reducer/forEach(_:action:extract:element:)``
/// routes keyed actions into: a `Dictionary`, or ``KeyedStates`` when the
/// children have an order or lookups must be fast.
public protocol KeyedStorage<Key, Value> {
    /// What identifies a child.
    associatedtype Key: Hashable
    /// A child's state.
    associatedtype Value

    /// Calls `body` with in-place access to the value stored for `key` and
    /// returns its result, or returns `nil` without calling `body` when there
    /// is no such value.
    ///
    /// ```swift
    /// rows.withMutableValue(forKey: id) { $0.isSelected = true }
    /// ```
    mutating func withMutableValue<Result>(forKey key: Key, _ body: (inout Value) -> Result) -> Result?
}

extension Dictionary: KeyedStorage {
    /// Calls `body` with in-place access to the value stored for `key` — one
    /// hash lookup, no copy of the value — or returns `nil` when there is none.
    @inlinable
    public mutating func withMutableValue<Result>(forKey key: Key, _ body: (inout Value) -> Result) -> Result? {
        guard let index = index(forKey: key) else { return nil }
        return body(&values[index])
    }
}
