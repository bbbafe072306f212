import AsyncStateControls
import AsyncStateTestSupport
import Testing

@testable import AsyncState

/// The index with positions that stay put (``CacheState``'s storage):
/// insertion at any position and removal that leaves no tombstones.
@Suite("KeyIndex: insertion at a position and removal")
struct KeyIndexTests {
    /// A key whose hash takes one of three values, so keys pile up in long
    /// runs of occupied slots that wrap around the table's end — where a
    /// removal must move the right keys back.
    struct Colliding: Hashable, CustomStringConvertible {
        let id: Int
        func hash(into hasher: inout Hasher) { hasher.combine(id % 3) }
        var description: String { "#\(id)" }
    }

    /// Random insertions and removals against a dictionary of positions;
    /// after each, every key of the universe is found where the model says,
    /// or not at all.
    static func play<Key: Hashable>(seed: UInt64, universe: [Key]) -> String? {
        var random = SplitMix64(seed: seed)
        var index = KeyIndex()
        var keys: [Key] = []
        var free: [Int] = []
        var model: [Key: Int] = [:]
        for step in 0..<200 {
            let key = universe[Int.random(in: 0..<universe.count, using: &random)]
            if let position = model[key] {
                guard index.remove(key, in: keys) == position else { return "step \(step): removing \(key)" }
                model[key] = nil
                free.append(position)
            } else if Bool.random(using: &random) {
                let position = free.popLast() ?? keys.count
                if position == keys.count { keys.append(key) } else { keys[position] = key }
                model[key] = position
                index.insert(key, at: position, in: keys, count: model.count)
            } else {
                guard index.remove(key, in: keys) == nil else { return "step \(step): removed absent \(key)" }
            }
            for key in universe where index.position(of: key, in: keys) != model[key] {
                return
                    "step \(step): \(key) at \(String(describing: index.position(of: key, in: keys))), expected \(String(describing: model[key]))"
            }
        }
        return nil
    }

    @Test("random insertions and removals of integer keys agree with a dictionary")
    func integers() {
        for seed: UInt64 in 0..<200 {
            if let problem = Self.play(seed: seed, universe: Array(-20..<20)) {
                Issue.record("seed \(seed): \(problem)")
                return
            }
        }
    }

    @Test("random insertions and removals of keys that share hashes agree with a dictionary")
    func collidingKeys() {
        for seed: UInt64 in 0..<200 {
            if let problem = Self.play(seed: seed, universe: (0..<24).map(Colliding.init)) {
                Issue.record("seed \(seed): \(problem)")
                return
            }
        }
    }

    @Test("removing from an empty index finds nothing")
    func removeFromEmpty() {
        var index = KeyIndex()
        #expect(index.remove(7, in: [Int]()) == nil)
    }

    @Test("growing keeps only the positions the index holds, not stale keys at free positions")
    func growSkipsFreePositions() {
        var index = KeyIndex()
        var keys: [Int] = []
        for key in 0..<4 {
            keys.append(key)
            index.insert(key, at: key, in: keys, count: key + 1)
        }
        #expect(index.remove(2, in: keys) == 2) // position 2 is free; its stale key stays in `keys`
        for key in 4..<40 {
            keys.append(key)
            index.insert(key, at: keys.count - 1, in: keys, count: keys.count - 1)
        }
        #expect(index.position(of: 2, in: keys) == nil)
        #expect((0..<40).filter { $0 != 2 }.allSatisfy { index.position(of: $0, in: keys) == $0 })
    }
}
