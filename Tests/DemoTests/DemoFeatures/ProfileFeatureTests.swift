import AsyncState
import AsyncStateTesting
import DemoFeatures
import Testing

@Suite("Demo feature: profile")
@MainActor
struct ProfileFeatureTests {
    typealias Profile = Loadable<String, DemoAPI.Failure>

    @Test("appearing loads the profile: skeleton, then the name")
    func appearLoads() async {
        let harness = DemoHarness()
        let store = TestStore(initialState: ProfileFeature.State(), reducer: ProfileFeature(api: harness.api))
        store.send(.appeared) { $0.visits = 1 }
        await store.receive(.profile(.started(LoadID(1)))) {
            $0.profile = Profile(expecting: .loading, inFlightID: LoadID(1))
        }
        await harness.answer()
        await store.receive(.profile(.finished(LoadID(1), "Lee Wong · Singapore"))) {
            $0.profile = Profile(expecting: .success(value: "Lee Wong · Singapore"), newestID: LoadID(1))
        }
        await store.finish()
    }

    @Test("cancelling a reload returns to the name shown, never an error")
    func cancelReload() async {
        let harness = DemoHarness()
        var loaded = ProfileFeature.State()
        loaded.visits = 1
        loaded.profile = Profile(expecting: .success(value: "Lee Wong · Singapore"), newestID: LoadID(1))
        let store = TestStore(initialState: loaded, reducer: ProfileFeature(api: harness.api), firstLoadID: LoadID(2))
        store.send(.reloadTapped) { $0.visits = 2 }
        await store.receive(.profile(.started(LoadID(2)))) {
            $0.profile = Profile(
                expecting: .refreshing(value: "Lee Wong · Singapore"),
                settledState: .success(value: "Lee Wong · Singapore"),
                inFlightID: LoadID(2))
        }
        await harness.clock.waitForSleepers(1)
        store.send(.cancelTapped) {
            $0.profile = Profile(expecting: .success(value: "Lee Wong · Singapore"), newestID: LoadID(2))
        }
        // The cancelled request still reports, and is dropped: it is no longer in flight.
        await store.receive(.profile(.cancelled(LoadID(2))))
        await store.finish()
        #expect(store.state.profile.error == nil)
    }

    @Test("a failed reload keeps the name and adds the error")
    func failedReloadKeepsName() async {
        let harness = DemoHarness()
        var loaded = ProfileFeature.State()
        loaded.visits = 1
        loaded.profile = Profile(expecting: .success(value: "Lee Wong · Singapore"), newestID: LoadID(1))
        let store = TestStore(initialState: loaded, reducer: ProfileFeature(api: harness.api), firstLoadID: LoadID(2))
        harness.network.setOffline(true)
        store.send(.reloadTapped) { $0.visits = 2 }
        await store.receive(.profile(.started(LoadID(2)))) {
            $0.profile = Profile(
                expecting: .refreshing(value: "Lee Wong · Singapore"),
                settledState: .success(value: "Lee Wong · Singapore"),
                inFlightID: LoadID(2))
        }
        await harness.answer()
        await store.receive(.profile(.failed(LoadID(2), .offline))) {
            $0.profile = Profile(
                expecting: .error(error: .offline), value: "Lee Wong · Singapore", newestID: LoadID(2))
        }
        await store.finish()
    }
}
