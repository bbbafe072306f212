/// What the last change to a ``KeyedStates`` was: which key it touched, and
/// a stamp before and after it. A store's readers of single rows use it to
/// tell, after an action, which row changed without comparing every row
/// (see `KeyedRowsPart`).
///
/// A journal belongs to one line of values: a collection records a change
/// in place only while it holds the journal alone, and otherwise takes a new
/// one that names the journal it came from and its stamp then. So two
/// copies that change apart never share a journal, and every value that
/// holds a journal at a stamp holds the same rows. A reader that finds the
/// journal it saw last one stamp on — or a new journal, one change on from
/// the one it saw — knows the change recorded is the only one since.
@usableFromInline
final class ChangeJournal<Key: Hashable> {
    // Unchecked exclusivity: a journal is written only by the one value that
    // holds it alone, in a single store per field, and read only through a
    // value that holds it; no access can overlap another. Checked, recording
    // a change cost a keyed child's send 15 → 44 ns.

    /// Counts the changes recorded in this journal.
    @exclusivity(unchecked) @usableFromInline var _stamp: UInt64 = 0
    /// The stamp before the last change.
    @exclusivity(unchecked) @usableFromInline var _stampBefore: UInt64 = 0
    /// The key the last change touched; `nil` when it touched many.
    @exclusivity(unchecked) @usableFromInline var _changedKey: Key?
    /// The journal this one was taken from, when a copy changed: held weakly,
    /// so a line of copies does not keep every journal before it alive.
    @exclusivity(unchecked) @usableFromInline weak var _origin: ChangeJournal?
    /// The origin's stamp when this journal was taken from it: the rows this
    /// journal started from are the origin's at that stamp.
    @usableFromInline let _originStamp: UInt64

    /// A journal for a new collection.
    @inlinable
    init() { _originStamp = 0 }

    /// A journal for a copy of a collection whose journal was `origin`.
    @inlinable
    init(from origin: ChangeJournal) {
        _origin = origin
        _originStamp = origin._stamp
        _stamp = origin._stamp
        _stampBefore = origin._stamp
    }

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
    /// Records a change of `key` (`nil`: of many keys), for readers of rows,
    /// once a store has started the journal (`startJournal()`). Without one
    /// it costs a check for `nil`; with one, a uniqueness check and three
    /// stores, and the first change after a copy allocates a journal.
    @inlinable
    mutating func noteChange(of key: Key?) {
        // Only the check is inline: a keyed child's send, which nobody reads
        // row by row, pays a load and a branch (≈ 2 ns more inlined whole).
        if _changes != nil { recordChange(of: key) }
    }

    @inlinable
    @inline(never)
    mutating func recordChange(of key: Key?) {
        if !isKnownUniquelyReferenced(&_changes!) {
            _changes = ChangeJournal(from: _changes!)
        }
        _changes.unsafelyUnwrapped.record(key)
    }

    /// Starts recording changes, for a store that has a reader of a row.
    /// Not a change of the value: `==` ignores the journal.
    @inlinable
    mutating func startJournal() {
        if _changes == nil { _changes = ChangeJournal() }
    }
}
