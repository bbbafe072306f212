import AsyncStateControls
import AsyncStateTestSupport
import Testing

@testable import AsyncState

/// Random subscribes, prefetches, unsubscribes, collection timers,
/// evictions, and edits that start, roll back and end (confirmed, failed,
/// cancelled, or the stale end of a rollback), on the cache's pure
/// bookkeeping (the `CacheBook` inside ``CacheState``, which ``Cache`` keeps
/// too) — half the timers and ends through ``CacheReducer`` — checked against
/// a plain model: users per key, entries kept while used or edited, the
/// longest-unused entry evicted first, a stale timer ignored, an entry kept
/// for an edit going idle when its last edit ends, the commands each change
/// asks for, a step reported as dropped only when it changed nothing, and the
/// eviction queue kept proportional — and its storage: every cached key found
/// at its position, which it keeps while cached, and every free position
/// listed once.
@Suite("Reliability: randomized cache bookkeeping check")
struct CacheModelTests {
    typealias State = CacheState<Int, Int, TestError>

    @Test("20,000 random sequences agree with the model")
    func randomSequences() async {
        // Single-threaded bookkeeping, nothing for the thread sanitizer to
        // see: under it (141 s for 10,000 sequences) a thousand suffice; the
        // plain and optimized runs play the full count.
        let run = RandomizedRun(defaultCount: 20_000, sanitizedMaximum: 1_000)
        guard await run.playSequences({ Self.play(seed: $0) }) else { return }
        print("randomized cache check: \(run.count) sequences, seed \(run.seed)")
    }

    /// The commands a change asks for, in a form a model can state: releases
    /// are counted, as a released entry does not say its key.
    static func summary(_ commands: [CacheCommand<Int, Loadable<Int, TestError>>]) -> [String] {
        commands.map { command in
            switch command {
            case .loadIfNeeded(let key): "load \(key)"
            case .reload(let key): "reload \(key)"
            case .startTimer(let key, let token): "timer \(key) #\(token)"
            case .cancelTimer(let key): "cancel timer \(key)"
            case .release: "release"
            }
        }
    }

    /// The model's bookkeeping.
    struct Model {
        var capacity: Int
        var collectAfter: Duration
        var users: [Int: Int] = [:]
        /// Unused keys, the longest unused first, with their idle tokens.
        /// A key with no user and no idle spell is kept for its edits.
        var idle: [(key: Int, token: UInt64)] = []
        var nextToken: UInt64 = 0
        /// The edits in flight on each key's entry.
        var edits: [Int: [LoadID]] = [:]

        func isEdited(_ key: Int) -> Bool { !(edits[key] ?? []).isEmpty }

        mutating func markIdle(_ key: Int) -> UInt64 {
            defer { nextToken += 1 }
            idle.append((key, nextToken))
            return nextToken
        }

        /// Evicts unused entries, longest unused first, until `capacity` fit;
        /// never `spared`, and never one with an edit in flight, which leaves
        /// its idle spell instead. Returns how many went.
        mutating func evict(sparing spared: Int? = nil) -> [String] {
            var released: [String] = []
            while users.count > capacity, let index = idle.firstIndex(where: { $0.key != spared }) {
                let key = idle.remove(at: index).key
                guard !isEdited(key) else { continue }
                users[key] = nil
                released.append("release")
            }
            return released
        }

        /// A new key's entry, idle until someone uses it.
        mutating func insert(_ key: Int) -> (isNew: Bool, released: [String]) {
            guard users[key] == nil else { return (false, []) }
            users[key] = 0
            _ = markIdle(key)
            return (true, evict(sparing: key))
        }

        /// The idle spell `token` of `key` began: collected at once without a
        /// `collectAfter`, else when it passes.
        mutating func startIdle(_ key: Int, token: UInt64) -> [String] {
            guard idle.contains(where: { $0.key == key && $0.token == token }) else { return [] }
            guard collectAfter > .zero else { return collect(key) ? ["release"] : [] }
            return ["timer \(key) #\(token)"]
        }

        /// Collects `key`, unless an edit of it is in flight: then it only
        /// leaves its idle spell. Returns whether it went.
        mutating func collect(_ key: Int) -> Bool {
            idle.removeAll { $0.key == key }
            guard !isEdited(key) else { return false }
            users[key] = nil
            return true
        }
    }

