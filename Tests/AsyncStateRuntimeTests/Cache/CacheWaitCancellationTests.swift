import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Testing

/// A task waiting in `prefetch` or `loaded()` that is cancelled returns at
/// once, as every caller of a shared load does; only a prefetch withdraws
/// its share of the load.
@Suite("Cache: a cancelled waiter returns at once", .hangGuard)
@MainActor
struct CacheWaitCancellationTests {
    @Test("a prefetch whose task is cancelled returns while its load runs, and the load stops")
    func prefetchCancelled() async {
        let (cache, _, backend) = makeCache()
        let returned = LockedFlag()
        let prefetching = await startCaller {
            await cache.prefetch(7)
            returned.set()
        }
        await backend.waitForCalls(1)
        prefetching.cancel()
        await yieldUntil { returned.isSet }
        #expect(returned.isSet, "the cancelled prefetch still waited for the load")
        await yieldUntil { cache[7]?.isLoading == false }
        #expect(cache[7]?.isLoading == false, "no caller is left, so the load is cancelled")
        backend.answer(7, with: "Lee")
        await prefetching.value
    }

    @Test("a task waiting in loaded() that is cancelled returns, and the subscription's load goes on")
    func loadedWaiterCancelled() async {
        let (cache, _, backend) = makeCache()
        let user = cache.subscribe(7)
        await backend.waitForCalls(1)
        let returned = LockedFlag()
        let waiting = await startCaller {
            await user.loaded()
            returned.set()
        }
        waiting.cancel()
        await yieldUntil { returned.isSet }
        #expect(returned.isSet, "the cancelled waiter still waited for the load")
        #expect(user.isLoading, "the subscription's load is not cancelled")
        backend.answer(7, with: "Lee")
        await user.loaded()
        #expect(user.value == "Lee")
        await waiting.value
    }
}
