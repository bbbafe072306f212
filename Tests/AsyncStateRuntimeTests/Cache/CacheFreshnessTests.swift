import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Observation
import Testing

/// A cache with user 7 loaded as "v1" at time zero, one user holding it.
@MainActor
func loadedCache(staleAfter: Duration = .seconds(30), collectAfter: Duration = .seconds(60)) async -> (
    Cache<Int, String, TestError>, TestClock, Backend, Cache<Int, String, TestError>.Subscription
) {
    let (cache, clock, backend) = makeCache(staleAfter: staleAfter, collectAfter: collectAfter)
    let subscription = cache.subscribe(7)
    await backend.waitForCalls(1)
    backend.answer(7, with: "v1")
    await subscription.loaded()
    return (cache, clock, backend, subscription)
}

@Suite("Cache: staleness, invalidation, triggers and promises", .hangGuard)
@MainActor
struct CacheFreshnessTests {
    @Test("a new user reloads a stale value and shares a fresh one")
    func staleOnSubscribe() async {
        let (cache, clock, backend, first) = await loadedCache(staleAfter: .seconds(30))
        clock.advance(by: .seconds(29))
        #expect(!cache.isStale(7))
        let second = cache.subscribe(7)
        await second.loaded()
        #expect(backend.calls.count == 1)
        clock.advance(by: .seconds(1))
        #expect(cache.isStale(7))
        let third = cache.subscribe(7)
        await backend.waitForCalls(2)
        #expect(cache[7]?.state == .refreshing(value: "v1")) // the value stays through the reload
        withExtendedLifetime((first, second, third)) {}
    }

    // From mutation testing: refetching unused entries too broke no test.
    @Test("refetchStale reloads the stale entries in use, not one kept unused until its collection")
    func refetchStaleSkipsUnused() async {
        let (cache, clock, backend, used) = await loadedCache(collectAfter: .seconds(300))
        let unused = cache.subscribe(8)
        await backend.waitForCalls(2)
        backend.answer(8, with: "u1")
        await unused.loaded()
        unused.cancel()
        #expect(cache[8] != nil, "kept until it is collected")
        clock.advance(by: .seconds(31))
        #expect(cache.isStale(7) && cache.isStale(8))
        cache.refetchStale()
        // Loads are entered at once: what reloads is loading now.
        #expect(cache[7]?.isLoading == true, "the entry in use reloads")
        #expect(cache[8]?.isLoading == false, "the unused one does not")
        await backend.waitForCalls(3)
        backend.answer(7, with: "v2")
        await yieldUntil { cache[7]?.isLoading == false }
        #expect(cache[7]?.value == "v2")
        #expect(backend.count(8) == 1)
        withExtendedLifetime(used) {}
    }

    @Test("staleAfter of zero or less makes every value stale", arguments: [0, -1])
    func zeroStaleAfter(seconds: Int) async {
        let (cache, _, backend, first) = await loadedCache(staleAfter: .seconds(seconds))
        #expect(cache.isStale(7))
        let second = cache.subscribe(7)
        await backend.waitForCalls(2)
        #expect(backend.calls.count == 2)
        withExtendedLifetime((first, second)) {}
    }

    // Changed by design: an invalidation no longer lets the load in flight
    // settle first; the reload supersedes it at once.
    @Test("an invalidation during a load supersedes it at once; the reload's value is the one shown")
    func invalidateDuringLoad() async {
        let (cache, clock, backend, subscription) = await loadedCache()
        clock.advance(by: .seconds(31))
        cache.refetchStale()
        await backend.waitForCalls(2)
        await backend.calls[1].gate.waitForArrivals()
        #expect(cache.invalidate(7))
        await backend.waitForCalls(3)
        #expect(backend.calls[1].gate.observedCancellation) // superseded: last started wins
        backend.calls[1].gate.open(with: "v2") // too late: its result never shows
        #expect(cache[7]?.state == .refreshing(value: "v1"))
        #expect(cache[7]?.isInvalidated == true)
        backend.answer(7, with: "v3")
        await yieldUntil { cache[7]?.isLoading == false }
        #expect(cache[7]?.value == "v3")
        #expect(cache[7]?.isInvalidated == false)
        withExtendedLifetime(subscription) {}
    }

    @Test("invalidating a key in use marks it stale at once, before its reload starts")
    func invalidationMarksAtOnce() async {
        let (cache, _, _, subscription) = await loadedCache()
        #expect(cache.invalidate(7))
        #expect(cache[7]?.isInvalidated == true)
        #expect(cache.isStale(7))
        withExtendedLifetime(subscription) {}
    }

    @Test("a new user does not join a load an invalidation has overtaken: it starts a fresh one")
    func noJoinAfterInvalidation() async {
        let (cache, clock, backend) = makeCache(collectAfter: .seconds(600))
        let first = cache.subscribe(7)
        await backend.waitForCalls(1)
        await backend.calls[0].gate.waitForArrivals()
        // Its user leaves while it loads: the invalidation only marks it, and
        // the load in flight is overtaken.
        first.cancel()
        #expect(cache.invalidate(7))
        #expect(cache[7]?.isLoading == true && backend.calls.count == 1)
        let second = cache.subscribe(7)
        await backend.waitForCalls(2)
        #expect(backend.calls[0].gate.observedCancellation) // superseded: last started wins
        backend.answer(7, with: "v2")
        await second.loaded()
        #expect(cache[7]?.state == .success(value: "v2"))
        #expect(cache[7]?.isInvalidated == false)
        _ = clock
    }

