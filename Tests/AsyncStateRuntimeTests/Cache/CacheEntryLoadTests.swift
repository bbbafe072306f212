import AsyncStateControls
import AsyncStateTestSupport
import Testing

@testable import AsyncState

// `@testable` for one internal count: how many callers share a load.

/// A cache enters each load when it decides to, not from a task that runs
/// later: what follows at once — a release of the entry, a user's load —
/// then finds the load already in flight (found by an outside reading).
@Suite("Cache: loads are entered when decided", .hangGuard)
@MainActor
struct CacheEntryLoadTests {
    static func gated(_ gate: Gate<String>) -> LoadRequest<String, TestError> {
        LoadRequest { () async throws(TestError) in
            do { return try await gate.wait() } catch { throw .offline }
        }
    }

    @Test("a subscription cancelled at once, collected at once: its load is cancelled with the entry")
    func subscribeThenLeaveAtOnce() async {
        let (cache, _, backend) = makeCache(collectAfter: .zero)
        let subscription = cache.subscribe(7)
        let entry = cache[7]
        subscription.cancel()
        #expect(cache[7] == nil, "collected as its last user left")
        #expect(entry?.isLoading == false)
        #expect(backend.calls.map(\.key) == [7])
        // The cancellation reaches the backend's wait on another thread.
        await yieldUntil { backend.calls.allSatisfy { $0.gate.observedCancellation } }
        #expect(backend.calls.allSatisfy { $0.gate.observedCancellation }, "the released entry's load ran on")
    }

    @Test("an idle entry evicted to make room: the load it was still running is cancelled")
    func evictedEntryLoadIsCancelled() async {
        let (cache, _, backend) = makeCache(capacity: 1)
        let first = cache.subscribe(1)
        first.cancel() // idle: kept, collected in 60 s
        let second = cache.subscribe(2) // over capacity: 1 is evicted
        #expect(cache[1] == nil)
        #expect(backend.calls.map(\.key) == [1, 2])
        await yieldUntil { backend.calls.first?.gate.observedCancellation == true }
        #expect(backend.calls.first?.gate.observedCancellation == true, "key 1 loaded on after its entry was evicted")
        #expect(backend.calls.last?.gate.observedCancellation == false)
        second.cancel()
    }

    @Test("invalidated, then its last user leaves: the reload is cancelled with the entry")
    func invalidateThenLeave() async throws {
        let (cache, _, backend) = makeCache(collectAfter: .zero)
        let subscription = cache.subscribe(7)
        await backend.waitForCalls(1)
        backend.answer(7, with: "Lee")
        await subscription.loaded()
        let entry = try #require(cache[7])
        #expect(cache.invalidate(7))
        #expect(backend.calls.count == 2, "the reload starts at once")
        subscription.cancel()
        #expect(cache[7] == nil)
        await yieldUntil { backend.calls.last?.gate.observedCancellation == true }
        #expect(backend.calls.last?.gate.observedCancellation == true, "the reload ran on for an entry the cache released")
        #expect(!entry.isLoading, "the released entry is loading, and nothing will ever cancel it")
    }

    @Test("refetchStale of a fresh entry starts nothing, and joins no user's load started after it")
    func triggerJoinsNoLaterLoad() async throws {
        let (cache, _, backend) = makeCache()
        let subscription = cache.subscribe(1)
        await backend.waitForCalls(1)
        backend.answer(1, with: "a")
        await subscription.loaded()
        let entry = try #require(cache[1])
        #expect(!cache.isStale(1))
        let gate = Gate<String>()
        // The user's load: its task is enqueued now, and runs after this turn.
        let user = Task { @MainActor in await entry.load(Self.gated(gate)) }
        cache.refetchStale()
        await gate.waitForArrivals()
        let id = try #require(entry.loadable.inFlightID)
        #expect(entry._loads[id]?.shares.count == 1, "the trigger joined the user's load")
        user.cancel()
        await user.value
        #expect(gate.observedCancellation, "its only caller left, and the load ran on")
        #expect(!entry.isLoading)
        #expect(backend.calls.count == 1)
        subscription.cancel()
    }

    @Test("invalidate reloads with the key's request, not with the last load the entry ran")
    func invalidateReloadsTheKeysRequest() async throws {
        let (cache, _, backend) = makeCache()
        let subscription = cache.subscribe(7)
        await backend.waitForCalls(1)
        backend.answer(7, with: "Lee")
        await subscription.loaded()
        let entry = try #require(cache[7])
        let saves = LockedValue(0)
        // A write through the entry, which returns the new value.
        await entry.load { () async throws(TestError) in
            saves.withLock { $0 += 1 }
            return "Kim"
        }
        #expect(entry.value == "Kim")
        #expect(cache.invalidate(7))
        #expect(cache.isStale(7))
        #expect(backend.calls.count == 2, "the key's own load")
        #expect(saves.current == 1, "the write ran again")
        backend.answer(7, with: "Kim 2")
        await yieldUntil { !entry.isLoading }
        #expect(entry.value == "Kim 2")
        subscription.cancel()
    }

