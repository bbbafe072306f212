import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

/// A load that several callers share runs while any of them still waits for
/// it. Real tasks, driven by gates: a wrong implementation hangs instead of
/// returning, which the time limit turns into a failure.
@Suite("Shared loads: AsyncValue", .hangGuard)
@MainActor
struct SharedLoadTests {
    typealias Value = AsyncValue<Int, AnyError>

    @Test("the starter's task is cancelled: a joiner still gets the value (the issue's first reproduction)")
    func starterLeaves() async {
        let value = Value()
        let gate = Gate<Int>()
        let starter = await startCaller { await value.loadIfNeeded { try await gate.wait() } }
        await gate.waitForArrivals()
        let joiner = await startCaller {
            await value.loadIfNeeded { 99 }
            return value.value
        }
        #expect(value.callerCount == 2)

        starter.cancel()
        await starter.value
        #expect(value.isLoading, "the load goes on for the joiner")
        #expect(!gate.observedCancellation)
        #expect(value.callerCount == 1)

        gate.open(with: 1)
        #expect(await joiner.value == 1)
        #expect(value.state == .success(value: 1))
    }

    @Test("50 callers, every second one cancelled: all 25 remaining see the value (the issue's second reproduction)")
    func everySecondLeaves() async {
        let value = Value()
        let gate = Gate<Int>()
        let runs = ChangeCounter()
        var callers: [Task<Int?, Never>] = []
        for _ in 0..<50 {
            callers.append(
                await startCaller {
                    await value.loadIfNeeded {
                        runs.increment()
                        return try await gate.wait()
                    }
                    return value.value
                })
        }
        await gate.waitForArrivals()
        #expect(value.callerCount == 50)

        for index in stride(from: 0, to: 50, by: 2) { callers[index].cancel() }
        for index in stride(from: 0, to: 50, by: 2) {
            #expect(await callers[index].value == nil, "a withdrawn caller returns before the load ends")
        }
        #expect(value.callerCount == 25)
        #expect(!gate.observedCancellation)

        gate.open(with: 7)
        var sawValue = 0
        for index in stride(from: 1, to: 50, by: 2) where await callers[index].value == 7 { sawValue += 1 }
        #expect(sawValue == 25)
        #expect(runs.value == 1)
    }

    @Test("a joiner's task is cancelled: it returns at once and the starter still gets the value")
    func joinerLeaves() async {
        let value = Value()
        let gate = Gate<Int>()
        let starter = await startCaller {
            await value.load(overlap: .join) { try await gate.wait() }
            return value.value
        }
        await gate.waitForArrivals()
        let joiner = await startCaller { await value.load(overlap: .join) { 99 } }
        joiner.cancel()
        await joiner.value
        #expect(value.isLoading)
        #expect(value.callerCount == 1)
        gate.open(with: 3)
        #expect(await starter.value == 3)
    }

    @Test("the last caller to leave cancels the load: back to the previous value, never a failure")
    func lastLeaves() async {
        let value = Value(value: 1)
        let gate = Gate<Int>()
        let a = await startCaller { await value.load(overlap: .join) { try await gate.wait() } }
        await gate.waitForArrivals()
        let b = await startCaller { await value.load(overlap: .join) { 99 } }
        #expect(value.state == .refreshing(value: 1))
        a.cancel()
        await a.value
        #expect(value.isLoading)
        #expect(!gate.observedCancellation)
        b.cancel()
        await b.value
        #expect(gate.observedCancellation, "no caller remains: the work is cancelled")
        #expect(value.state == .success(value: 1))
        #expect(value.error == nil)
        #expect(value.callerCount == 0)
    }

    @Test("explicit cancel() cancels a shared load for every caller")
    func explicitCancel() async {
        let value = Value(value: 1)
        let gate = Gate<Int>()
        var callers: [Task<Void, Never>] = []
        callers.append(await startCaller { await value.load(overlap: .join) { try await gate.wait() } })
        await gate.waitForArrivals()
        for _ in 0..<2 { callers.append(await startCaller { await value.load(overlap: .join) { 99 } }) }
        value.cancel()
        #expect(value.state == .success(value: 1))
        for caller in callers { await caller.value }
        #expect(gate.observedCancellation)
        #expect(value.error == nil)
    }

