import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

@Suite("Freshness: invalidation in a store")
@MainActor
struct LoadableFreshnessStoreTests {
    // Changed by design: the invalidation no longer lets the load it overtook
    // settle first. The reducer reloads in the same step, which supersedes it
    // at once (TanStack Query's `cancelRefetch`).
    @Test("an invalidation during a load supersedes it at once: its work is cancelled and its result never shows")
    func invalidationDuringLoad() async {
        let (store, _, gates, log) = makeStampedStore()
        let gates2 = gates.prepare(2)
        let first = store.send(.load(.latestWins))
        await gates2[0].waitForArrivals()
        let reload = store.send(.invalidate)
        #expect(store.user == Loadable(expecting: .loading, inFlightID: LoadID(2), invalidatedBefore: LoadID(1)))
        await first.finish()
        #expect(gates2[0].observedCancellation)
        gates2[0].open(with: 1)
        #expect(store.user.inFlightID == LoadID(2))
        #expect(
            log.lines == [
                "load(latestWins) -> notLoaded",
                "user(started(#1)) -> loading (#1 in flight)",
                "invalidate -> loading (#1 in flight) (invalidated)",
                "user(started(#2)) -> loading (#2 in flight) (invalidated)",
                "user(cancelled(#1)) -> loading (#2 in flight) (invalidated) [dropped]",
            ])
        gates2[1].open(with: 2)
        await reload.finish()
        #expect(store.user == Loadable(expecting: .success(value: 2), newestID: LoadID(2), settledAt: instant(ms: 0)))
        #expect(!log.lines.contains { $0.contains("finished(#1") })
    }

    @Test("an invalidation before anything loaded starts the first load, and only it")
    func loadAfterInvalidation() async {
        let (store, _, gates, log) = makeStampedStore()
        let gate = gates.prepare(1)[0]
        let task = store.send(.invalidate)
        #expect(store.user.inFlightID == LoadID(1))
        gate.open(with: 1)
        await task.finish()
        #expect(store.user == Loadable(expecting: .success(value: 1), newestID: LoadID(1), settledAt: instant(ms: 0)))
        #expect(gates.taken.count == 1)
        #expect(!log.lines.contains { $0.contains("#2") })
    }

    @Test("a joiner does not join a load an invalidation has overtaken: it starts a fresh one")
    func joinerSkipsOvertaken() async {
        let (store, _, gates, _) = makeStampedStore()
        let prepared = gates.prepare(2)
        let first = store.send(.load(.latestWins))
        store.send(.load(.join))
        #expect(store.user.inFlightID == LoadID(1)) // joined: not overtaken
        #expect(gates.taken.count == 1)
        store.send(.markStale)
        let second = store.send(.load(.join))
        #expect(store.user.inFlightID == LoadID(2)) // overtaken: a fresh load
        await first.finish()
        store.send(.load(.firstWins))
        #expect(store.user.inFlightID == LoadID(2)) // #2 is not overtaken: first wins
        #expect(gates.taken.count == 2)
        prepared[1].open(with: 2)
        await second.finish()
        #expect(store.user.value == 2)
        #expect(!store.user.isInvalidated)
    }

    // From mutation testing: `.firstWins` yielding to an overtaken load
    // broke no test.
    @Test("a first-wins start does not yield to a load an invalidation has overtaken: it starts a fresh one")
    func firstWinsSkipsOvertaken() async {
        let (store, _, gates, _) = makeStampedStore()
        let prepared = gates.prepare(2)
        let first = store.send(.load(.latestWins))
        store.send(.load(.firstWins))
        #expect(store.user.inFlightID == LoadID(1)) // not overtaken: first wins
        store.send(.markStale)
        let second = store.send(.load(.firstWins))
        #expect(store.user.inFlightID == LoadID(2)) // overtaken: a fresh load
        #expect(gates.taken.count == 2)
        await first.finish()
        prepared[1].open(with: 2)
        await second.finish()
        #expect(store.user.value == 2)
        #expect(!store.user.isInvalidated)
    }

    @Test("loadIfNeeded joins a load in flight, and supersedes one an invalidation has overtaken")
    func loadIfNeededAndOvertaken() async {
        let (store, clock, gates, _) = makeStampedStore()
        let prepared = gates.prepare(2)
        let first = store.send(.load(.latestWins))
        store.send(.becameActive(LoadClock.Instant(offset: clock.now.offset)))
        #expect(store.user.inFlightID == LoadID(1))
        store.send(.markStale)
        let second = store.send(.becameActive(LoadClock.Instant(offset: clock.now.offset)))
        #expect(store.user.inFlightID == LoadID(2))
        await first.finish()
        prepared[1].open(with: 2)
        await second.finish()
        #expect(store.user.value == 2 && !store.user.isInvalidated)
    }

    @Test("the settle time is the clock's time when the result arrives, read by the effect")
    func settleTimeFromClock() async {
        let (store, clock, gates, _) = makeStampedStore()
        let gate = gates.prepare(1)[0]
        let task = store.send(.load(.latestWins))
        clock.advance(by: .seconds(5))
        gate.open(with: 1)
        await task.finish()
        #expect(store.user.settledAt == LoadClock.Instant(offset: .seconds(5)))
    }

    @Test("a trigger reloads a stale value and leaves a fresh one alone")
    func triggerReloadsStale() async {
        let (store, clock, gates, _) = makeStampedStore(maxAge: .seconds(60))
        let gate = gates.prepare(1)[0]
        gate.open(with: 1)
        await store.send(.load(.latestWins)).finish()
        clock.advance(by: .seconds(59))
        #expect(store.send(.becameActive(LoadClock.Instant(offset: clock.now.offset))).isEmpty)
        clock.advance(by: .seconds(1))
        #expect(!store.send(.becameActive(LoadClock.Instant(offset: clock.now.offset))).isEmpty)
        #expect(store.user.isLoading)
    }
}

