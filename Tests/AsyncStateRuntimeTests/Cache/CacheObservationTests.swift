import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Observation
import Testing

/// Observation is per key: a view showing user 7 is not re-rendered because
/// user 8 changed.
@Suite("Cache: observation per key", .hangGuard)
@MainActor
struct CacheObservationTests {
    /// A cache with 7 and 8 subscribed, both loaded.
    func loaded(collectAfter: Duration = .seconds(60)) async -> (
        Cache<Int, String, TestError>, Backend, [Int: Cache<Int, String, TestError>.Subscription]
    ) {
        let (cache, _, backend) = makeCache(collectAfter: collectAfter)
        let subscriptions = [7: cache.subscribe(7), 8: cache.subscribe(8)]
        await backend.waitForCalls(2)
        backend.answer(7, with: "Lee")
        backend.answer(8, with: "Kim")
        for subscription in subscriptions.values { await subscription.loaded() }
        return (cache, backend, subscriptions)
    }

    @Test("a read of key 7 is not told when key 8 loads, settles or is invalidated; it is told when 7 does")
    func otherKeys() async {
        let (cache, backend, subscriptions) = await loaded()
        let changed = tracking { _ = cache[7]?.value }
        cache.invalidate(8) // reloads 8
        await backend.waitForCalls(3)
        backend.answer(8, with: "Kim 2")
        await yieldUntil { cache[8]?.value == "Kim 2" }
        #expect(cache[8]?.value == "Kim 2")
        #expect(!changed.isSet)
        let changedState = tracking { _ = cache[7]?.state }
        cache.invalidate(7)
        await backend.waitForCalls(4)
        #expect(changedState.isSet)
        backend.answer(7, with: "Lee 2")
        await yieldUntil { changed.isSet }
        #expect(changed.isSet)
        withExtendedLifetime(subscriptions) {}
    }

    @Test("another subscriber sharing key 7's value changes nothing a reader of 7 sees")
    func secondSubscriber() async {
        let (cache, backend, subscriptions) = await loaded()
        let changed = tracking { _ = cache[7] }
        let valueChanged = tracking { _ = cache[7]?.value }
        let another = cache.subscribe(7) // fresh: shares the value, starts no load
        await another.loaded()
        #expect(backend.calls.count == 2)
        #expect(!changed.isSet && !valueChanged.isSet)
        withExtendedLifetime((subscriptions, another)) {}
    }

    @Test("a read of a key that is not cached is told when it is added")
    func added() async {
        let (cache, _, subscriptions) = await loaded()
        let changed = tracking { _ = cache[9] }
        #expect(!changed.isSet)
        let nine = cache.subscribe(9)
        #expect(changed.isSet)
        withExtendedLifetime((subscriptions, nine)) {}
    }

    @Test("a read of a key that is not cached is not told when another key leaves the cache; a read of count is")
    func otherKeyRemoved() async {
        let (cache, _, subscriptions) = await loaded(collectAfter: .zero)
        let nineChanged = tracking { _ = cache[9] }
        let countChanged = tracking { _ = cache.count }
        subscriptions[7]?.cancel() // collected at once
        #expect(cache[7] == nil)
        #expect(!nineChanged.isSet, "key 9 was not cached, and still is not")
        #expect(countChanged.isSet)
        withExtendedLifetime(subscriptions) {}
    }

    @Test("a read of a key is told when its entry is collected, and a key that takes its place is observed on its own")
    func collectedAndReplaced() async {
        let (cache, backend, subscriptions) = await loaded(collectAfter: .zero)
        let changed = tracking { _ = cache[7] }
        subscriptions[7]?.cancel() // collected at once
        #expect(cache[7] == nil)
        #expect(changed.isSet)
        let nine = cache.subscribe(9) // reuses 7's place in the storage
        await backend.waitForCalls(3)
        let nineChanged = tracking { _ = cache[9]?.value }
        cache.invalidate(8)
        await backend.waitForCalls(4)
        #expect(!nineChanged.isSet)
        backend.answer(9, with: "Ada")
        await nine.loaded()
        #expect(nineChanged.isSet)
        #expect(cache[9]?.value == "Ada")
        withExtendedLifetime(subscriptions) {}
    }

    /// "Stop using the key once its value is here": a reader's change
    /// handler that lets go of the entry's last subscription, with nothing
    /// kept, collects the entry while its store tells its readers (an outside
    /// reading: the store's list of parts was emptied under it, and the
    /// process trapped).
    enum Change: String, CaseIterable, Sendable {
        case loaded, invalidated
    }

    @Test(
        "a change handler that lets go of the entry's last subscription collects it, in the middle of telling its readers",
        arguments: Change.allCases)
    func releasedFromChangeHandler(change: Change) async {
        let (cache, _, backend) = makeCache(collectAfter: .zero)
        let subscription = cache.subscribe(7)
        await backend.waitForCalls(1)
        if change == .invalidated {
            backend.answer(7, with: "Lee")
            await subscription.loaded()
        }
        // A second reader, of another part, is told too.
        let otherReader = tracking { _ = cache[7]?.error }
        withObservationTracking {
            switch change {
            case .loaded: _ = subscription.value
            case .invalidated: _ = subscription.entry.isInvalidated
            }
        } onChange: {
            MainActor.assumeIsolated { subscription.cancel() }
        }
        switch change {
        case .loaded:
            backend.answer(7, with: "Lee")
            await subscription.loaded()
        case .invalidated:
            cache.invalidate(7)
        }
        #expect(cache[7] == nil, "collected")
        #expect(cache.count == 0)
        #expect(otherReader.isSet)
    }
}