    static func play(seed: UInt64) -> String? {
        var random = SplitMix64(seed: seed)
        var state = State()
        var model = Model(
            capacity: Int.random(in: 0...6, using: &random), collectAfter: Bool.random(using: &random) ? .seconds(60) : .zero)
        /// Where each cached key was first found; it must not move.
        var positions: [Int: Int] = [:]
        var log: [String] = []
        var nextEdit: UInt64 = 1
        /// Edits rolled back by `cancel(edit:)` whose stale end is still to come.
        var rolledBack: [(key: Int, id: LoadID)] = []
        // Half the ends and timers go through the reducer, which calls the book.
        let reducer = CacheReducer<Int, Int, TestError>(
            clock: LoadClock(TestClock()), staleAfter: .seconds(30), collectAfter: model.collectAfter, capacity: model.capacity
        ) { _ in LoadRequest { () async throws(TestError) in 0 } }
        for _ in 0..<Int.random(in: 1...60, using: &random) {
            let key = Int.random(in: 0..<8, using: &random)
            var expected: [String]?
            var actual: [String]?
            switch Int.random(in: 0..<15, using: &random) {
            case 0..<4:
                log.append("subscribe(\(key))")
                let (_, released) = model.insert(key)
                model.users[key, default: 0] += 1
                model.idle.removeAll { $0.key == key }
                expected = ["cancel timer \(key)", "load \(key)"] + released
                actual = summary(state._book.subscribe(key, capacity: model.capacity) { Loadable() })
            case 4..<6:
                log.append("prefetch(\(key))")
                // Nothing to keep a key not cached for: left alone.
                guard model.collectAfter > .zero || model.users[key] != nil else {
                    expected = []
                    actual = summary(
                        state._book.prefetch(key, capacity: model.capacity, collectAfter: model.collectAfter) { Loadable() })
                    break
                }
                let (isNew, released) = model.insert(key)
                var commands = ["load \(key)"] + released
                // An entry without users, new or idle, starts its idle spell
                // with the prefetch: last in the order of eviction.
                if model.users[key] == 0 {
                    if !isNew {
                        model.idle.removeAll { $0.key == key }
                        _ = model.markIdle(key)
                    }
                    if let token = model.idle.last(where: { $0.key == key })?.token {
                        commands += model.startIdle(key, token: token)
                    }
                }
                expected = commands
                actual = summary(
                    state._book.prefetch(key, capacity: model.capacity, collectAfter: model.collectAfter) { Loadable() })
            case 6..<9:
                log.append("unsubscribe(\(key))")
                let result = state._book.unsubscribe(key, capacity: model.capacity, collectAfter: model.collectAfter)
                actual = result.map(summary)
                if let count = model.users[key], count > 0 {
                    model.users[key] = count - 1
                    if count == 1 {
                        let token = model.markIdle(key)
                        let released = model.evict()
                        expected = released + model.startIdle(key, token: token)
                    } else {
                        expected = []
                    }
                }
            case 9: // a collection timer fires, with the right token or a stale one
                let token = model.idle.first { $0.key == key }?.token
                let fired = Bool.random(using: &random) ? token ?? 999 : 999
                let isStale = token == nil || fired != token
                let countBefore = state.count
                let modelCollected = !isStale && model.collect(key)
                if Bool.random(using: &random) {
                    log.append("collect(\(key), #\(fired))")
                    let collected = state._book.collect(key, token: fired) != nil
                    guard collected == modelCollected else {
                        return "collect(\(key)) \(collected)\n" + log.joined(separator: "\n")
                    }
                } else {
                    log.append("reducer: collect(\(key), #\(fired))")
                    let effect = reducer.reduce(into: &state, action: .collect(key, token: fired))
                    guard effect.isDropped == isStale, (state.count < countBefore) == modelCollected else {
                        return "collect(\(key)) dropped \(effect.isDropped), \(state.count) cached\n" + log.joined(separator: "\n")
                    }
                }
            case 10, 11: // an edit of a cached entry starts
                guard model.users[key] != nil else { continue }
                let id = LoadID(nextEdit)
                nextEdit += 1
                log.append("edit(\(key)) \(id)")
                _ = state.update(key) { $0.apply(.edit(.started(id, AnyEdit(AddOne())))) }
                model.edits[key, default: []].append(id)
                expected = []
                actual = []
            case 12: // an edit in flight is rolled back; its end comes later, stale
                guard let ids = model.edits[key], let id = ids.randomElement(using: &random) else { continue }
                log.append("cancel(edit: \(id)) of \(key)")
                _ = state.update(key) { $0.cancel(edit: id) }
                model.edits[key]?.removeAll { $0 == id }
                rolledBack.append((key, id))
                expected = []
                actual = []
            default: // an edit ends: one in flight, or the stale end of one rolled back
                let end: EditAction<Int, TestError>
                let endKey: Int
                let isStale: Bool
                if let ids = model.edits[key], let id = ids.randomElement(using: &random), Bool.random(using: &random) {
                    end = [.confirmed(id), .failed(id, .offline), .cancelled(id)].randomElement(using: &random)!
                    (endKey, isStale) = (key, false)
                    model.edits[key]?.removeAll { $0 == id }
                } else if !rolledBack.isEmpty {
                    let index = Int.random(in: rolledBack.indices, using: &random)
                    end = .cancelled(rolledBack[index].id)
                    (endKey, isStale) = (rolledBack.remove(at: index).key, true)
                } else {
                    continue
                }
                // The last edit of an entry only it kept: its idle spell begins.
                var commands: [String] = []
                if model.users[endKey] == 0, !model.isEdited(endKey), !model.idle.contains(where: { $0.key == endKey }) {
                    let token = model.markIdle(endKey)
                    if model.users.count > model.capacity {
                        // Due to leave when its edit kept it: it goes first.
                        _ = model.collect(endKey)
                        commands = ["release"] + model.evict()
                    } else {
                        commands = model.startIdle(endKey, token: token)
                    }
                }
                if Bool.random(using: &random) {
                    log.append("\(end) of \(endKey)")
                    _ = state.update(endKey) { $0.apply(.edit(end)) }
                    actual = summary(state._book.editsSettled(endKey, capacity: model.capacity, collectAfter: model.collectAfter))
                    expected = commands
                } else {
                    log.append("reducer: \(end) of \(endKey)")
                    // Dropped only when stale and nothing else changed: not when the entry went idle.
                    let effect = reducer.reduce(into: &state, action: .entry(endKey, .edit(end)))
                    let isDropped = (isStale || model.users[endKey] == nil) && commands.isEmpty
                    guard effect.isDropped == isDropped else {
                        return "\(end) of \(endKey) dropped \(effect.isDropped), the model says \(isDropped)\n"
                            + log.joined(separator: "\n")
                    }
                }
            }
            guard expected == actual else {
                return "commands \(String(describing: actual)), the model says \(String(describing: expected))\n"
                    + log.joined(separator: "\n")
            }
            guard state.count == model.users.count, model.users.allSatisfy({ state.users(of: $0.key) == $0.value }) else {
                return "entries \(state) differ from the model \(model.users)\n" + log.joined(separator: "\n")
            }
            for key in model.users.keys where state[key]?.pendingEditIDs != model.edits[key] ?? [] {
                return "\(key)'s edits differ from the model's \(model.edits[key] ?? [])\n" + log.joined(separator: "\n")
            }
            for key in 0..<8 where state._book.idleToken(of: key) != model.idle.first(where: { $0.key == key })?.token {
                return "\(key)'s idle spell differs from the model's\n" + log.joined(separator: "\n")
            }
            guard state._book._idle.count <= 2 * state.count + state._book._idleHead + 65 else {
                return "the idle queue grew to \(state._book._idle.count)"
            }
            positions = positions.filter { model.users[$0.key] != nil } // evicted or collected: may come back elsewhere
            // The key this step used, every step; every key at the end.
            if let problem = positionProblem(key, in: state, isCached: model.users[key] != nil, positions: &positions) {
                return problem + "\n" + log.joined(separator: "\n")
            }
        }
        return storageProblem(state, keys: Array(model.users.keys), positions: &positions)
    }

