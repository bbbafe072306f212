import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Observation
import Testing

/// The Statable README's examples (StatableReadmeFixture.swift), run: they
/// behave as the README says, and a view reading the user's own
/// `@Observable` class is told when they change.
@Suite("Statable README, without the macro", .hangGuard)
@MainActor
struct StatableReadmeTests {
    @Test("Quick Start: a derived property reads the loaded value")
    func quickStart() async {
        let api = FakeAPI()
        let store = ProfileStore()
        #expect(store.currentAge == 0)
        api.profile.open(with: MetabolicProfile(birthYear: 1990))
        await basicLoad(store, api: api)
        #expect(store.currentAge == 36)
        #expect(store.state == .success(value: MetabolicProfile(birthYear: 1990)))
    }

    @Test("Quick Start: isRecording follows the tracked operations")
    func quickStartOperations() async {
        let store = WorkoutStore()
        let gate = Gate<Void>()
        let recording = Task { await store.operations.run(.recordStrength) { try await gate.wait() } }
        await gate.waitForArrivals()
        #expect(store.isRecording)
        gate.open(with: ())
        #expect(await recording.value.value != nil, "the run succeeded")
        #expect(!store.isRecording)
    }

    @Test("Loading Data: load, then loadIfNeeded does nothing after success")
    func loadingData() async {
        let api = FakeAPI()
        let store = ProfileStore()
        api.profile.open(with: MetabolicProfile(birthYear: 2000))
        await basicLoad(store, api: api)
        await loadIfNeededExample(store, api: api)
        #expect(api.profileCalls == 1)
        #expect(store.value == MetabolicProfile(birthYear: 2000))
    }

    @Test("Loading Data: loadIfNeeded after a failure loads again")
    func loadIfNeededAfterFailure() async {
        let api = FakeAPI()
        let store = ProfileStore()
        api.profile.fail(with: Offline())
        await basicLoad(store, api: api)
        #expect(store.error == AnyError(Offline()))
        api.profile = Gate()
        api.profile.open(with: MetabolicProfile(birthYear: 2000))
        await loadIfNeededExample(store, api: api)
        #expect(api.profileCalls == 2)
        #expect(store.error == nil)
    }

    @Test("Rendering: skeleton, then content, content during reload, content plus banner after a failure")
    func rendering() async {
        let store = ItemStore()
        #expect(render(store) == ["skeleton"])

        await store.load { [Item(id: 1)] }
        #expect(render(store) == ["content [1]"])

        let gate = Gate<[Item]>()
        let reload = Task { await store.load { try await gate.wait() } }
        await gate.waitForArrivals()
        #expect(render(store) == ["content [1]"])
        #expect(store.isLoading)

        gate.fail(with: Offline())
        await reload.value
        #expect(render(store) == ["content [1]", "banner \(AnyError(Offline()))"])
    }

    @Test("Rendering: the failure face only when there is nothing to show")
    func failureFace() async {
        let store = ItemStore()
        await store.load { throw Offline() }
        #expect(render(store) == ["failure \(AnyError(Offline()))"])
    }

    @Test("finding 8: a Statable user's banner(_: any Error) takes store.error as it is, and prints what the operation threw")
    func bannerTakesAnyError() async throws {
        let store = ItemStore()
        await store.load { throw Offline() }
        let error = try #require(store.error)
        #expect(banner(error) == "banner \(Offline())")
        #expect(store.error.map(banner) == "banner \(Offline())")
        let asAnyError: any Error = error
        #expect((asAnyError as? AnyError)?.base is Offline, "the error the operation threw is kept as base")
    }

    @Test("Operation Tracking: the rows show the items; Save is disabled while saving and saves them")
    func operationTracking() async {
        let api = FakeAPI()
        let store = ItemStore()
        let view = ItemListView(store: store, api: api)
        #expect(view.rows.isEmpty)
        await store.load { [Item(id: 1), Item(id: 2)] }
        #expect(view.rows == [ItemRow(item: Item(id: 1)), ItemRow(item: Item(id: 2))])

        let saving = view.tapSave()
        await api.save.waitForArrivals()
        #expect(view.isSaveDisabled)
        api.save.open(with: ())
        await saving.value
        #expect(!view.isSaveDisabled)
        #expect(api.saved == [[Item(id: 1), Item(id: 2)]])
        #expect(store.operations.error(for: .save) == nil)
    }

