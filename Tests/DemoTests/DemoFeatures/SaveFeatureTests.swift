import AsyncState
import AsyncStateTesting
import DemoFeatures
import Testing

@Suite("Demo feature: save")
@MainActor
struct SaveFeatureTests {
    typealias Operation = Loadable<Int, DemoAPI.Failure>

    @Test("a double-tapped Save saves once: the first tap wins")
    func doubleTapSavesOnce() async {
        let harness = DemoHarness()
        let store = TestStore(initialState: SaveFeature.State(), reducer: SaveFeature.reducer(api: harness.api))
        store.send(.saveTapped)
        await store.receive(.operation(.save, .started(LoadID(1)))) {
            $0.revision = 2
            $0.operations[.save] = Operation(expecting: .loading, inFlightID: LoadID(1))
        }
        #expect(store.state.isActive(.save))
        store.send(.saveTapped) // ignored while the first save runs: no change, no load
        await harness.answer()
        await store.receive(.operation(.save, .finished(LoadID(1), 2))) {
            $0.operations[.save] = Operation(expecting: .success(value: 2), newestID: LoadID(1))
        }
        await store.finish()
        #expect(!store.state.isActive(.save))
    }

    @Test("save and delete run at the same time, each tracked on its own")
    func operationsRunTogether() async throws {
        let harness = DemoHarness()
        let store = TestStore(initialState: SaveFeature.State(), reducer: SaveFeature.reducer(api: harness.api))
        store.send(.saveTapped)
        await store.receive(.operation(.save, .started(LoadID(1)))) {
            $0.revision = 2
            $0.operations[.save] = Operation(expecting: .loading, inFlightID: LoadID(1))
        }
        store.send(.deleteTapped)
        await store.receive(.operation(.delete, .started(LoadID(2)))) {
            $0.operations[.delete] = Operation(expecting: .loading, inFlightID: LoadID(2))
        }
        #expect(store.state.isActive(.save) && store.state.isActive(.delete))
        await harness.clock.waitForSleepers(2)
        // Seed 7 draws the shorter latency for the delete, so it answers
        // first. The clock moves to each deadline in turn: woken together,
        // the two requests would resume on two threads and answer in either
        // order.
        harness.clock.advance(to: try #require(harness.clock.nextDeadline))
        await store.receive(.operation(.delete, .finished(LoadID(2), 1))) {
            $0.operations[.delete] = Operation(expecting: .success(value: 1), newestID: LoadID(2))
        }
        harness.clock.advance(to: try #require(harness.clock.nextDeadline))
        await store.receive(.operation(.save, .finished(LoadID(1), 2))) {
            $0.operations[.save] = Operation(expecting: .success(value: 2), newestID: LoadID(1))
        }
        await store.finish()
        #expect(store.state.operations[.save]?.value == 2)
        #expect(store.state.operations[.delete]?.value == 1)
    }
}
