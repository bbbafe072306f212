import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Observation
import Testing

/// A host's call made from inside an observer of that host — a task started
/// at once in a transition observer or a change handler — while its store
/// processes an action, waits for its turn and then loads as any call does
/// (from an outside reading: its start was queued out of the call's sight,
/// the load ran untracked, and the call returned at once, as if ignored).
@Suite("Hosts: a call made from inside an observer", .hangGuard)
@MainActor
struct ReentrantCallTests {
    enum Operation: Hashable, Sendable {
        case save
    }

    static func waiting(on gate: Gate<Int>) -> LoadRequest<Int, TestError> {
        LoadRequest { () async throws(TestError) -> Int in
            do { return try await gate.wait() } catch { throw .offline }
        }
    }

    @Test("a load started from a transition observer waits for its load, which is counted")
    func loadFromTransitionObserver() async {
        let first = Gate<Int>()
        let fallback = Gate<Int>()
        let value = AsyncValue<Int, TestError>()
        let returned = LockedValue(false)
        var triedFallback = false
        value.observeTransitions { transition in
            guard case .failed? = transition.action, !transition.isDropped, !triedFallback else { return }
            triedFallback = true
            Task.immediate { @MainActor in
                await value.load(Self.waiting(on: fallback))
                returned.withLock { $0 = true }
            }
        }
        let caller = await startCaller { await value.load(Self.waiting(on: first)) }
        first.fail(with: Offline())
        await caller.value
        await fallback.waitForArrivals()
        #expect(value.isLoading)
        #expect(value.runningCount == 1, "the fallback load is counted")
        #expect(!returned.current, "the call waits for its load")
        fallback.open(with: 5)
        await yieldUntil { returned.current }
        #expect(returned.current)
        #expect(value.state == .success(value: 5))
    }

    // From a second reading: a cache's synchronous start made while the
    // entry processed a call's start took that call's load from it, which
    // then ran untracked.
    @Test("a cache's invalidation from inside an entry's observer leaves the outer call's load counted")
    func syncStartInsideObserver() async {
        let gates = GateQueue<Int>()
        let cache = Cache<Int, Int, TestError>(clock: TestClock(), staleAfter: .seconds(60)) { _ in gates.request() }
        let loaded = gates.prepare(1)
        let subscription = cache.subscribe(1)
        loaded[0].open(with: 1)
        await subscription.loaded()
        let entry = cache[1]!
        var invalidated = false
        entry.observeTransitions { transition in
            // The call's own start is the one action without a load action.
            guard transition.action == nil, !invalidated else { return }
            invalidated = true
            cache.invalidate(1)
        }
        // The outer load ignores cancellation, so its work outlives the
        // reload that supersedes it, and is counted until it returns.
        let stubborn = Gate<Int>()
        let caller = await startCaller {
            await entry.load(LoadRequest { () async throws(TestError) -> Int in await stubborn.value() ?? 0 })
        }
        await stubborn.waitForArrivals()
        await yieldUntil { gates.taken.count == 2 }
        #expect(invalidated && gates.taken.count == 2, "the invalidation's reload runs")
        #expect(entry.runningCount >= 1, "the outer load's work still runs, and is counted")
        stubborn.open(with: 2)
        for gate in gates.taken { gate.open(with: 3) }
        await caller.value
        await yieldUntil { entry.runningCount == 0 }
        withExtendedLifetime(subscription) {}
    }