    @Test("observation works through the user's @Observable class: value, isLoading, a derived property, operations")
    func observationThroughTheClass() async {
        let api = FakeAPI()
        let store = ProfileStore()
        let changes = ChangeCounter()
        withObservationTracking {
            _ = store.currentAge
        } onChange: {
            changes.increment()
        }
        let loading = Task { await basicLoad(store, api: api) }
        await api.profile.waitForArrivals()
        #expect(changes.value == 0, "starting a load leaves the value as it was, so a reader of the age is not told")

        let settled = ChangeCounter()
        withObservationTracking {
            _ = store.value
            _ = store.isLoading
        } onChange: {
            settled.increment()
        }
        api.profile.open(with: MetabolicProfile(birthYear: 1990))
        await loading.value
        #expect(settled.value == 1)
        #expect(changes.value == 1, "the value arrived")
        #expect(store.currentAge == 36)

        let items = ItemStore()
        let saving = ChangeCounter()
        withObservationTracking {
            _ = ItemListView(store: items, api: api).isSaveDisabled
        } onChange: {
            saving.increment()
        }
        await items.operations.run(.save) {}
        #expect(saving.value == 1)
    }
}

/// Every member `AsyncValueStore` gives a conforming class, one behaviour each.
@Suite("AsyncValueStore")
@MainActor
struct AsyncValueStoreTests {
    @MainActor
    final class Counter: AsyncValueStore {
        let asyncValue = AsyncValue<Int, TestError>()
    }

    @Test("state, value, error and isLoading are the AsyncValue's")
    func reads() async {
        let store = ItemStore()
        #expect(store.state == .notLoaded)
        #expect(store.value == nil && store.error == nil && !store.isLoading)
        await store.load { [Item(id: 1)] }
        #expect(store.state == store.asyncValue.state)
        #expect(store.value == [Item(id: 1)])
    }

    @Test("reload repeats the last load")
    func reload() async {
        let store = ItemStore()
        let calls = ChangeCounter()
        await store.load {
            calls.increment()
            return [Item(id: calls.value)]
        }
        await store.reload()
        #expect(store.value == [Item(id: 2)])
    }

    @Test("cancel returns to the previous value; reset forgets it; setValue stores one")
    func cancelResetSet() async {
        let store = ItemStore()
        store.setValue([Item(id: 1)])
        let gate = Gate<[Item]>()
        let loading = Task { await store.load { try await gate.wait() } }
        await gate.waitForArrivals()
        store.cancel()
        await loading.value
        #expect(store.state == .success(value: [Item(id: 1)]))
        store.reset()
        #expect(store.state == .notLoaded)
    }

    // The store's typed `load` and `loadIfNeeded` overloads are gone (see
    // CHANGELOG): a store with a typed failure loads through its AsyncValue
    // with a request. Its reads are still the store's.
    @Test("a typed store loads through its AsyncValue with a request: typed failures and mapError")
    func typed() async {
        let store = Counter()
        await store.asyncValue.load(LoadRequest { () async throws(TestError) -> Int in throw .timedOut })
        #expect(store.error == .timedOut)
        await store.asyncValue.load(LoadRequest(mapError: { _ in .offline }) { throw Offline() })
        #expect(store.error == .offline)
        await store.asyncValue.loadIfNeeded(LoadRequest { () async throws(TestError) -> Int in 3 })
        #expect(store.value == 3)
        await store.asyncValue.loadIfNeeded(LoadRequest { () async throws(TestError) -> Int in 4 }, maxAge: .seconds(1))
        #expect(store.value == 4, "without a clock every success counts as stale")
    }

    @Test("loadIfNeeded(maxAge:) and isStale use the clock the AsyncValue was made with")
    func freshness() async {
        @MainActor
        final class Timed: AsyncValueStore {
            let asyncValue: AsyncValue<Int, AnyError>
            init(clock: TestClock) { asyncValue = AsyncValue(clock: clock) }
        }
        let clock = TestClock()
        let store = Timed(clock: clock)
        await store.loadIfNeeded(maxAge: .seconds(60)) { 1 }
        clock.advance(by: .seconds(59))
        await store.loadIfNeeded(maxAge: .seconds(60)) { 2 }
        #expect(store.value == 1)
        #expect(!store.isStale(maxAge: .seconds(60)))
        clock.advance(by: .seconds(1))
        #expect(store.isStale(maxAge: .seconds(60)))
        await store.loadIfNeeded(maxAge: .seconds(60)) { 3 }
        #expect(store.value == 3)
    }

    @Test("loadIfNeeded through the store shares a load in flight")
    func sharedThroughTheStore() async {
        let store = ItemStore()
        let gate = Gate<[Item]>()
        let starter = await startCaller { await store.loadIfNeeded { try await gate.wait() } }
        await gate.waitForArrivals()
        let joiner = await startCaller {
            await store.loadIfNeeded { [] }
            return store.value
        }
        starter.cancel()
        await starter.value
        gate.open(with: [Item(id: 9)])
        #expect(await joiner.value == [Item(id: 9)])
    }
}
