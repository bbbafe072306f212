import AsyncState
import AsyncStateTesting
import Testing

/// State sequences of a real feature, compared with the committed files in
/// `__Snapshots__/FeatureSnapshotTests/`.
@Suite("Feature snapshots")
@MainActor
struct FeatureSnapshotTests {
    @Test("refresh keeps the content on screen while it reloads")
    func refresh() async {
        let gates = GateQueue(count: 2)
        let store = Store(initialState: ProfileScreen.State(), reducer: ProfileScreen(gates: gates))
        await assertStateSequence(of: store, named: "refresh") {
            gates[0].open(with: "Lee")
            await store.send(.refresh).finish()
            let reload = store.send(.refresh)
            gates[1].open(with: "Lee Wong")
            await reload.finish()
        }
    }

    @Test("a race: the earlier load answers last and is dropped as stale")
    func race() async {
        let gates = GateQueue(count: 2)
        let store = Store(initialState: ProfileScreen.State(), reducer: ProfileScreen(gates: gates))
        await assertStateSequence(of: store, named: "race-stale-drop") {
            let first = store.send(.refresh)
            let second = store.send(.refreshKeepingEarlier)
            gates[1].open(with: "B")
            await second.finish()
            gates[0].open(with: "A")
            await first.finish()
        }
    }

    @Test("cancelling a reload returns to the previous value, never an error")
    func cancellation() async {
        let gates = GateQueue(count: 2)
        let store = Store(initialState: ProfileScreen.State(), reducer: ProfileScreen(gates: gates))
        await assertStateSequence(of: store, named: "cancellation") {
            gates[0].open(with: "Lee")
            await store.send(.refresh).finish()
            let reload = store.send(.refresh)
            store.send(.cancel)
            await reload.finish()
        }
    }
}