    @Test("a new user joins the reload an invalidation started")
    func joinsTheReload() async {
        let (cache, _, backend, first) = await loadedCache()
        cache.invalidate(7)
        await backend.waitForCalls(2)
        let second = cache.subscribe(7)
        backend.answer(7, with: "v2")
        await second.loaded()
        #expect(backend.calls.count == 2)
        #expect(second.value == "v2")
        _ = first
    }

    @Test("invalidating an unknown key changes nothing and says so")
    func unknownKey() async {
        let (cache, _, backend, subscription) = await loadedCache()
        #expect(!cache.invalidate(99))
        #expect(cache[99] == nil)
        #expect(cache.count == 1)
        #expect(backend.calls.count == 1)
        withExtendedLifetime(subscription) {}
    }

    @Test("invalidating by predicate reloads matching entries in use; unused ones reload when next used")
    func byPredicate() async {
        let (cache, clock, backend) = makeCache(collectAfter: .seconds(600))
        let used = [cache.subscribe(10), cache.subscribe(11), cache.subscribe(20)]
        let unused = cache.subscribe(12)
        await backend.waitForCalls(4)
        for key in [10, 11, 12, 20] { backend.answer(key, with: "old \(key)") }
        for subscription in used + [unused] { await subscription.loaded() }
        unused.cancel()
        #expect(cache.invalidate(where: { $0 / 10 == 1 }) == 3)
        await backend.waitForCalls(6)
        #expect(backend.count(10) == 2 && backend.count(11) == 2)
        #expect(backend.count(12) == 1 && backend.count(20) == 1)
        #expect(cache[12]?.isInvalidated == true && cache[20]?.isInvalidated == false)
        let again = cache.subscribe(12)
        await backend.waitForCalls(7)
        #expect(backend.count(12) == 2)
        withExtendedLifetime((clock, used, again)) {}
    }

    @Test("a trigger sequence reloads stale entries in use; it may end, or throw and be reported")
    func triggers() async {
        let (cache, clock, backend, subscription) = await loadedCache(staleAfter: .seconds(30))
        var issues: [String] = []
        cache.onIssue = { issues.append($0) }
        let (becameActive, continuation) = AsyncThrowingStream<Void, any Error>.makeStream()
        cache.refetchStale(on: becameActive)
        continuation.yield() // fresh: nothing
        clock.advance(by: .seconds(30))
        continuation.yield() // stale: reloads
        await backend.waitForCalls(2)
        continuation.finish(throwing: TestError.offline)
        await yieldUntil { !issues.isEmpty }
        #expect(issues.first?.contains("a refetch trigger sequence threw offline") == true)
        #expect(cache[7]?.state == .refreshing(value: "v1"))
        #expect(backend.calls.count == 2)
        withExtendedLifetime(subscription) {}
    }

    @Test("a poll reloads a key in use every interval, skips ticks while loading, and stops when asked")
    func polling() async {
        let (cache, clock, backend, subscription) = await loadedCache()
        cache.poll(7, every: .seconds(10))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        await backend.waitForCalls(2)
        // The poll keeps its schedule while the load is in flight.
        await yieldUntil { clock.sleeperCount == 1 }
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(10)) // in flight: skipped
        await yieldUntil { clock.sleeperCount == 1 }
        #expect(backend.calls.count == 2)
        backend.answer(7, with: "v2")
        await yieldUntil { cache[7]?.isLoading == false }
        #expect(cache[7]?.value == "v2")
        cache.stopPolling(7)
        await yieldUntil { clock.sleeperCount == 0 }
        #expect(clock.sleeperCount == 0)
        withExtendedLifetime(subscription) {}
    }

    @Test("per key, the promises of a Loadable hold: a failure keeps the value, cancellation is not failure")
    func promises() async {
        let (cache, clock, backend, subscription) = await loadedCache()
        clock.advance(by: .seconds(31))
        cache.refetchStale()
        await backend.waitForCalls(2)
        backend.calls[1].gate.fail(with: TestError.offline)
        await yieldUntil { cache[7]?.isLoading == false }
        #expect(cache[7]?.state == .error(error: .offline))
        #expect(cache[7]?.value == "v1")
        subscription.cancel()
        #expect(cache[7]?.error == .offline) // leaving is not failure, nor a reset
    }

    @Test("reading an entry registers an observation that fires when its load settles")
    func observable() async {
        let (cache, _, backend) = makeCache()
        let subscription = cache.subscribe(7)
        await backend.waitForCalls(1)
        let changed = tracking { _ = cache[7]?.value }
        #expect(!changed.isSet)
        backend.answer(7, with: "Lee")
        await subscription.loaded()
        #expect(changed.isSet)
    }
}
