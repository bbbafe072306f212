import AsyncState
import AsyncStateControls
import Testing

@Suite("Freshness: invalidation in a store")
@MainActor
struct FreshStoreTests {
    @Test("an invalidation during a load lets that load settle, then starts a fresh load at once")
    func invalidationDuringLoad() async {
        let (store, _, gates, log) = makeFreshStore()
        let first = gates.prepare(1)[0]
        let task = store.send(.load(.latestWins))
        store.send(.invalidate)
        first.open(with: 1)
        await task.finish()
        #expect(store.user.value == 1)
        #expect(store.user.inFlightID == LoadID(2))
        #expect(
            log.lines.suffix(2) == [
                "user(finished(#1, 1) at 0.0 seconds) -> success(value: 1) (invalidated)",
                "user(started(#2) at 0.0 seconds) -> refreshing(value: 1) (#2 in flight) (invalidated)",
            ])
        gates.taken[1].open(with: 2)
        await settle { !store.user.isLoading }
        #expect(store.user.value == 2)
        #expect(!store.user.isInvalidated)
    }

    @Test("a load started after the invalidation is not followed by another")
    func loadAfterInvalidation() async {
        let (store, _, gates, log) = makeFreshStore()
        let gate = gates.prepare(1)[0]
        store.send(.invalidate) // nothing loaded yet: the first load starts
        #expect(store.user.inFlightID == LoadID(1))
        gate.open(with: 1)
        await settle { !store.user.isLoading }
        #expect(store.user.value == 1)
        #expect(gates.taken.count == 1)
        #expect(!log.lines.contains { $0.contains("#2") })
    }

    @Test("a joiner does not join a load an invalidation has overtaken: it starts a fresh one")
    func joinerSkipsOvertaken() async {
        let (store, _, gates, _) = makeFreshStore()
        let gate = gates.prepare(1)[0]
        store.send(.load(.latestWins))
        store.send(.load(.join))
        #expect(store.user.inFlightID == LoadID(1)) // joined: not overtaken
        store.send(.user(.invalidate))
        store.send(.load(.join))
        #expect(store.user.inFlightID == LoadID(2)) // overtaken: a fresh load
        gate.open(with: 1)
        store.send(.load(.firstWins))
        #expect(store.user.inFlightID == LoadID(2)) // #2 is not overtaken: first wins
    }

    @Test("the settle time is the clock's time when the result arrives, read by the effect")
    func settleTimeFromClock() async {
        let (store, clock, gates, _) = makeFreshStore()
        let gate = gates.prepare(1)[0]
        let task = store.send(.load(.latestWins))
        clock.advance(by: .seconds(5))
        gate.open(with: 1)
        await task.finish()
        #expect(store.user.settledAt == TestClock.Instant(offset: .seconds(5)))
    }

    @Test("a trigger reloads a stale value and leaves a fresh one alone")
    func triggerReloadsStale() async {
        let (store, clock, gates, _) = makeFreshStore(maxAge: .seconds(60))
        let gate = gates.prepare(1)[0]
        gate.open(with: 1)
        await store.send(.load(.latestWins)).finish()
        clock.advance(by: .seconds(59))
        #expect(store.send(.becameActive(clock.now)).isEmpty)
        clock.advance(by: .seconds(1))
        #expect(!store.send(.becameActive(clock.now)).isEmpty)
        #expect(store.user.isLoading)
    }
}

@Suite("Freshness: polling and refetch triggers")
@MainActor
struct PollingTests {
    @Test("a poll ticks every interval, skips a tick while its load is in flight, and stops when asked")
    func pollsAndStops() async {
        let (store, clock, gates, log) = makeFreshStore()
        store.send(.startPolling(.seconds(10)))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        await settle { store.user.isLoading }
        #expect(store.user.inFlightID == LoadID(1))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10)) // #1 still in flight: this tick starts nothing
        await settle { log.lines.filter { $0.hasPrefix("pollTick") }.count == 2 }
        #expect(store.user.inFlightID == LoadID(1))
        gates.taken[0].open(with: 1)
        await settle { !store.user.isLoading }
        store.send(.stopPolling)
        #expect(clock.sleeperCount == 0)
        await settle { store.runningEffectCount == 0 }
        #expect(store.runningEffectCount == 0)
    }

    @Test("starting a poll again replaces the running one: never two")
    func neverStacks() async {
        let (store, clock, _, _) = makeFreshStore()
        store.send(.startPolling(.seconds(10)))
        store.send(.startPolling(.seconds(10)))
        await clock.waitForSleepers(1)
        await settle { store.runningEffectCount == 1 }
        #expect(store.runningEffectCount == 1)
        #expect(clock.sleeperCount == 1)
        store.send(.stopPolling)
    }

    @Test("releasing the store stops its poll")
    func releaseStops() async {
        let clock: TestClock
        weak var released: Store<FreshFeature.State, FreshFeature.Action>?
        do {
            let (store, storeClock, _, _) = makeFreshStore()
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
        let (store, clock, gates, _) = makeFreshStore(maxAge: .seconds(60))
        let (triggers, continuation) = AsyncThrowingStream<Void, any Error>.makeStream()
        gates.prepare(1)[0].open(with: 1)
        await store.send(.load(.latestWins)).finish()
        let watching = store.send(.watch(triggers))
        continuation.yield() // fresh: nothing happens
        clock.advance(by: .seconds(61))
        continuation.yield() // stale: reloads
        await settle { store.user.isLoading }
        #expect(store.user.inFlightID == LoadID(2))
        continuation.finish()
        await watching.finish()
        #expect(store.runningEffectCount == 1) // only the load
        gates.taken[1].open(with: 2)
    }

    @Test("a trigger sequence that throws stops the triggers, is reported, and leaves the value as it was")
    func triggerSequenceThrows() async {
        let (store, _, _, _) = makeFreshStore()
        var issues: [String] = []
        store.onIssue = { issues.append($0) }
        let (triggers, continuation) = AsyncThrowingStream<Void, any Error>.makeStream()
        let watching = store.send(.watch(triggers))
        continuation.finish(throwing: TestError.offline)
        await watching.finish()
        #expect(issues.count == 1)
        #expect(issues.first?.contains("a refetch trigger sequence threw offline") == true)
        #expect(store.user == Fresh())
    }
}
