import AsyncState
import AsyncStateTesting
import DemoFeatures
import Testing

@Suite("Demo feature: search")
@MainActor
struct SearchFeatureTests {
    typealias Results = Loadable<SearchResults, DemoAPI.Failure>

    @Test("typing waits out the debounce, then searches once for the query")
    func debouncedSearch() async {
        let harness = DemoHarness()
        let store = TestStore(
            initialState: SearchFeature.State(),
            reducer: SearchFeature(api: harness.api, clock: harness.clock, debounce: .milliseconds(150)))
        store.send(.queryChanged("s")) { $0.query = "s" }
        await harness.clock.waitForSleepers(1)
        store.send(.queryChanged("swift")) { $0.query = "swift" } // replaces the first wait
        await harness.clock.waitForSleepers(1)
        harness.clock.advance(by: .milliseconds(150))
        await store.receive(.debounced("swift"))
        await store.receive(.results(.started(LoadID(1)))) {
            $0.results = Results(expecting: .loading, inFlightID: LoadID(1))
        }
        await harness.answer()
        let hits = SearchResults(query: "swift", hits: ["swift", "swiftui"])
        await store.receive(.results(.finished(LoadID(1), hits))) {
            $0.results = Results(expecting: .success(value: hits), newestID: LoadID(1))
        }
        await store.finish()
    }

    @Test("a slow answer to an old query arrives late and is dropped")
    func lateAnswerDropped() async {
        // With a 1 s base latency, "sw" answers after 1–3 s and "swift" after
        // 0.25–0.75 s, so the newer search answers first whatever the seed draws.
        let harness = DemoHarness(baseLatency: .seconds(1))
        let store = TestStore(
            initialState: SearchFeature.State(),
            reducer: SearchFeature(api: harness.api, clock: harness.clock, debounce: .milliseconds(150)))
        store.send(.queryChanged("sw")) { $0.query = "sw" }
        await harness.clock.waitForSleepers(1)
        harness.clock.advance(by: .milliseconds(150))
        await store.receive(.debounced("sw"))
        await store.receive(.results(.started(LoadID(1)))) {
            $0.results = Results(expecting: .loading, inFlightID: LoadID(1))
        }
        store.send(.queryChanged("swift")) { $0.query = "swift" }
        await harness.clock.waitForSleepers(2) // the "sw" search and the debounce
        harness.clock.advance(by: .milliseconds(150))
        await store.receive(.debounced("swift"))
        await store.receive(.results(.started(LoadID(2)))) {
            $0.results = Results(expecting: .loading, inFlightID: LoadID(2))
        }
        await harness.clock.waitForSleepers(2)
        harness.clock.advance(by: .milliseconds(800))
        let newest = SearchResults(query: "swift", hits: ["swift", "swiftui"])
        await store.receive(.results(.finished(LoadID(2), newest))) {
            $0.results = Results(expecting: .success(value: newest), newestID: LoadID(2))
        }
        harness.clock.advance(by: .seconds(3))
        let stale = SearchResults(query: "sw", hits: ["swift", "swiftui", "switch", "swim", "sweet", "sword"])
        await store.receive(.results(.finished(LoadID(1), stale))) // dropped: no change
        await store.finish()
        #expect(store.state.results.value == newest)
    }
}