@Suite("Freshness: polling and refetch triggers")
@MainActor
struct LoadablePollingTests {
    @Test("a poll ticks every interval, skips a tick while its load is in flight, and stops when asked")
    func pollsAndStops() async {
        let (store, clock, gates, log) = makeStampedStore()
        let gate = gates.prepare(1)[0]
        store.send(.startPolling(.seconds(10)))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        await gate.waitForArrivals()
        #expect(store.user.inFlightID == LoadID(1))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10)) // #1 still in flight: this tick starts nothing
        await clock.waitForSleepers(1) // the poll sent its tick and sleeps again
        #expect(log.lines.filter { $0.hasPrefix("pollTick") }.count == 2)
        #expect(store.user.inFlightID == LoadID(1))
        #expect(gates.taken.count == 1)
        gate.open(with: 1)
        await yieldUntil { !store.user.isLoading }
        #expect(store.user.value == 1)
        store.send(.stopPolling)
        #expect(clock.sleeperCount == 0)
        await yieldUntil { store.runningEffectCount == 0 }
        #expect(store.runningEffectCount == 0)
    }

    @Test("starting a poll again replaces the running one: never two")
    func neverStacks() async {
        let (store, clock, _, _) = makeStampedStore()
        store.send(.startPolling(.seconds(10)))
        store.send(.startPolling(.seconds(10)))
        await clock.waitForSleepers(1)
        await yieldUntil { store.runningEffectCount == 1 }
        #expect(store.runningEffectCount == 1)
        #expect(clock.sleeperCount == 1)
        store.send(.stopPolling)
    }

    @Test("releasing the store stops its poll")
    func releaseStops() async {
        let clock: TestClock
        weak var released: Store<StampedFeature.State, StampedFeature.Action>?
        do {
            let (store, storeClock, _, _) = makeStampedStore()
            clock = storeClock
            released = store
            store.send(.startPolling(.seconds(10)))
            await clock.waitForSleepers(1)
        }
        #expect(released == nil)
        #expect(clock.sleeperCount == 0)
    }

    @Test("trigger actions from an injected sequence reload a stale value; a sequence that ends just ends")
    func triggerSequenceEnds() async {
        let (store, clock, gates, log) = makeStampedStore(maxAge: .seconds(60))
        let (triggers, continuation) = AsyncThrowingStream<Void, any Error>.makeStream()
        let prepared = gates.prepare(2)
        prepared[0].open(with: 1)
        await store.send(.load(.latestWins)).finish()
        let watching = store.send(.watch(triggers))
        continuation.yield() // fresh: nothing happens
        await yieldUntil { log.lines.contains { $0.hasPrefix("becameActive") } }
        #expect(!store.user.isLoading)
        clock.advance(by: .seconds(61))
        continuation.yield() // stale: reloads
        await prepared[1].waitForArrivals()
        #expect(store.user.inFlightID == LoadID(2))
        continuation.finish()
        await watching.finish()
        #expect(store.runningEffectCount == 1) // only the load
        prepared[1].open(with: 2)
        await yieldUntil { !store.user.isLoading }
        #expect(store.user.settledAt == LoadClock.Instant(offset: .seconds(61)))
    }

    // From an outside reading of the Freshness guide, whose screen starts its
    // triggers on every appearance: each one added a listener for good.
    @Test("triggers started again with the same ID replace the ones running: a screen that appears twice listens once")
    func triggersReplaced() async {
        let (store, _, _, _) = makeStampedStore()
        let (first, firstContinuation) = AsyncThrowingStream<Void, any Error>.makeStream()
        let (second, secondContinuation) = AsyncThrowingStream<Void, any Error>.makeStream()
        store.send(.watch(first))
        store.send(.watch(second))
        await yieldUntil { store.runningEffectCount == 1 }
        #expect(store.runningEffectCount == 1, "the first listener was replaced")
        firstContinuation.finish()
        secondContinuation.finish()
        await yieldUntil { store.runningEffectCount == 0 }
        #expect(store.runningEffectCount == 0)
    }

    @Test("a trigger sequence that throws stops the triggers, is reported, and leaves the value as it was")
    func triggerSequenceThrows() async {
        let (store, _, _, _) = makeStampedStore()
        var issues: [String] = []
        store.onIssue = { issues.append($0) }
        let (triggers, continuation) = AsyncThrowingStream<Void, any Error>.makeStream()
        let watching = store.send(.watch(triggers))
        continuation.finish(throwing: TestError.offline)
        await watching.finish()
        #expect(issues.count == 1)
        #expect(issues.first?.contains("a refetch trigger sequence threw offline") == true)
        #expect(store.user == Loadable())
    }
}

extension LoadableFreshnessStoreTests {
    @Test("a queued load that starts after invalidate() answers it: the next trigger does not reload a value loaded a moment ago")
    func queuedLoadAnswersInStore() async {
        let (store, clock, gates, _) = makeStampedStore()
        let ready = gates.prepare(2)
        store.send(.load(.latestWins))
        store.send(.load(.queue))
        store.send(.markStale)
        await ready[0].waitForArrivals()
        ready[0].open(with: 1)
        await ready[1].waitForArrivals()
        ready[1].open(with: 2)
        await yieldUntil { store.state.user.value == 2 && !store.state.user.isLoading }
        #expect(store.state.user.value == 2 && !store.state.user.isInvalidated)
        store.send(.becameActive(LoadClock.Instant(offset: clock.now.offset)))
        #expect(!store.state.user.isLoading, "fresh: no reload")
    }
}
