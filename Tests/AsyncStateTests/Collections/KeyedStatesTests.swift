import AsyncStateTestSupport
import Testing

@testable import AsyncState

@Suite("KeyedStates")
struct KeyedStatesTests {
    @Test("a key not equal to itself is stored as a new row by every write and never found, as in a Dictionary")
    func keyNotEqualToItself() {
        var rows: KeyedStates<Double, Int> = [1: 1]
        rows[.nan] = 2
        rows[.nan] = 3
        #expect(rows.count == 3 && rows[.nan] == nil)
        #expect(rows.map(\.value) == [1, 2, 3])
    }

    @Test("keeps insertion order and finds every value by key")
    func orderAndLookup() {
        var rows: KeyedStates<Int, String> = [30: "c", 10: "a"]
        rows[20] = "b"
        #expect(rows.keys == [30, 10, 20])
        #expect(rows.values == ["c", "a", "b"])
        #expect(rows[10] == "a")
        #expect(rows[20] == "b")
        #expect(rows[40] == nil)
        #expect(rows.map(\.key) == [30, 10, 20])
        #expect(rows.count == 3)
    }

    @Test("a subscript on integer keys means the key, never a position")
    func integerKeysAreKeys() {
        let rows: KeyedStates<Int, String> = [1: "one", 0: "zero"]
        #expect(rows[0] == "zero")
        #expect(rows[rows.startIndex].key == 1)
        #expect(rows.index(forKey: 0)?.offset == 1)
    }

    @Test(
        "a repeated key keeps its first position and its last value",
        arguments: [
            ([(1, "a"), (2, "b"), (1, "c")], [1, 2], ["c", "b"]),
            ([(5, "x"), (5, "y"), (5, "z")], [5], ["z"]),
            ([], [], []),
        ] as [([(Int, String)], [Int], [String])])
    func duplicates(pairs: [(Int, String)], keys: [Int], values: [String]) {
        let rows = KeyedStates(pairs)
        #expect(rows.keys == keys)
        #expect(rows.values == values)
    }

    @Test("updateValue replaces in place and returns the old value, or appends and returns nil")
    func updateValue() {
        var rows: KeyedStates<String, Int> = ["a": 1, "b": 2]
        #expect(rows.updateValue(10, forKey: "a") == 1)
        #expect(rows.updateValue(3, forKey: "c") == nil)
        #expect(rows.keys == ["a", "b", "c"])
        #expect(rows.values == [10, 2, 3])
    }

    @Test("removing a key moves the later keys up and keeps them findable")
    func removal() {
        var rows = KeyedStates((0..<100).map { ($0, $0 * 10) })
        #expect(rows.removeValue(forKey: 42) == 420)
        #expect(rows.removeValue(forKey: 42) == nil)
        rows[7] = nil
        #expect(rows.count == 98)
        #expect(rows[42] == nil)
        #expect(rows[7] == nil)
        for key in (0..<100) where key != 42 && key != 7 {
            #expect(rows[key] == key * 10)
        }
        #expect(Array(rows.keys.prefix(8)) == [0, 1, 2, 3, 4, 5, 6, 8])
    }

    @Test("removing the only key leaves an empty collection that fills again")
    func removeLast() {
        var rows: KeyedStates<Int, Int> = [1: 1]
        rows[1] = nil
        #expect(rows.isEmpty)
        #expect(rows[1] == nil)
        rows[2] = 2
        #expect(rows == [2: 2])
    }

    @Test("removeAll empties the collection and it fills again")
    func removeAll() {
        var rows: KeyedStates<Int, Int> = [1: 1, 2: 2]
        rows.removeAll()
        #expect(rows.isEmpty)
        #expect(rows[1] == nil)
        rows[3] = 3
        #expect(rows.keys == [3])
    }

    @Test("grows past many table sizes without losing a key")
    func growth() {
        var rows = KeyedStates<Int, Int>()
        for key in 0..<10_000 { rows[key * 7 - 5_000] = key }
        #expect(rows.count == 10_000)
        for key in 0..<10_000 { #expect(rows[key * 7 - 5_000] == key) }
        #expect(rows[3] == nil)
    }

    @Test("withMutableValue changes the stored value in place, and reports a missing key")
    func withMutableValue() {
        var rows: KeyedStates<Int, [Int]> = [1: [1]]
        let count = rows.withMutableValue(forKey: 1) { value -> Int in
            value.append(2)
            return value.count
        }
        #expect(count == 2)
        #expect(rows[1] == [1, 2])
        #expect(rows.withMutableValue(forKey: 9) { _ in true } == nil)
    }

    @Test("copies are independent values")
    func valueSemantics() {
        var original: KeyedStates<Int, Int> = [1: 1]
        var copy = original
        copy[1] = 100
        copy[2] = 2
        original.withMutableValue(forKey: 1) { $0 += 1 }
        #expect(original == [1: 2])
        #expect(copy == [1: 100, 2: 2])
    }

    @Test("equality depends on order as well as contents")
    func equality() {
        let ab: KeyedStates<String, Int> = ["a": 1, "b": 2]
        #expect(ab == ["a": 1, "b": 2])
        #expect(ab != ["b": 2, "a": 1])
        #expect(ab != ["a": 1, "b": 3])
        #expect(Set([ab, ["a": 1, "b": 2]]).count == 1)
    }

    @Test("prints like a dictionary literal, in order")
    func description() {
        #expect(KeyedStates<Int, String>().description == "[:]")
        #expect(KeyedStates([(2, "b"), (1, "a")]).description == #"[2: "b", 1: "a"]"#)
    }

    @Test("every integer key type and other Hashable keys find their values")
    func keyTypes() {
        func roundTrips<Key: Hashable>(_ keys: [Key]) -> Bool {
            let rows = KeyedStates(keys.enumerated().map { ($1, $0) })
            return keys.enumerated().allSatisfy { rows[$1] == $0 } && rows.count == keys.count
        }
        #expect(roundTrips([Int.min, -1, 0, 1, Int.max]))
        #expect(roundTrips([Int64.min, 0, Int64.max]))
        #expect(roundTrips([UInt64.max, 0, 1 << 63]))
        #expect(roundTrips([UInt.max, 0]))
        #expect(roundTrips([Int32.min, -1, 0, Int32.max]))
        #expect(roundTrips([UInt32.max, 0, 1]))
        #expect(roundTrips(["", "a", "row-1", "row-2"]))
        #expect(roundTrips([TestError.offline, .timedOut]))
    }

    /// Key sets that defeat weak hashes: sequential, powers of two apart,
    /// negative, and only high bits differing. With the seed fixed, placement
    /// is deterministic. A random hash gives a longest probe of 15–30 slots
    /// for 4,096 keys in 8,192 slots (SplitMix64 measured so); a hash that let
    /// these keys share slots would give hundreds.
    @Test(
        "awkward integer key sets spread over the table",
        arguments: [
            ("sequential", (0..<4_096).map { $0 }),
            ("multiples of 1024", (0..<4_096).map { $0 << 10 }),
            ("multiples of 2^32", (0..<4_096).map { $0 << 32 }),
            ("high bits only", (0..<4_096).map { Int(bitPattern: UInt($0) << 52) }),
            ("negative", (0..<4_096).map { -$0 }),
        ])
    func spread(name: String, keys: [Int]) {
        for seed: UInt64 in [0, 1, 0xDEAD_BEEF, .max] {
            let index = KeyIndex(keys: keys, seed: seed)
            let longest = index.probeLengths(of: keys)[0]
            #expect(longest <= 32, "\(name), seed \(seed): a lookup visits \(longest) slots")
        }
    }
}