    @Test("reset() releases every caller of a shared load")
    func resetReleases() async {
        let value = Value(value: 1)
        let gate = Gate<Int>()
        let starter = await startCaller { await value.load(overlap: .join) { try await gate.wait() } }
        await gate.waitForArrivals()
        let joiner = await startCaller { await value.load(overlap: .join) { 99 } }
        value.reset()
        await starter.value
        await joiner.value
        #expect(value.state == .notLoaded)
        #expect(gate.observedCancellation)
    }

    @Test("a caller whose task is already cancelled leaves at once; the load goes on for the others")
    func alreadyCancelledJoiner() async {
        let value = Value()
        let gate = Gate<Int>()
        let starter = await startCaller {
            await value.loadIfNeeded { try await gate.wait() }
            return value.value
        }
        await gate.waitForArrivals()
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await value.loadIfNeeded { 99 }
        }
        await late.value
        #expect(value.callerCount == 1)
        #expect(!gate.observedCancellation)
        gate.open(with: 5)
        #expect(await starter.value == 5)
    }

    @Test("a lone caller whose task is already cancelled cancels its own load")
    func alreadyCancelledStarter() async {
        let value = Value(value: 1)
        let gate = Gate<Int>()
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await value.loadIfNeeded { try await gate.wait() }
        }
        await late.value
        #expect(value.state == .success(value: 1))
        #expect(!value.isLoading)
    }

    @Test("a caller arriving after every caller left starts a new load instead of joining the cancelled one")
    func joinAfterAbandon() async {
        let value = Value()
        let first = Gate<Int>(), second = Gate<Int>()
        let runs = ChangeCounter()
        let leaving = await startCaller {
            await value.loadIfNeeded {
                runs.increment()
                return try await first.wait()
            }
        }
        await first.waitForArrivals()
        leaving.cancel()
        await leaving.value
        let arriving = await startCaller {
            await value.loadIfNeeded {
                runs.increment()
                return try await second.wait()
            }
            return value.value
        }
        await second.waitForArrivals()
        #expect(runs.value == 2)
        second.open(with: 2)
        #expect(await arriving.value == 2)
    }

    @Test("the last caller of a superseded load left running (cancellingEarlier: false) leaving cancels its work")
    func supersededLoadLeft() async {
        let value = Value()
        let earlier = Gate<Int>(), later = Gate<Int>()
        let first = await startCaller { await value.load { try await earlier.wait() } }
        await earlier.waitForArrivals()
        let second = await startCaller {
            await value.load(overlap: .latestWins(cancellingEarlier: false)) { try await later.wait() }
            return value.value
        }
        await later.waitForArrivals()
        #expect(!earlier.observedCancellation, "superseded, but its work runs to its end")
        first.cancel()
        await first.value
        #expect(earlier.observedCancellation, "nobody waits for it any more")
        #expect(value.isLoading, "the newer load is not affected")
        later.open(with: 2)
        #expect(await second.value == 2)
    }

    @Test("cancel() and reset() with nothing in flight change nothing")
    func cancelWithNothingRunning() async {
        let value = Value(value: 1)
        value.cancel()
        #expect(value.state == .success(value: 1))
        let fresh = Value()
        fresh.cancel()
        fresh.reset()
        #expect(fresh.state == .notLoaded)
        #expect(fresh.callerCount == 0)
    }
}

@Suite("Shared loads: OperationTracker", .hangGuard)
@MainActor
struct SharedOperationTests {
    enum Op: Hashable, Sendable { case sync }
    typealias Tracker = OperationTracker<Op, AnyError>

    @Test("the starting run's caller leaves: a joined run still ends with the value, and the leaver gets .cancelled")
    func starterLeaves() async {
        let tracker = Tracker()
        let gate = Gate<Int>()
        let starter = await startCaller { await tracker.run(.sync, overlap: .join) { try await gate.wait() } }
        await gate.waitForArrivals()
        let joiner = await startCaller { await tracker.run(.sync, overlap: .join) { 99 } }
        starter.cancel()
        #expect(await starter.value == .cancelled)
        #expect(tracker.isActive(.sync))
        gate.open(with: 1)
        #expect(await joiner.value == .success(1))
        #expect(!tracker.isActive(.sync))
    }

