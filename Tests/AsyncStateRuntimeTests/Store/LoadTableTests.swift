import AsyncStateControls
import AsyncStateTestSupport
import Testing

@testable import AsyncState

/// The table of loads by ID: the newest in a slot, the rest in a dictionary —
/// checked against a plain dictionary.
@Suite("LoadTable: the newest load in a slot of its own")
struct LoadTableTests {
    /// Random starts (always a new, larger ID), ends of running and absent
    /// IDs, and lookups; after each step every ID agrees with the model.
    static func play(seed: UInt64) -> String? {
        var random = SplitMix64(seed: seed)
        var loads = LoadTable<RunningLoad>()
        var model: [LoadID: RunningLoad] = [:]
        var next: UInt64 = 1
        for step in 0..<200 {
            // Starts outnumber ends at first, then ends catch up, so the
            // table both grows and empties.
            if Int.random(in: 0..<3, using: &random) == 0 || model.isEmpty {
                let load = RunningLoad(token: Int(next) * 10, cancelsEarlier: Bool.random(using: &random))
                loads.insert(load, forKey: LoadID(next))
                model[LoadID(next)] = load
                next += 1
            } else {
                // Mostly a running ID (the newest half the time), sometimes one that ended or never ran.
                let id: LoadID =
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: LoadID(next - 1)
                    case 1: LoadID(UInt64.random(in: 0...(next + 1), using: &random))
                    default: model.keys.randomElement(using: &random)!
                    }
                guard loads.removeValue(forKey: id) == model.removeValue(forKey: id) else { return "step \(step): removing \(id)" }
            }
            guard loads.isEmpty == model.isEmpty, loads.count == model.count else {
                return "step \(step): \(loads.count) loads, expected \(model.count)"
            }
            for raw in 0...(next + 1) where loads[LoadID(raw)] != model[LoadID(raw)] {
                let found = String(describing: loads[LoadID(raw)])
                return "step \(step): #\(raw) is \(found), expected \(String(describing: model[LoadID(raw)]))"
            }
        }
        return nil
    }

    @Test("random starts, ends and lookups agree with a dictionary")
    func agreesWithDictionary() {
        for seed: UInt64 in 0..<100 {
            if let problem = Self.play(seed: seed) {
                Issue.record("seed \(seed): \(problem)")
                return
            }
        }
    }

    @Test("one load at a time never reaches the dictionary")
    func oneAtATimeStaysInTheSlot() {
        var loads = LoadTable<RunningLoad>()
        for raw: UInt64 in 1...100 {
            loads.insert(RunningLoad(token: Int(raw), cancelsEarlier: true), forKey: LoadID(raw))
            #expect(loads.removeValue(forKey: LoadID(raw))?._token == Int(raw))
            #expect(loads._older.isEmpty)
        }
        #expect(loads.isEmpty)
    }
}
