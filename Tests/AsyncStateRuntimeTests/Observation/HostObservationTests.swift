import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Observation
import Testing

/// The hosts reach the store's precision: each member a screen reads is a
/// part of its own.
@Suite("Observation: hosts")
@MainActor
struct HostObservationTests {
    static func readers(of profile: AsyncValue<Int, TestError>) -> Readers {
        let readers = Readers()
        readers.add("value", rereads: true) { _ = profile.value }
        readers.add("isLoading", rereads: true) { _ = profile.isLoading }
        readers.add("activity", rereads: true) { _ = profile.activity }
        readers.add("error", rereads: true) { _ = profile.error }
        readers.add("state", rereads: true) { _ = profile.state }
        return readers
    }

    @Test("AsyncValue: a load tells the readers of what it changes, and a superseded load's result tells nobody")
    func asyncValue() async {
        let profile = AsyncValue<Int, TestError>()
        let readers = Self.readers(of: profile)
        let first = Gate<Int>()
        let second = Gate<Int>()
        let firstLoad = Task { await profile.load(LoadRequest(mapError: { _ in .offline }) { await first.value() ?? -1 }) }
        await first.waitForArrivals()
        #expect(readers.told == ["isLoading": 1, "activity": 1, "state": 1], "the value did not change")
        readers.reset()
        let secondLoad = Task { await profile.load(LoadRequest(mapError: { _ in .offline }) { try await second.wait() }) }
        await second.waitForArrivals()
        #expect(readers.told == [:], "a new load in flight looks the same: loading, first attempt")
        first.open(with: 1)
        await firstLoad.value
        #expect(readers.told == [:], "the superseded load's result is dropped")
        second.open(with: 2)
        await secondLoad.value
        #expect(readers.told == ["value": 1, "isLoading": 1, "activity": 1, "state": 1])
        #expect(profile.value == 2)
    }

    @Test(
        "AsyncValue: the readers of pendingEdits and of staleness are told when an edit starts or settles and when the value settles, not when a load starts"
    )
    func pendingEditsAndStaleness() async {
        let clock = TestClock()
        let value = AsyncValue<Int, TestError>(value: 1, clock: clock)
        let readers = Readers()
        readers.add("pendingEdits", rereads: true) { _ = value.pendingEdits }
        readers.add("isStale", rereads: true) { _ = value.isStale(maxAge: .seconds(60)) }
        let load = Gate<Int>()
        let loading = await startCaller { await value.load { () async throws(TestError) in await load.value() ?? -1 } }
        await load.waitForArrivals()
        #expect(readers.told == [:], "a load in flight changes neither")
        let save = Gate<Bool>()
        let editing = await startCaller { await value.edit(AddOne(), saving(save)) }
        await save.waitForArrivals()
        #expect(readers.told == ["pendingEdits": 1])
        readers.reset()
        clock.advance(by: .seconds(1))
        load.open(with: 5)
        await loading.value
        #expect(readers.told == ["isStale": 1], "the value settled a second later: its age began anew")
        readers.reset()
        save.open(with: true)
        _ = await editing.value
        #expect(readers.told == ["pendingEdits": 1])
        #expect(value.value == 6 && value.pendingEdits.isEmpty)
    }

    /// Adds one while the value is below ten; past it the edit no longer applies.
    struct AddOneBelowTen: Edit {
        func apply(to value: inout Int) -> Bool {
            guard value < 10 else { return false }
            value += 1
            return true
        }
    }