    @Test("every caller of a joined run leaves: the run is cancelled, not failed")
    func allLeave() async {
        let tracker = Tracker()
        let gate = Gate<Int>()
        let a = await startCaller { await tracker.run(.sync, overlap: .join) { try await gate.wait() } }
        await gate.waitForArrivals()
        let b = await startCaller { await tracker.run(.sync, overlap: .join) { 99 } }
        a.cancel()
        b.cancel()
        #expect(await a.value == .cancelled)
        #expect(await b.value == .cancelled)
        #expect(gate.observedCancellation)
        #expect(!tracker.isActive(.sync))
        #expect(tracker.error(for: .sync) == nil)
    }

    @Test("a joiner gets the failure of the run it joined")
    func joinedFailure() async {
        let tracker = Tracker()
        let gate = Gate<Int>()
        let starter = await startCaller { await tracker.run(.sync, overlap: .join) { try await gate.wait() } }
        await gate.waitForArrivals()
        let joiner = await startCaller { await tracker.run(.sync, overlap: .join) { 99 } }
        gate.fail(with: Offline())
        #expect(await starter.value == .failure(AnyError(Offline())))
        #expect(await joiner.value == .failure(AnyError(Offline())))
    }

    @Test("a joiner whose result type differs from the joined run's gets .ignored")
    func joinedOtherType() async {
        let tracker = Tracker()
        let gate = Gate<Int>()
        let starter = await startCaller { await tracker.run(.sync, overlap: .join) { try await gate.wait() } }
        await gate.waitForArrivals()
        let joiner = await startCaller { await tracker.run(.sync, overlap: .join) { "text" } }
        gate.open(with: 1)
        #expect(await starter.value == .success(1))
        #expect(await joiner.value == .ignored)
    }
}

@Suite("Shared loads: a reducer's .join", .hangGuard)
@MainActor
struct ReducerJoinTests {
    typealias FeatureStore = Store<ProfileFeature.State, ProfileFeature.Action>

    @Test("cancelling a joiner's StoreTask returns at once and never cancels the load")
    func joinerLeaves() async {
        let store = FeatureStore(initialState: ProfileFeature.State(), reducer: ProfileFeature())
        let gate = Gate<Int>()
        let starting = store.send(.load(gate, .join))
        await gate.waitForArrivals()
        let joiner = await startCaller { await store.send(.load(Gate(), .join)).finish() }
        joiner.cancel()
        await joiner.value
        #expect(store.profile.isLoading)
        #expect(!gate.observedCancellation)
        gate.open(with: 4)
        await starting.finish()
        #expect(store.profile.state == .success(value: 4))
    }

    @Test("the starting StoreTask discarded, the joiner withdrawn: the store's load goes on")
    func starterNeverWaited() async {
        let store = FeatureStore(initialState: ProfileFeature.State(), reducer: ProfileFeature())
        let gate = Gate<Int>()
        store.send(.load(gate, .join))
        await gate.waitForArrivals()
        let joiner = await startCaller { await store.send(.load(Gate(), .join)).finish() }
        joiner.cancel()
        await joiner.value
        #expect(!gate.observedCancellation)
        let second = await startCaller {
            await store.send(.load(Gate(), .join)).finish()
            return store.profile.value
        }
        gate.open(with: 6)
        #expect(await second.value == 6, "a later joiner still gets the value")
    }

    @Test("cancelling the StoreTask that started the load cancels it for every joiner: the store's load, the starter's effect")
    func starterCancels() async {
        let store = FeatureStore(initialState: ProfileFeature.State(), reducer: ProfileFeature())
        let gate = Gate<Int>()
        let starter = await startCaller { await store.send(.load(gate, .join)).finish() }
        await gate.waitForArrivals()
        let joiner = await startCaller { await store.send(.load(Gate(), .join)).finish() }
        starter.cancel()
        await starter.value
        await joiner.value
        #expect(gate.observedCancellation)
        #expect(store.profile.state == .notLoaded)
    }

    @Test("a join with nothing in flight starts the load itself")
    func joinStarts() async {
        let store = FeatureStore(initialState: ProfileFeature.State(), reducer: ProfileFeature())
        let gate = Gate<Int>()
        gate.open(with: 8)
        await store.send(.load(gate, .join)).finish()
        #expect(store.profile.state == .success(value: 8))
    }
}
