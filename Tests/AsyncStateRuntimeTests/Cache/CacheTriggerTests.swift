import AsyncStateControls
import AsyncStateTestSupport
import Testing

@testable import AsyncState

// `@testable` for one internal count: how many callers share a queued load,
// which no public member reports while nothing is in flight.
@Suite("Cache: triggers start loads, and join none", .hangGuard)
@MainActor
struct CacheTriggerTests {
    @Test("refetchStale joins no queued load: the save's caller leaving withdraws it, and it never runs")
    func triggerLeavesAQueuedLoadAlone() async throws {
        let (cache, _, backend) = makeCache()
        let subscription = cache.subscribe(1)
        await backend.waitForCalls(1)
        backend.answer(1, with: "a")
        await subscription.loaded()
        let entry = try #require(cache[1])
        #expect(entry.value == "a" && !cache.isStale(1))
        let log = LockedValue<[String]>([])
        let slow = Gate<String>(), queued = Gate<String>()
        // A load whose work ignores cancellation, then a save queued behind it.
        let first = await startCaller {
            await entry.load { () async throws(TestError) in
                log.withLock { $0.append("slow") }
                return await slow.value() ?? "-"
            }
        }
        await slow.waitForArrivals()
        let save = await startCaller {
            await entry.load(overlap: .queue) { () async throws(TestError) in
                log.withLock { $0.append("save") }
                do { return try await queued.wait() } catch { throw .offline }
            }
        }
        first.cancel()
        await first.value
        #expect(!entry.isLoading && entry.waitingCount == 1)
        let queuedID = try #require(entry.loadable.queuedIDs.first)
        cache.refetchStale()
        // A trigger that joined would do so from a main-actor task it started:
        // the main executor runs jobs in order, so after a few yields that task
        // has joined. Waiting for a join that must not come is bounded here
        // (100,000 yields took over a minute in a loaded sanitized run).
        for _ in 0..<10 { await Task.yield() }
        #expect(entry._loads[queuedID]?.shares.count == 1, "the trigger joined the queued save")
        save.cancel()
        await save.value
        #expect(entry.waitingCount == 0, "the save was withdrawn once its caller left")
        slow.open(with: "late")
        queued.open(with: "saved")
        await yieldUntil { entry.runningCount == 0 }
        #expect(log.current == ["slow"], "the save whose caller left never ran")
        subscription.cancel()
    }

    // From an outside reading: a release that came while an element was on
    // its way left the loop between two elements, so the sequence was never
    // told, and an `AsyncStream` kept its source (`onTermination` never ran).
    @Test("releasing the cache ends its trigger sequence, also while an element is on its way")
    func releaseEndsTriggers() async {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        let terminated = LockedValue(false)
        continuation.onTermination = { _ in terminated.withLock { $0 = true } }
        let onItsWay = Gate<Int>()
        weak var released: Cache<Int, String, TestError>?
        do {
            let (cache, _, _) = makeCache()
            released = cache
            // The map holds the element between the stream and the cache's loop.
            cache.refetchStale(on: stream.map { _ in _ = await onItsWay.value() })
            continuation.yield()
            await onItsWay.waitForArrivals()
        }
        #expect(released == nil)
        onItsWay.open(with: 0)
        await yieldUntil { terminated.current }
        #expect(terminated.current, "the stream's source is let go")
        withExtendedLifetime(continuation) {}
    }

    /// Ticks for ever, never asking whether its task was cancelled.
    struct Endless: AsyncSequence, Sendable {
        let pulled: LockedValue<Int>

        struct AsyncIterator: AsyncIteratorProtocol {
            let pulled: LockedValue<Int>
            mutating func next() async -> Int? {
                await Task.yield()
                return pulled.withLock { count in
                    count += 1
                    return count
                }
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(pulled: pulled) }
    }

    // From a second reading: asking once more for ever pulled a sequence
    // that ignores cancellation for as long as it gave elements.
    @Test("a released cache stops pulling a trigger sequence that ignores cancellation")
    func releaseStopsEndlessTriggers() async {
        let pulled = LockedValue(0)
        var cache: Cache<Int, String, TestError>? = makeCache().0
        cache?.refetchStale(on: Endless(pulled: pulled))
        await yieldUntil { pulled.current >= 3 }
        cache = nil
        let atRelease = pulled.current
        for _ in 0..<200 { await Task.yield() }
        #expect(pulled.current <= atRelease + 2, "pulled \(pulled.current - atRelease) more after the release")
        withExtendedLifetime(cache) {}
    }
}