    /// Checks that `key` is found exactly when cached, at a position holding
    /// it, and at the position it had when first found.
    static func positionProblem(_ key: Int, in state: State, isCached: Bool, positions: inout [Int: Int]) -> String? {
        let position = state._book.position(of: key)
        guard (position != nil) == isCached else { return "\(key) found at \(String(describing: position))" }
        guard let position else {
            positions[key] = nil
            return nil
        }
        guard state._book._keys[position] == key, state._book._isCached[position] else { return "\(key) at a free position" }
        guard positions[key, default: position] == position else { return "\(key) moved to \(position)" }
        positions[key] = position
        return nil
    }

    /// Checks the storage behind lookups against the keys the model caches.
    static func storageProblem(_ state: State, keys: [Int], positions: inout [Int: Int]) -> String? {
        for key in 0..<8 {
            if let problem = positionProblem(key, in: state, isCached: keys.contains(key), positions: &positions) { return problem }
        }
        let book = state._book
        let free = Set(book._free)
        guard free.count == book._free.count, free == Set(book._isCached.indices.filter { !book._isCached[$0] }) else {
            return "free positions \(book._free) for \(book._isCached)"
        }
        guard Set(state.keys) == Set(keys), state.entries.count == keys.count else { return "keys \(Array(state.keys))" }
        return nil
    }

    @Test("states caching the same keys are equal whatever the order the keys came in")
    func equalityIgnoresPositions() {
        let reducer = CacheReducer<Int, Int, TestError>(clock: LoadClock(TestClock()), staleAfter: .seconds(30)) { _ in
            LoadRequest { () async throws(TestError) in 0 }
        }
        var first = State()
        var second = State()
        for key in [1, 2, 3] { _ = reducer.reduce(into: &first, action: .subscribe(key, at: instant(ms: 0))) }
        for key in [3, 1, 2] { _ = reducer.reduce(into: &second, action: .subscribe(key, at: instant(ms: 0))) }
        #expect(first == second)
        _ = reducer.reduce(into: &second, action: .subscribe(2, at: instant(ms: 0)))
        #expect(first != second)
    }
}