    // From an outside reading: the reload ran untracked — `runningCount` 0
    // while loading, and `loadIfNeeded`, a `.join` and a new subscription's
    // `loaded()` returned at once, the value still loading.
    @Test(
        "a cache's invalidation from an entry's change handler: its reload is counted, later callers wait for it, and one leaving does not cancel it"
    )
    func syncStartFromChangeHandlerIsTracked() async {
        let gates = GateQueue<Int>()
        let cache = Cache<Int, Int, TestError>(clock: TestClock(), staleAfter: .seconds(60)) { _ in gates.request() }
        let first = gates.prepare(2)
        let subscription = cache.subscribe(1)
        await first[0].waitForArrivals()
        let entry = cache[1]!
        withObservationTracking {
            _ = entry.value
        } onChange: {
            MainActor.assumeIsolated { _ = cache.invalidate(1) }
        }
        first[0].open(with: 1)
        await subscription.loaded()
        await first[1].waitForArrivals()
        #expect(entry.isLoading && entry.runningCount == 1)

        let never = LoadRequest { () async throws(TestError) -> Int in 0 }
        let returned = LockedValue(0)
        let second = cache.subscribe(1)
        let callers = [
            await startCaller { await entry.loadIfNeeded(never) },
            await startCaller { await entry.load(never, overlap: .join) },
            await startCaller { await second.loaded() },
        ]
        let leaving = await startCaller { await entry.load(never, overlap: .join) }
        for caller in callers {
            Task {
                await caller.value; returned.withLock { $0 += 1 }
            }
        }
        for _ in 0..<1_000 { await Task.yield() }
        #expect(returned.current == 0, "every caller waits for the reload")
        leaving.cancel()
        await leaving.value
        #expect(!first[1].observedCancellation, "a joined caller leaving does not cancel the reload")

        first[1].open(with: 2)
        for caller in callers { await caller.value }
        #expect(entry.state == .success(value: 2))
        #expect(entry.runningCount == 0)
        #expect(gates.taken.count == 2, "every caller joined the reload")
        withExtendedLifetime((subscription, second)) {}
    }

    @Test("a cache's prefetch from an entry's change handler decides at the entry's next turn, and waits for the load it starts")
    func prefetchFromChangeHandler() async {
        let gates = GateQueue<Int>()
        let cache = Cache<Int, Int, TestError>(clock: TestClock(), staleAfter: .zero) { _ in gates.request() }
        let loads = gates.prepare(2)
        let subscription = cache.subscribe(1)
        await loads[0].waitForArrivals()
        let entry = cache[1]!
        let prefetched = LockedValue(false)
        withObservationTracking {
            _ = entry.value
        } onChange: {
            Task.immediate { @MainActor in
                await cache.prefetch(1)
                prefetched.withLock { $0 = true }
            }
        }
        loads[0].open(with: 1)
        await subscription.loaded()
        await loads[1].waitForArrivals()
        #expect(entry.runningCount == 1)
        #expect(!prefetched.current, "the prefetch waits for the load it started")
        loads[1].open(with: 2)
        await yieldUntil { prefetched.current }
        #expect(prefetched.current)
        #expect(entry.state == .success(value: 2))
        withExtendedLifetime(subscription) {}
    }

    @Test("a save retried from a change handler keeps its key active while it runs, and returns its result")
    func runFromChangeHandler() async {
        let operations = OperationTracker<Operation, TestError>()
        let firstSave = Gate<Int>()
        let secondSave = Gate<Int>()
        let results = LockedValue<[OperationResult<Int, TestError>]>([])
        #expect(await operations.run(.save, LoadRequest { () async throws(TestError) -> Int in 0 }) == .success(0))
        withObservationTracking {
            _ = operations.error(for: .save)
        } onChange: {
            Task.immediate { @MainActor in
                let result = await operations.run(.save, Self.waiting(on: secondSave))
                results.withLock { $0.append(result) }
            }
        }
        let first = await startCaller { await operations.run(.save, Self.waiting(on: firstSave)) }
        firstSave.fail(with: Offline())
        #expect(await first.value == .failure(.offline))
        await secondSave.waitForArrivals()
        #expect(operations.isActive(.save), "the retried save runs: its key is active")
        #expect(results.current.isEmpty, "the call waits for its save")
        secondSave.open(with: 2)
        await yieldUntil { !results.current.isEmpty }
        #expect(results.current == [.success(2)])
        #expect(!operations.isActive(.save))
    }
}
