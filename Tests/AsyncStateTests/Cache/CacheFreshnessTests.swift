import AsyncState
import AsyncStateControls
import Observation
import Testing

@Suite("Cache: staleness, invalidation, triggers and promises")
@MainActor
struct CacheFreshnessTests {
    /// A cache with user 7 loaded as "v1" at time zero, one user holding it.
    func loaded(staleAfter: Duration = .seconds(30)) async -> (
        Cache<Int, String, TestError>, TestClock, Backend, Cache<Int, String, TestError>.Subscription
    ) {
        let (cache, clock, backend) = makeCache(staleAfter: staleAfter)
        let subscription = cache.subscribe(7)
        await settle { backend.calls.count == 1 }
        backend.answer(7, with: "v1")
        await subscription.loaded()
        return (cache, clock, backend, subscription)
    }

    @Test("a new user reloads a stale value and shares a fresh one")
    func staleOnSubscribe() async {
        let (cache, clock, backend, first) = await loaded(staleAfter: .seconds(30))
        clock.advance(by: .seconds(29))
        #expect(!cache.isStale(7))
        let second = cache.subscribe(7)
        #expect(backend.calls.count == 1)
        clock.advance(by: .seconds(1))
        #expect(cache.isStale(7))
        let third = cache.subscribe(7)
        await settle { backend.calls.count == 2 }
        #expect(cache[7]?.state == .refreshing(value: "v1")) // the value stays through the reload
        withExtendedLifetime((first, second, third)) {}
    }

    @Test("staleAfter of zero or less makes every value stale", arguments: [0, -1])
    func zeroStaleAfter(seconds: Int) async {
        let (cache, _, backend, first) = await loaded(staleAfter: .seconds(seconds))
        #expect(cache.isStale(7))
        let second = cache.subscribe(7)
        await settle { backend.calls.count == 2 }
        withExtendedLifetime((first, second)) {}
    }

    @Test("an invalidation during a load lets it settle, then reloads at once")
    func invalidateDuringLoad() async {
        let (cache, clock, backend, subscription) = await loaded()
        clock.advance(by: .seconds(31))
        cache.refetchStale()
        await settle { backend.calls.count == 2 }
        #expect(cache.invalidate(7))
        backend.answer(7, with: "v2")
        await settle { backend.calls.count == 3 }
        #expect(cache[7]?.state == .refreshing(value: "v2")) // v2 shown, and the follow-up in flight
        #expect(cache.isInvalidated(7))
        backend.answer(7, with: "v3")
        await settle { cache[7]?.isLoading == false }
        #expect(cache[7]?.value == "v3")
        #expect(!cache.isInvalidated(7))
        _ = subscription
    }

    @Test("a new user does not join a load an invalidation has overtaken")
    func noJoinAfterInvalidation() async {
        let (cache, clock, backend, first) = await loaded()
        clock.advance(by: .seconds(31))
        cache.refetchStale()
        await settle { backend.calls.count == 2 }
        // The refetch starts inside `refetchStale()`; wait until it waits at
        // its gate, so its cancellation below is one it can observe.
        await backend.calls[1].gate.waitForArrivals()
        cache.invalidate(7)
        let second = cache.subscribe(7)
        await settle { backend.calls.count == 3 }
        #expect(backend.calls[1].gate.observedCancellation) // superseded: last started wins
        backend.answer(7, with: "v3")
        await second.loaded()
        #expect(cache[7]?.state == .success(value: "v3"))
        _ = first
    }

    @Test("invalidating an unknown key changes nothing and says so")
    func unknownKey() async {
        let (cache, _, backend, subscription) = await loaded()
        #expect(!cache.invalidate(99))
        #expect(cache[99] == nil)
        #expect(cache.count == 1)
        #expect(backend.calls.count == 1)
        _ = subscription
    }

    @Test("invalidating by predicate reloads matching entries in use; unused ones reload when next used")
    func byPredicate() async {
        let (cache, clock, backend) = makeCache(collectAfter: .seconds(600))
        let used = [cache.subscribe(10), cache.subscribe(11), cache.subscribe(20)]
        let unused = cache.subscribe(12)
        await settle { backend.calls.count == 4 }
        for key in [10, 11, 12, 20] { backend.answer(key, with: "old \(key)") }
        for subscription in used + [unused] { await subscription.loaded() }
        unused.cancel()
        #expect(cache.invalidate(where: { $0 / 10 == 1 }) == 3)
        await settle { backend.calls.count == 6 }
        #expect(backend.count(10) == 2 && backend.count(11) == 2)
        #expect(backend.count(12) == 1 && backend.count(20) == 1)
        #expect(cache.isInvalidated(12) && !cache.isInvalidated(20))
        let again = cache.subscribe(12)
        await settle { backend.calls.count == 7 }
        #expect(backend.count(12) == 2)
        withExtendedLifetime((clock, used, again)) {}
    }

    @Test("a trigger sequence reloads stale entries in use; it may end, or throw and be reported")
    func triggers() async {
        let (cache, clock, backend, subscription) = await loaded(staleAfter: .seconds(30))
        var issues: [String] = []
        cache.onIssue = { issues.append($0) }
        let (becameActive, continuation) = AsyncThrowingStream<Void, any Error>.makeStream()
        cache.refetchStale(on: becameActive)
        continuation.yield() // fresh: nothing
        clock.advance(by: .seconds(30))
        continuation.yield() // stale: reloads
        await settle { backend.calls.count == 2 }
        continuation.finish(throwing: TestError.offline)
        await settle { !issues.isEmpty }
        #expect(issues.first?.contains("a refetch trigger sequence threw offline") == true)
        #expect(cache[7]?.state == .refreshing(value: "v1"))
        _ = subscription
    }

    @Test("a poll reloads a key in use every interval, skips ticks while loading, and stops when asked")
    func polling() async {
        let (cache, clock, backend, subscription) = await loaded()
        cache.poll(7, every: .seconds(10))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        await settle { backend.calls.count == 2 }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10)) // in flight: skipped
        await clock.waitForSleepers(1)
        #expect(backend.calls.count == 2)
        backend.answer(7, with: "v2")
        await settle { cache[7]?.isLoading == false }
        cache.stopPolling(7)
        #expect(clock.sleeperCount == 0)
        _ = subscription
    }

    @Test("per key, the promises of a Loadable hold: a failure keeps the value, cancellation is not failure")
    func promises() async {
        let (cache, clock, backend, subscription) = await loaded()
        clock.advance(by: .seconds(31))
        cache.refetchStale()
        await settle { backend.calls.count == 2 }
        backend.calls[1].gate.fail(with: TestError.offline)
        await settle { cache[7]?.isLoading == false }
        #expect(cache[7]?.state == .error(error: .offline))
        #expect(cache[7]?.value == "v1")
        subscription.cancel()
        #expect(cache[7]?.error == .offline) // leaving is not failure, nor a reset
    }

    @Test("reading an entry registers an observation that fires when its load settles")
    func observable() async {
        let (cache, _, backend) = makeCache()
        let subscription = cache.subscribe(7)
        await settle { backend.calls.count == 1 }
        let changed = LockedFlag()
        withObservationTracking {
            _ = cache[7]?.value
        } onChange: {
            changed.set()
        }
        #expect(!changed.isSet)
        backend.answer(7, with: "Lee")
        await subscription.loaded()
        #expect(changed.isSet)
    }
}

/// A flag set from an observation callback.
final class LockedFlag: Sendable {
    private let value = LockedValue(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
