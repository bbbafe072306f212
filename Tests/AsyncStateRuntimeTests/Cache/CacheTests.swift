import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Observation
import Testing

@Suite("Cache: sharing and lifetime", .hangGuard)
@MainActor
struct CacheSharingTests {
    @Test("two users of the same key share one entry and one load, and see the same value")
    func shareOneLoad() async {
        let (cache, _, backend) = makeCache()
        let first = cache.subscribe(7)
        let second = cache.subscribe(7)
        await backend.waitForCalls(1)
        #expect(cache.count == 1)
        #expect(cache.users(of: 7) == 2)
        backend.answer(7, with: "Lee")
        await first.loaded()
        await second.loaded() // joined the same load
        #expect(backend.calls.count == 1)
        #expect(first.value == "Lee")
        #expect(second.entry === first.entry)
        #expect(cache[7] === first.entry)
    }

    @Test("one user leaves and the other keeps the entry, however long")
    func otherKeepsIt() async {
        let (cache, clock, backend) = makeCache(collectAfter: .seconds(60))
        let first = cache.subscribe(7)
        let second = cache.subscribe(7)
        await backend.waitForCalls(1)
        backend.answer(7, with: "Lee")
        await first.loaded()
        first.cancel()
        clock.advance(by: .seconds(600))
        #expect(cache[7]?.value == "Lee")
        #expect(cache.users(of: 7) == 1)
        _ = second
    }

    @Test("an unused entry is collected collectAfter later — not before, and not if used again")
    func collection() async {
        // Fresh for longer than the test runs, so using the entry again
        // reuses it rather than reloading a stale value.
        let (cache, clock, backend) = makeCache(staleAfter: .seconds(600), collectAfter: .seconds(60))
        var subscription: Cache<Int, String, TestError>.Subscription? = cache.subscribe(7)
        await backend.waitForCalls(1)
        backend.answer(7, with: "Lee")
        await subscription?.loaded()
        subscription = nil // released: the same as cancel()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(59))
        #expect(cache[7]?.value == "Lee")
        let again = cache.subscribe(7) // used again: the timer no longer counts
        clock.advance(by: .seconds(1))
        await yieldUntil { clock.sleeperCount == 0 }
        #expect(cache[7]?.value == "Lee")
        #expect(backend.calls.count == 1) // still fresh: no reload
        again.cancel()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(60))
        await yieldUntil { cache.count == 0 }
        #expect(cache[7] == nil)
    }

    @Test("collectAfter of zero or less removes an entry as its last user leaves", arguments: [0, -10])
    func collectAtOnce(seconds: Int) async {
        let (cache, _, backend) = makeCache(collectAfter: .seconds(seconds))
        let subscription = cache.subscribe(7)
        await backend.waitForCalls(1)
        backend.answer(7, with: "Lee")
        await subscription.loaded()
        subscription.cancel()
        #expect(cache.count == 0)
    }

    @Test("cancelling a subscription twice ends it once")
    func cancelTwice() {
        let (cache, _, _) = makeCache()
        let a = cache.subscribe(7)
        let b = cache.subscribe(7)
        a.cancel()
        a.cancel()
        #expect(cache.users(of: 7) == 1)
        #expect(b.isActive)
        #expect(!a.isActive)
    }

    @Test("a bounded cache evicts the entry unused the longest, and never one in use")
    func bounded() async {
        let (cache, _, backend) = makeCache(capacity: 2)
        let one = cache.subscribe(1), two = cache.subscribe(2), three = cache.subscribe(3)
        #expect(cache.count == 3) // all in use: over the bound
        await backend.waitForCalls(3)
        for key in 1...3 { backend.answer(key, with: "user \(key)") }
        await one.loaded()
        await two.loaded()
        await three.loaded()
        one.cancel() // 3 entries, 1 unused: evicted at once to fit 2
        #expect(cache.count == 2)
        #expect(cache[1] == nil)
        two.cancel()
        three.cancel()
        #expect(cache.count == 2)
        let four = cache.subscribe(4) // evicts 2, unused the longest
        #expect(cache[2] == nil)
        #expect(cache[3]?.value == "user 3")
        #expect(cache.count == 2)
        _ = four
    }

    @Test("a key whose load never settles stays loading while used, and is collected with its load cancelled")
    func neverSettles() async {
        let (cache, clock, backend) = makeCache(collectAfter: .seconds(60))
        let subscription = cache.subscribe(7)
        await backend.waitForCalls(1)
        await backend.calls[0].gate.waitForArrivals()
        clock.advance(by: .seconds(3_600))
        #expect(cache[7]?.state == .loading)
        subscription.cancel()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(60))
        await yieldUntil { backend.calls[0].gate.observedCancellation }
        #expect(backend.calls[0].gate.observedCancellation)
        #expect(cache[7] == nil)
    }
}

@Suite("Cache: a subscription as a screen's handle", .hangGuard)
@MainActor
struct CacheSubscriptionTests {
    @Test("two subscriptions read the shared entry as an AsyncValue would: loading, then the value, then a failure that keeps it")
    func readsLikeAnAsyncValue() async {
        let (cache, _, backend) = makeCache()
        let profile = cache.subscribe(7)
        let chat = cache.subscribe(7)
        await backend.waitForCalls(1)
        #expect(profile.isLoading && chat.isLoading)
        #expect(profile.value == nil)

        backend.answer(7, with: "Lee")
        await profile.loaded()
        #expect(profile.value == "Lee" && chat.value == "Lee")
        #expect(!profile.isLoading && profile.error == nil)

        let reloading = await startCaller { await chat.entry.reload() }
        await backend.waitForCalls(2)
        #expect(profile.isLoading, "a reload by one screen is the other's too")
        backend.calls[1].gate.fail(with: TestError.offline)
        await reloading.value
        #expect(!profile.isLoading)
        #expect(profile.value == "Lee" && chat.value == "Lee")
        #expect(profile.error == .offline && chat.error == .offline)
    }

    @Test("a withObservationTracking read of a subscription's value fires when the shared load settles")
    func observedRead() async {
        let (cache, _, backend) = makeCache()
        let profile = cache.subscribe(7)
        await backend.waitForCalls(1)
        let fired = tracking { _ = profile.value }
        #expect(!fired.isSet)
        backend.answer(7, with: "Lee")
        await profile.loaded()
        #expect(fired.isSet)
    }

    // Changed by design: `Subscription.reload()` is gone — every host call is
    // on the shared `entry` — so "a cancelled subscription reloads nothing"
    // became: an invalidation of a key its last user has left reloads
    // nothing; the next user loads it.
    @Test("invalidating a key no one uses any more reloads nothing until the next user comes")
    func unusedKeyReloadsNothing() async {
        let (cache, _, backend) = makeCache()
        let profile = cache.subscribe(7)
        await backend.waitForCalls(1)
        backend.answer(7, with: "Lee")
        await profile.loaded()
        profile.cancel()
        #expect(cache.invalidate(7))
        #expect(cache[7]?.isInvalidated == true)
        #expect(cache[7]?.isLoading == false)
        #expect(backend.calls.count == 1)
        let chat = cache.subscribe(7)
        await backend.waitForCalls(2)
        backend.answer(7, with: "Lee 2")
        await chat.loaded()
        #expect(chat.value == "Lee 2" && cache[7]?.isInvalidated == false)
    }
}
