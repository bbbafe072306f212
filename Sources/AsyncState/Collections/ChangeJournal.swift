/// What the last change to a ``KeyedStates`` was: which key it touched, and
/// a stamp before and after it. A store's readers of single rows use it to
/// tell, after an action, which row changed without comparing every row
/// (see `KeyedRowsPart`).
///
/// A journal belongs to one line of values: a collection records a change
/// in place only while it holds the journal alone, and takes a new one
/// otherwise — so two copies that change apart never share a journal, and a
/// reader that sees the journal it saw last, one stamp on, knows the change
/// it records is the only one since.
@usableFromInline
final class ChangeJournal<Key: Hashable> {
    /// Counts the changes recorded in this journal.
    @usableFromInline var _stamp: UInt64 = 0
    /// The stamp before the last change.
    @usableFromInline var _stampBefore: UInt64 = 0
    /// The key the last change touched; `nil` when it touched many.
    @usableFromInline var _changedKey: Key?

    @inlinable
    init() {}

    @inlinable
    func record(_ key: Key?) {
        _stampBefore = _stamp
        _stamp &+= 1
        _changedKey = key
    }
}

// Sendable although mutable: a journal is written only through the one
// `KeyedStates` that holds the only strong reference to it
// (`isKnownUniquelyReferenced`, checked before every write), the rule an
// array's buffer follows. Any other holder — a copy on another thread, a
// store reading it — keeps it from being unique, so it is never written
// while another thread can read it; readers that are not values hold it weakly
// and only compare its identity before reading it through a value.
extension ChangeJournal: @unchecked Sendable {}

extension KeyedStates {
    /// Records a change of `key` (`nil`: of many keys), for readers of rows.
    /// Costs a uniqueness check and three stores; the first change after a
    /// copy allocates a journal.
    @inlinable
    mutating func noteChange(of key: Key?) {
        if _changes == nil || !isKnownUniquelyReferenced(&_changes!) {
            _changes = ChangeJournal()
        }
        _changes.unsafelyUnwrapped.record(key)
    }
}