    /// Loads a write through the cache's entry of 7, once the key has loaded.
    static func entryAfterWrite(_ cache: Cache<Int, String, TestError>, _ backend: Backend) async throws -> (
        AsyncValue<String, TestError>, LockedValue<Int>
    ) {
        await backend.waitForCalls(1)
        backend.answer(7, with: "Lee")
        let entry = try #require(cache[7])
        await yieldUntil { entry.value == "Lee" }
        let saves = LockedValue(0)
        await entry.load { () async throws(TestError) in
            saves.withLock { $0 += 1 }
            return "Kim"
        }
        return (entry, saves)
    }

    /// How a caller reloads an entry itself, and awaits the reload.
    enum EntryReload: String, CaseIterable, CustomTestStringConvertible {
        case invalidate, reload
        var testDescription: String { "\(rawValue)()" }
    }

    @Test(
        "an entry's own invalidate() and reload(), the way to await a reload, load the key's request, not a write",
        arguments: EntryReload.allCases)
    func entryReloadsTheKeysRequest(_ reload: EntryReload) async throws {
        let (cache, _, backend) = makeCache()
        let subscription = cache.subscribe(7)
        let (entry, saves) = try await Self.entryAfterWrite(cache, backend)
        let reloading = await startCaller {
            switch reload {
            case .invalidate: await entry.invalidate()
            case .reload: await entry.reload()
            }
        }
        await yieldUntil { backend.calls.count == 2 || saves.current == 2 }
        try #require(saves.current == 1, "the write ran again")
        backend.answer(7, with: "Kim 2")
        await reloading.value
        #expect(entry.value == "Kim 2")
        subscription.cancel()
    }

    @Test(
        "every reload builds the key's request when it starts, reading the app's state then",
        arguments: EntryReload.allCases.map(Optional.some) + [nil])
    func reloadBuildsTheRequestAnew(_ reload: EntryReload?) async throws {
        let version = LockedValue(1)
        let cache = Cache<Int, String, TestError>(clock: TestClock(), staleAfter: .seconds(30)) { _ in
            let built = version.current
            return LoadRequest { () async throws(TestError) in "v\(built)" }
        }
        let subscription = cache.subscribe(7)
        await subscription.loaded()
        let entry = try #require(cache[7])
        #expect(entry.value == "v1")
        version.withLock { $0 = 2 }
        switch reload {
        case .invalidate: await entry.invalidate()
        case .reload: await entry.reload()
        case nil: #expect(cache.invalidate(7))
        }
        await yieldUntil { !entry.isLoading }
        #expect(entry.value == "v2", "reloaded with a request built when the entry was made")
        subscription.cancel()
    }

    @Test("a request that reads the cache as it is built: subscribing and prefetching do not build it mid-change")
    func requestReadsTheCache() async {
        // In a child process: built while the cache's book changes, the read traps
        // ("Simultaneous accesses ... modification requires exclusive access").
        await #expect(processExitsWith: .success) {
            await Task { @MainActor in
                final class Holder { var cache: Cache<Int, String, TestError>? }
                let holder = Holder()
                // Each page's request starts after the page before it.
                let cache = Cache<Int, String, TestError>(clock: TestClock(), staleAfter: .seconds(30)) { page in
                    let previous = MainActor.assumeIsolated { holder.cache?[page - 1]?.value }
                    return LoadRequest { () async throws(TestError) in "\(previous ?? "-")+\(page)" }
                }
                holder.cache = cache
                let first = cache.subscribe(1)
                let second = cache.subscribe(2)
                await cache.prefetch(3)
                await first.loaded()
                await second.loaded()
                precondition(cache[3]?.value?.hasSuffix("+3") == true, "page 3: \(String(describing: cache[3]?.value))")
            }.value
        }
    }

    @Test("prefetching an idle entry starts its idle spell anew: collected collectAfter from the prefetch")
    func prefetchOfIdleEntry() async {
        let (cache, clock, backend) = makeCache(staleAfter: .seconds(30), collectAfter: .seconds(60))
        let subscription = cache.subscribe(7)
        await backend.waitForCalls(1)
        backend.answer(7, with: "Lee")
        await subscription.loaded()
        subscription.cancel()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(59))
        #expect(cache.isStale(7))
        let prefetching = await startCaller { await cache.prefetch(7) }
        await backend.waitForCalls(2)
        backend.answer(7, with: "Kim")
        await prefetching.value
        #expect(cache[7]?.value == "Kim")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        for _ in 0..<100 { await Task.yield() }
        #expect(cache[7]?.value == "Kim", "prefetched one second ago, collected already")
        clock.advance(by: .seconds(59))
        for _ in 0..<100 where cache[7] != nil { await Task.yield() }
        #expect(cache[7] == nil, "collected collectAfter after the prefetch")
    }
}
