/// The hash table behind ``KeyedStates``: for each key, its position in the
/// collection's key and value arrays.
///
/// Open addressing with linear probing over a power-of-two table kept at most
/// half full, so every probe sequence ends at an empty slot. A key's slot is
/// the top bits of ``KeyHash/hash(_:seed:)``. Removing a key renumbers the positions
/// after it, so the table is rebuilt — O(n), like removing from an array.
@usableFromInline
struct KeyIndex: Sendable {
    /// Position + 1 of the key that owns each slot; `0` marks an empty slot.
    @usableFromInline var _slots: [Int]
    /// `64 − log2(slots.count)`: shifting a hash right by this leaves a slot.
    @usableFromInline var _shift: UInt64
    /// The process's seed, copied here so a lookup touches no global.
    @usableFromInline var _seed: UInt64

    /// The smallest table: 8 slots, room for 4 keys.
    @usableFromInline static let minimumSlotCount = 8

    @inlinable
    init() {
        _slots = []
        _shift = 64
        _seed = 0
    }

    /// A table for `keys`, which must be distinct, placed by `seed` — the
    /// process's seed, or a fixed one in tests.
    @usableFromInline
    init<Key: Hashable>(keys: [Key], seed: UInt64) {
        var slotCount = KeyIndex.minimumSlotCount
        while slotCount < keys.count * 2 { slotCount *= 2 }
        _slots = Array(repeating: 0, count: slotCount)
        _shift = UInt64(64 - slotCount.trailingZeroBitCount)
        self._seed = seed
        for (position, key) in keys.enumerated() {
            _slots[emptySlot(for: key)] = position + 1
        }
    }

    /// Where `key`'s probe sequence starts: the top bits of its hash.
    @inlinable
    func homeSlot<Key: Hashable>(for key: Key) -> Int {
        Int(truncatingIfNeeded: KeyHash.hash(key, seed: _seed) &>> _shift)
    }

    // Always inlined: the probe is a few instructions, and a call around it
    // passed the index and the keys through memory (BENCHMARKS.md, "Issue
    // 25, third pass").
    /// The position of `key` in `keys`, or `nil` when it is not there.
    @inlinable @inline(__always)
    func position<Key: Hashable>(of key: Key, in keys: [Key]) -> Int? {
        if _slots.isEmpty { return nil }
        let mask = _slots.count &- 1
        var slot = homeSlot(for: key)
        while true {
            let entry = _slots[slot]
            if entry == 0 { return nil }
            if keys[entry &- 1] == key { return entry &- 1 }
            slot = (slot &+ 1) & mask
        }
    }

    /// Records that `key`, not yet present, now sits at the end of `keys`
    /// (which already holds it); grows the table when it would pass half full.
    @usableFromInline
    mutating func append<Key: Hashable>(_ key: Key, in keys: [Key]) {
        if keys.count * 2 > _slots.count {
            self = KeyIndex(keys: keys, seed: keyHashSeed)
        } else {
            _slots[emptySlot(for: key)] = keys.count
        }
    }

    /// The first empty slot on `key`'s probe sequence.
    @usableFromInline
    func emptySlot<Key: Hashable>(for key: Key) -> Int {
        let mask = _slots.count - 1
        var slot = homeSlot(for: key)
        while _slots[slot] != 0 { slot = (slot + 1) & mask }
        return slot
    }

    // MARK: Positions that stay put
    // For storage that frees a removed key's position for reuse instead of
    // moving the keys after it (``CacheState``): insertion at any position,
    // and removal in O(1) on average.

    /// Records that `key`, not yet present, now sits at `position` of `keys`
    /// (which already holds it), when `count` keys are present with it;
    /// grows the table first if it would pass half full.
    @usableFromInline
    mutating func insert<Key: Hashable>(_ key: Key, at position: Int, in keys: [Key], count: Int) {
        if count * 2 > _slots.count { grow(toHold: count, in: keys) }
        _slots[emptySlot(for: key)] = position + 1
    }

    /// Rebuilds the table with room for `count` keys from the positions it
    /// holds, so positions free in `keys` (holding stale keys) stay out of it.
    mutating func grow<Key: Hashable>(toHold count: Int, in keys: [Key]) {
        var slotCount = KeyIndex.minimumSlotCount
        while slotCount < count * 2 { slotCount *= 2 }
        var grown = KeyIndex()
        grown._slots = Array(repeating: 0, count: slotCount)
        grown._shift = UInt64(64 - slotCount.trailingZeroBitCount)
        grown._seed = _slots.isEmpty ? keyHashSeed : _seed
        for entry in _slots where entry != 0 {
            grown._slots[grown.emptySlot(for: keys[entry - 1])] = entry
        }
        self = grown
    }

    /// Forgets `key` and returns its position in `keys`, or `nil` when it is
    /// not there. The keys after it in its run of occupied slots move back
    /// into the gap when their probe sequence allows, so every lookup still
    /// ends at an empty slot and the table needs no tombstones.
    @usableFromInline
    mutating func remove<Key: Hashable>(_ key: Key, in keys: [Key]) -> Int? {
        if _slots.isEmpty { return nil }
        let mask = _slots.count - 1
        var gap = homeSlot(for: key)
        while true {
            let entry = _slots[gap]
            if entry == 0 { return nil }
            if keys[entry - 1] == key { break }
            gap = (gap + 1) & mask
        }
        let position = _slots[gap] - 1
        _slots[gap] = 0
        var slot = gap
        while true {
            slot = (slot + 1) & mask
            let entry = _slots[slot]
            if entry == 0 { return position }
            // This key may fill the gap only if the gap lies on its probe
            // sequence: from its home slot to where it sits, cyclically.
            let home = homeSlot(for: keys[entry - 1])
            if (slot - home) & mask >= (slot - gap) & mask {
                _slots[gap] = entry
                _slots[slot] = 0
                gap = slot
            }
        }
    }

    /// How many slots the lookup of each key visits, longest first — for tests
    /// that check the hash spreads awkward key sets.
    func probeLengths<Key: Hashable>(of keys: [Key]) -> [Int] {
        let mask = _slots.count - 1
        return keys.map { key in
            var slot = homeSlot(for: key)
            var length = 1
            while keys[_slots[slot] - 1] != key {
                slot = (slot + 1) & mask
                length += 1
            }
            return length
        }.sorted(by: >)
    }
}
