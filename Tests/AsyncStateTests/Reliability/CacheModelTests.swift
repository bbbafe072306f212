import AsyncStateControls
import Testing

@testable import AsyncState

/// Random subscribes, unsubscribes, collection timers and evictions on the
/// cache's pure bookkeeping (``CacheState``), checked against a plain model:
/// users per key, entries kept while used, the longest-unused entry evicted
/// first, a stale timer ignored, and the eviction queue kept proportional —
/// and its storage: every cached key found at its position, which it keeps
/// while cached, and every free position listed once.
@Suite("Reliability: randomized cache bookkeeping check")
struct CacheModelTests {
    typealias State = CacheState<Int, Int, TestError, TestClock.Instant>

    @Test("20,000 random sequences agree with the model")
    func randomSequences() async {
        let run = RandomizedRun(defaultCount: 20_000)
        guard await run.playSequences({ Self.play(seed: $0) }) else { return }
        print("randomized cache check: \(run.count) sequences, seed \(run.seed)")
    }

    static func play(seed: UInt64) -> String? {
        var random = SplitMix64(seed: seed)
        var state = State()
        var users: [Int: Int] = [:]
        /// Unused keys, the longest unused first, with their idle tokens.
        var idle: [(key: Int, token: UInt64)] = []
        /// Where each cached key was first found; it must not move.
        var positions: [Int: Int] = [:]
        let capacity = Int.random(in: 0...6, using: &random)
        for _ in 0..<Int.random(in: 1...60, using: &random) {
            let key = Int.random(in: 0..<8, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                let isNew = state.addUser(key)
                guard isNew == (users[key] == nil) else { return "subscribe(\(key)) new: \(isNew)" }
                users[key, default: 0] += 1
                idle.removeAll { $0.key == key }
                if isNew {
                    let evicted = state.evict(toFit: capacity)
                    let expected = idle.prefix(max(0, users.count - capacity)).map(\.key)
                    guard evicted.count == expected.count else { return "evicted \(evicted.count), expected \(expected)" }
                    for key in expected { users[key] = nil }
                    idle.removeFirst(expected.count)
                }
            case 4..<8:
                let removal = state.removeUser(key)
                guard let count = users[key], count > 0 else {
                    if removal != nil { return "unsubscribe(\(key)) without users was accepted" }
                    continue
                }
                guard let removal, removal.isIdle == (count == 1) else { return "unsubscribe(\(key)) idle mismatch" }
                users[key] = count - 1
                if count == 1 {
                    idle.append((key, removal.token))
                    let evicted = state.evict(toFit: capacity)
                    let expected = idle.prefix(max(0, users.count - capacity)).map(\.key)
                    guard evicted.count == expected.count else { return "evicted \(evicted.count) on unsubscribe, expected \(expected)" }
                    for key in expected { users[key] = nil }
                    idle.removeFirst(expected.count)
                }
            default: // a collection timer fires, with the right token or a stale one
                let token = idle.first { $0.key == key }?.token
                let fired = Bool.random(using: &random) ? token ?? 999 : 999
                let collected = state.collect(key, token: fired) != nil
                guard collected == (token != nil && fired == token) else { return "collect(\(key)) \(collected)" }
                if collected {
                    users[key] = nil
                    idle.removeAll { $0.key == key }
                }
            }
            guard state.count == users.count, users.allSatisfy({ state[$0.key]?.users == $0.value }) else {
                return "entries \(state) differ from the model \(users)"
            }
            guard state._idle.count <= 2 * state.count + state._idleHead + 65 else { return "the idle queue grew to \(state._idle.count)" }
            positions = positions.filter { users[$0.key] != nil } // evicted or collected: may come back elsewhere
            // The key this step used, every step; every key at the end.
            if let problem = positionProblem(key, in: state, isCached: users[key] != nil, positions: &positions) { return problem }
        }
        return storageProblem(state, keys: Array(users.keys), positions: &positions)
    }

    /// Checks that `key` is found exactly when cached, at a position holding
    /// it, and at the position it had when first found.
    static func positionProblem(_ key: Int, in state: State, isCached: Bool, positions: inout [Int: Int]) -> String? {
        let position = state.position(of: key)
        guard (position != nil) == isCached else { return "\(key) found at \(String(describing: position))" }
        guard let position else {
            positions[key] = nil
            return nil
        }
        guard state._keys[position] == key, state._values[position]._isCached else { return "\(key) at a free position" }
        guard positions[key, default: position] == position else { return "\(key) moved to \(position)" }
        positions[key] = position
        return nil
    }

    /// Checks the storage behind lookups against the keys the model caches.
    static func storageProblem(_ state: State, keys: [Int], positions: inout [Int: Int]) -> String? {
        for key in 0..<8 {
            if let problem = positionProblem(key, in: state, isCached: keys.contains(key), positions: &positions) { return problem }
        }
        let free = Set(state._free)
        guard free.count == state._free.count, free == Set(state._values.indices.filter { !state._values[$0]._isCached }) else {
            return "free positions \(state._free) for \(state._values.map(\._isCached))"
        }
        guard Set(state.keys) == Set(keys), state.entries.count == keys.count else { return "keys \(Array(state.keys))" }
        return nil
    }

    @Test("states caching the same keys are equal whatever the order the keys came in")
    func equalityIgnoresPositions() {
        var first = State()
        var second = State()
        for key in [1, 2, 3] { _ = first.addUser(key) }
        for key in [3, 1, 2] { _ = second.addUser(key) }
        #expect(first == second)
        _ = second.addUser(2)
        #expect(first != second)
    }
}
