import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

@Suite("Store: stress")
@MainActor
struct StoreStressTests {
    @Test(
        "10,000 overlapping loads (2,000 under CI's thread sanitizer) finishing in shuffled order: the last started wins",
        arguments: [
            OverlapPolicy.latestWins(cancellingEarlier: false), .latestWins,
        ])
    func overlappingLoads(policy: OverlapPolicy) async {
        // Under the sanitizer 10,000 took 157 s, the length of that whole run.
        let count = RandomizedRun.isSanitized ? 2_000 : 10_000
        let (store, log) = makeProfileStore()
        let gates = (0..<count).map { _ in Gate<Int>() }
        var tasks: [StoreTask] = []
        tasks.reserveCapacity(count)
        // The main actor is shared with every other main-actor test; give it
        // back now and then, as the model checks do with the pool.
        var slice = TimeSlice()
        for gate in gates {
            tasks.append(store.send(.load(gate, policy)))
            await slice.yieldIfSpent()
        }
        #expect(store.profile.inFlightID == LoadID(UInt64(count)))

        var random = SplitMix64(seed: 2026)
        for index in (0..<count).shuffled(using: &random) {
            await slice.yieldIfSpent()
            if Bool.random(using: &random), index != count - 1 {
                tasks[index].cancel()
            }
            gates[index].open(with: index)
        }
        for task in tasks { await task.finish() }

        #expect(store.profile.state == .success(value: count - 1))
        #expect(store.runningEffectCount == 0)
        #expect(log.dropped.count == count - 1, "every superseded load's report is dropped")
        #expect(!log.dropped.contains { $0.hasSuffix("(#\(count)))") })
    }
}
