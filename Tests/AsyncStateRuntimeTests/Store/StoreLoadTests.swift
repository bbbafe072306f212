import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

@Suite("Store: loads")
@MainActor
struct StoreLoadTests {
    @Test(".started is processed inside the send that started the load", arguments: EffectStart.allCases)
    func startedSynchronously(start: EffectStart) async {
        let (store, log) = makeProfileStore(start)
        let gate = Gate<Int>()
        let task = store.send(.load(gate))
        #expect(store.profile.state == .loading)
        #expect(store.profile.inFlightID == LoadID(1))
        #expect(log.lines == ["load -> notLoaded", "profile(started(#1)) -> loading (#1 in flight)"])
        gate.open(with: 7)
        await task.finish()
        #expect(store.profile.state == .success(value: 7))
        #expect(store.runningEffectCount == 0)
    }

    @Test("load A then B, A answers last: B's value stays and A's result is dropped", arguments: EffectStart.allCases)
    func lastStartedWins(start: EffectStart) async {
        let (store, log) = makeProfileStore(start)
        let a = Gate<Int>(), b = Gate<Int>()
        let taskA = store.send(.load(a))
        let taskB = store.send(.load(b, .latestWins(cancellingEarlier: false)))
        b.open(with: 2)
        await taskB.finish()
        a.open(with: 1)
        await taskA.finish()
        #expect(store.profile.state == .success(value: 2))
        #expect(log.dropped == ["profile(finished(#1, 1))"])
        #expect(!a.observedCancellation)
    }

    @Test("a superseded load's task is cancelled and its operation observes it", arguments: EffectStart.allCases)
    func supersededIsCancelled(start: EffectStart) async {
        let (store, log) = makeProfileStore(start)
        let a = Gate<Int>(), b = Gate<Int>()
        let taskA = store.send(.load(a))
        await a.waitForArrivals()
        store.send(.load(b))
        #expect(a.observedCancellation)
        await taskA.finish()
        #expect(log.dropped == ["profile(cancelled(#1))"])
        #expect(store.profile.state == .loading)
        #expect(store.profile.inFlightID == LoadID(2))
        b.open(with: 2)
    }

    @Test("a superseded load that ignores cancellation still cannot overwrite the newer result", arguments: EffectStart.allCases)
    func supersededIgnoringCancellation(start: EffectStart) async {
        let (store, log) = makeProfileStore(start)
        let a = Gate<Int>(), b = Gate<Int>()
        let taskA = store.send(.loadIgnoringCancellation(a))
        let taskB = store.send(.load(b))
        b.open(with: 2)
        await taskB.finish()
        a.open(with: 1)
        await taskA.finish()
        #expect(store.profile.state == .success(value: 2))
        #expect(log.dropped == ["profile(cancelled(#1))"])
    }

    @Test("cancelling the only load returns to .notLoaded, with no error", arguments: EffectStart.allCases)
    func cancelOnlyLoad(start: EffectStart) async {
        let (store, log) = makeProfileStore(start)
        let gate = Gate<Int>()
        let task = store.send(.load(gate))
        await gate.waitForArrivals()
        store.send(.cancel)
        #expect(store.profile.state == .notLoaded)
        #expect(gate.observedCancellation)
        await task.finish()
        #expect(store.profile.state == .notLoaded)
        #expect(log.dropped == ["profile(cancelled(#1))"])
    }

    @Test("cancelling a reload returns to the previous value", arguments: EffectStart.allCases)
    func cancelReload(start: EffectStart) async {
        let (store, _) = makeProfileStore(start)
        let first = Gate<Int>()
        first.open(with: 5)
        await store.send(.load(first)).finish()
        let task = store.send(.load(Gate<Int>()))
        #expect(store.profile.state == .refreshing(value: 5))
        task.cancel()
        await task.finish()
        #expect(store.profile.state == .success(value: 5))
    }

