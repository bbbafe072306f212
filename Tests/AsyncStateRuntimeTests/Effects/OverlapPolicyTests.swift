import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

/// `Loadable.load(_:overlap:…)`: what a start does while another load of the
/// same resource is in flight, for each policy.
@Suite("Overlap policies in reducers")
@MainActor
struct OverlapPolicyTests {
    /// Starts a load under `policy` while load #1 is in flight, and returns
    /// what became of the two: the final state, the IDs ever started, and
    /// whether #1's operation saw cancellation.
    func startWhileLoading(_ policy: OverlapPolicy) async -> (state: AsyncState<Int, TestError>, newest: LoadID?, firstCancelled: Bool) {
        let (store, _) = makeProfileStore()
        let first = Gate<Int>(), second = Gate<Int>()
        let firstTask = store.send(.load(first))
        await first.waitForArrivals()
        let secondTask = store.send(.load(second, policy))
        second.open(with: 2)
        first.open(with: 1)
        await secondTask.finish()
        await firstTask.finish()
        return (store.profile.state, store.profile.newestID, first.observedCancellation)
    }

    @Test(
        "a start while a load is in flight",
        arguments: [
            // policy, state after both answer, newest ID started, first load's work cancelled
            (OverlapPolicy.latestWins, AsyncState<Int, TestError>.success(value: 2), LoadID(2), true),
            (.latestWins(cancellingEarlier: false), .success(value: 2), LoadID(2), false),
            (.firstWins, .success(value: 1), LoadID(1), false),
            (.join, .success(value: 1), LoadID(1), false),
        ])
    func whileLoading(policy: OverlapPolicy, state: AsyncState<Int, TestError>, newest: LoadID, cancelled: Bool) async {
        let outcome = await startWhileLoading(policy)
        #expect(outcome.state == state)
        #expect(outcome.newest == newest)
        #expect(outcome.firstCancelled == cancelled)
    }

    @Test(
        "with nothing in flight every policy starts a load",
        arguments: [OverlapPolicy.latestWins, .latestWins(cancellingEarlier: false), .firstWins, .join])
    func whileSettled(policy: OverlapPolicy) async {
        let (store, _) = makeProfileStore()
        let gate = Gate<Int>()
        let task = store.send(.load(gate, policy))
        #expect(store.profile.inFlightID == LoadID(1))
        gate.open(with: 5)
        await task.finish()
        #expect(store.profile.state == .success(value: 5))
    }

    @Test("a joined send's task waits for the load in flight")
    func joinWaits() async {
        let (store, _) = makeProfileStore()
        let first = Gate<Int>()
        let firstTask = store.send(.load(first))
        let joined = store.send(.load(Gate<Int>(), .join))
        #expect(!joined.isEmpty)
        first.open(with: 3)
        await joined.finish()
        #expect(store.profile.state == .success(value: 3))
        await firstTask.finish()
    }

    @Test("cancelling a joined send's task does not cancel the shared load")
    func joinerCancelled() async {
        let (store, _) = makeProfileStore()
        let first = Gate<Int>()
        let firstTask = store.send(.load(first))
        await first.waitForArrivals()
        let joined = store.send(.load(Gate<Int>(), .join))
        joined.cancel()
        #expect(!first.observedCancellation)
        #expect(store.profile.isLoading)
        first.open(with: 4)
        await firstTask.finish()
        await joined.finish()
        #expect(store.profile.state == .success(value: 4))
    }

    @Test("a first-wins start while loading starts nothing at all")
    func firstWinsStartsNothing() async {
        let (store, log) = makeProfileStore()
        let first = Gate<Int>()
        let firstTask = store.send(.load(first))
        let ignored = store.send(.load(Gate<Int>(), .firstWins))
        #expect(ignored.isEmpty)
        #expect(store.runningEffectCount == 1)
        first.open(with: 1)
        await firstTask.finish()
        #expect(log.dropped.isEmpty)
    }

    @Test("policies print as written in code")
    func descriptions() {
        #expect(
            [OverlapPolicy.latestWins, .latestWins(cancellingEarlier: false), .latestWins(cancellingEarlier: true), .firstWins, .join]
                .map(\.description) == ["latestWins", "latestWins(cancellingEarlier: false)", "latestWins", "firstWins", "join"])
    }
}