    // From an outside reading: `settledAt` and `conflicts`, which the README
    // lists as what a view reads, were members of `Loadable` only, and a
    // reader of `value.loadable.conflicts` was told of every change.
    @Test("AsyncValue: settledAt and conflicts are members of their own, told when the value settles and when an edit stops applying")
    func settledAtAndConflicts() async {
        let clock = TestClock()
        let value = AsyncValue<Int, TestError>(value: 1, clock: clock)
        let readers = Readers()
        readers.add("settledAt", rereads: true) { _ = value.settledAt }
        readers.add("conflicts", rereads: true) { _ = value.conflicts }
        let save = Gate<Bool>()
        let editing = await startCaller { await value.edit(AddOneBelowTen(), saving(save)) }
        await save.waitForArrivals()
        let load = Gate<Int>()
        let loading = await startCaller { await value.load { () async throws(TestError) in await load.value() ?? -1 } }
        await load.waitForArrivals()
        #expect(readers.told == [:], "an edit and a load in flight change neither")
        clock.advance(by: .seconds(5))
        load.open(with: 10)
        await loading.value
        #expect(readers.told == ["settledAt": 1, "conflicts": 1])
        #expect(value.settledAt == LoadClock.Instant(offset: .seconds(5)))
        #expect(value.conflicts.count == 1 && value.conflicts == value.loadable.conflicts)
        save.open(with: true)
        _ = await editing.value
        #expect(value.conflicts.isEmpty)
    }

    @Test("Cache: a reader of one entry is not told when another entry loads")
    func cache() async {
        let cache = Cache<Int, Int, Never>(clock: ContinuousClock(), staleAfter: .seconds(60)) { key in
            LoadRequest { () async throws(Never) in key * 10 }
        }
        let one = cache.subscribe(1)
        await one.loaded()
        let readers = Readers()
        readers.add("entry 1", rereads: true) { _ = cache[1]?.value }
        let two = cache.subscribe(2)
        await two.loaded()
        #expect(readers.told == [:])
        #expect(cache[2]?.value == 20)
        withExtendedLifetime((one, two)) {}
    }

    @Test("OperationTracker: a reader of one key's error is not told when another key fails")
    func operationTracker() async {
        let tracker = OperationTracker<String, TestError>()
        _ = await tracker.run("a", LoadRequest { () async throws(TestError) in throw .offline })
        let readers = Readers()
        readers.add("error a") { _ = tracker.error(for: "a") }
        readers.add("error b") { _ = tracker.error(for: "b") }
        _ = await tracker.run("b", LoadRequest { () async throws(TestError) in throw .timedOut })
        #expect(tracker.error(for: "b") == .timedOut)
        #expect(readers.told == ["error b": 1], "b's reader read a key with no entry, so is told when it is added")
        readers.rearm(["error b"])
        _ = await tracker.run("b", LoadRequest { () async throws(TestError) in throw .offline })
        #expect(readers.told == ["error b": 2], "now it depends on b's error alone, told once when it changed")
    }

    // From an outside reading: these read the key's count of running loads,
    // and were told whenever it moved — a Save button re-rendered for every
    // save queued behind the one running.
    @Test(
        "OperationTracker: readers of isActive, isAnyActive and activeKeys are told when a key starts or stops, not when a second run queues"
    )
    func trackerActivity() async {
        let tracker = OperationTracker<String, TestError>()
        let gates = GateQueue<Int>()
        let prepared = gates.prepare(2)
        let first = Task { await tracker.run("save", gates.request()) }
        await yieldUntil { tracker.isActive("save") }
        let readers = Readers()
        readers.add("isActive") { _ = tracker.isActive("save") }
        readers.add("isAnyActive") { _ = tracker.isAnyActive }
        readers.add("activeKeys") { _ = tracker.activeKeys }
        let second = Task { await tracker.run("save", gates.request(), overlap: .queue) }
        await yieldUntil { tracker.waitingCount("save") == 1 }
        #expect(tracker.isActive("save"))
        #expect(readers.told == [:], "still active")
        prepared[0].open(with: 1)
        await prepared[1].waitForArrivals()
        #expect(readers.told == [:], "the queued run took over: still active")
        prepared[1].open(with: 2)
        _ = await (first.value, second.value)
        #expect(!tracker.isActive("save"))
        #expect(readers.told == ["isActive": 1, "isAnyActive": 1, "activeKeys": 1])
    }
}