    @Test("cancelling after a failed refresh returns to the settled state", arguments: EffectStart.allCases)
    func cancelAfterFailedRefresh(start: EffectStart) async {
        let (store, _) = makeProfileStore(start)
        let first = Gate<Int>()
        first.open(with: 5)
        await store.send(.load(first)).finish()
        await store.send(.loadFailing(.offline)).finish()
        #expect(store.profile.state == .error(error: .offline))
        let task = store.send(.load(Gate<Int>()))
        #expect(store.profile.state == .refreshing(value: 5))
        task.cancel()
        await task.finish()
        #expect(store.profile.state == .error(error: .offline))
        #expect(store.profile.value == 5)
    }

    @Test("cancelling the calling task becomes .cancelled, never .failed", arguments: EffectStart.allCases)
    func taskCancellation(start: EffectStart) async {
        let (store, log) = makeProfileStore(start)
        let gate = Gate<Int>()
        let task = store.send(.load(gate))
        let waiter = Task { await task.finish() }
        await gate.waitForArrivals()
        waiter.cancel()
        await waiter.value
        #expect(store.profile.state == .notLoaded)
        #expect(log.lines.last == "profile(cancelled(#1)) -> notLoaded")
    }

    @Test("a typed error becomes .failed with that error", arguments: EffectStart.allCases)
    func typedFailure(start: EffectStart) async {
        let (store, _) = makeProfileStore(start)
        await store.send(.loadFailing(.timedOut)).finish()
        #expect(store.profile.state == .error(error: .timedOut))
    }

    @Test("an untyped error goes through the feature's mapping", arguments: EffectStart.allCases)
    func mappedFailure(start: EffectStart) async {
        let (store, _) = makeProfileStore(start)
        struct Unexpected: Error {}
        let gate = Gate<Int>()
        gate.fail(with: Unexpected())
        await store.send(.load(gate)).finish()
        #expect(store.profile.state == .error(error: .offline))
    }

    @Test("an operation throwing CancellationError by itself becomes .cancelled", arguments: EffectStart.allCases)
    func cancellationErrorIsNotFailure(start: EffectStart) async {
        let (store, log) = makeProfileStore(start)
        await store.send(.loadThrowingCancellation).finish()
        #expect(store.profile.state == .notLoaded)
        #expect(log.lines.last == "profile(cancelled(#1)) -> notLoaded")
    }

    @Test("reset abandons the load in flight and cancels its work", arguments: EffectStart.allCases)
    func reset(start: EffectStart) async {
        let (store, log) = makeProfileStore(start)
        let gate = Gate<Int>()
        let task = store.send(.load(gate))
        await gate.waitForArrivals()
        store.send(.reset)
        #expect(gate.observedCancellation)
        await task.finish()
        #expect(store.profile.state == .notLoaded)
        #expect(log.dropped == ["profile(cancelled(#1))"])
    }

    @Test("load IDs count up from the store's first ID", arguments: EffectStart.allCases)
    func firstLoadID(start: EffectStart) async {
        let store = Store(initialState: ProfileFeature.State(), reducer: ProfileFeature(), firstLoadID: LoadID(41))
        store._effectStart = start
        let gate = Gate<Int>()
        gate.open(with: 1)
        await store.send(.load(gate)).finish()
        await store.send(.load(gate)).finish()
        #expect(store.profile.newestID == LoadID(42))
    }

    @Test("a first load ID past 2^63 − 1, from which the IDs could wrap, is refused with a message; the largest allowed is not")
    func firstLoadIDTooLarge() {
        #expect(LoadID.problem(ofFirst: LoadID(UInt64(Int64.max))) == nil)
        #expect(
            LoadID.problem(ofFirst: LoadID(UInt64(Int64.max) + 1))
                == "A store's first load ID, #9223372036854775808, is past #9223372036854775807 (2^63 − 1): its IDs would wrap to #0 and every load from then on be dropped as older. Number loads from a smaller ID, or host a loadable that records smaller ones."
        )
    }
}
