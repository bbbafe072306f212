import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Testing

/// An edit in flight uses its entry as a subscription does: the entry is
/// neither collected nor evicted while the edit runs, so its write lands on
/// the entry every user of the key sees, and it goes idle when the edit
/// settles.
@Suite("Cache: an edit in flight keeps its entry", .hangGuard)
@MainActor
struct CacheEditHoldTests {
    /// A cache whose entry 7 is loaded as "Lee" and has no user left, with
    /// a rename to "Ada" in flight on it.
    func renamingUnusedEntry(collectAfter: Duration, capacity: Int = .max) async throws -> (
        Cache<Int, String, TestError>, Backend, AsyncValue<String, TestError>, Gate<Bool>, Task<EditAction<String, TestError>?, Never>
    ) {
        let (cache, _, backend) = makeCache(collectAfter: collectAfter, capacity: capacity)
        let user = cache.subscribe(7)
        await backend.waitForCalls(1)
        backend.answer(7, with: "Lee")
        await user.loaded()
        let entry = try #require(cache[7])
        let save = Gate<Bool>()
        let renaming = await startCaller { await entry.edit(Rename(to: "Ada"), saving(save)) }
        await save.waitForArrivals()
        user.cancel()
        return (cache, backend, entry, save, renaming)
    }

    @Test("the last user leaving does not collect an entry whose edit is in flight; the edit's end does", arguments: [true, false])
    func collectedAfterTheEdit(confirmed: Bool) async throws {
        let (cache, _, entry, save, renaming) = try await renamingUnusedEntry(collectAfter: .zero)
        #expect(cache[7] === entry, "kept while the rename is in flight")
        #expect(cache[7]?.value == "Ada")
        #expect(cache.users(of: 7) == 0, "an edit is not a subscription")
        save.open(with: confirmed)
        let ended = await renaming.value
        #expect(ended?.isConfirmed == confirmed)
        #expect(cache.count == 0, "collected as the edit settles")
    }

    @Test("an edit withdrawn by cancelling its caller's task lets its entry go")
    func collectedAfterTheEditIsWithdrawn() async throws {
        let (cache, _, entry, save, renaming) = try await renamingUnusedEntry(collectAfter: .zero)
        #expect(cache[7] === entry)
        renaming.cancel()
        let ended = await renaming.value
        #expect(ended?.id != nil && ended?.isConfirmed == false)
        #expect(save.observedCancellation)
        #expect(entry.value == "Lee", "rolled back")
        #expect(cache.count == 0, "collected as the edit is withdrawn")
    }

    @Test("an edit whose starter leaves while a joined caller waits lets its entry go as it settles")
    func collectedAfterAJoinedEdit() async throws {
        let (cache, _, entry, save, renaming) = try await renamingUnusedEntry(collectAfter: .zero)
        let joining = await startCaller { await entry.edit(Rename(to: "Bo"), saving(Gate<Bool>()), overlap: .join) }
        // Started on the main actor, the call has joined by the time it suspends.
        renaming.cancel()
        _ = await renaming.value
        #expect(cache[7] === entry && entry.value == "Ada", "the joined caller still shares the rename")
        save.open(with: true)
        #expect(await joining.value == nil, "a joined call returns nil")
        #expect(cache.count == 0, "collected as the rename settles")
    }

    @Test("a subscriber who comes while the edit is in flight shares the entry and sees the edit")
    func subscriberSeesTheEdit() async throws {
        let (cache, backend, entry, save, renaming) = try await renamingUnusedEntry(collectAfter: .zero)
        let again = cache.subscribe(7)
        #expect(again.entry === entry)
        #expect(again.value == "Ada")
        #expect(backend.calls.count == 1, "still fresh: no reload")
        save.open(with: true)
        _ = await renaming.value
        #expect(cache[7]?.value == "Ada" && cache.count == 1, "the subscriber keeps it")
        again.cancel()
        #expect(cache.count == 0)
    }

    @Test("over capacity, the entry its edit kept goes when the edit settles, ahead of one prefetched meanwhile")
    func editedEntryGoesFirst() async throws {
        let (cache, backend, entry, save, renaming) = try await renamingUnusedEntry(collectAfter: .seconds(60), capacity: 1)
        let prefetching = await startCaller { await cache.prefetch(8) }
        await backend.waitForCalls(2)
        backend.answer(8, with: "Bo")
        await prefetching.value
        #expect(cache[7] === entry && cache.count == 2, "over capacity while the rename is in flight")
        save.open(with: true)
        _ = await renaming.value
        #expect(cache[7] == nil, "evicted as the edit settles")
        #expect(cache[8]?.value == "Bo", "the prefetched entry is kept, last in the order of eviction")
    }

    @Test("an entry whose edit is in flight is not evicted over capacity; it is once the edit settles")
    func evictedAfterTheEdit() async throws {
        let (cache, backend, entry, save, renaming) = try await renamingUnusedEntry(collectAfter: .seconds(60), capacity: 1)
        let other = cache.subscribe(8)
        await backend.waitForCalls(2)
        #expect(cache[7] === entry && cache.count == 2, "over capacity while the rename is in flight")
        save.open(with: true)
        _ = await renaming.value
        #expect(cache[7] == nil && cache.count == 1, "evicted as the edit settles")
        other.cancel()
    }
}

/// A screen over a reducer's cache of names: entry 7 is loaded from
/// `load`, and renamed through `save`.
struct NamesFeature: Reducer {
    struct State { var names = CacheState<Int, String, TestError>() }
    enum Action {
        case rename(String)
        case undoRename
        case names(CacheAction<Int, String, TestError>)
    }

    let clock: LoadClock
    let load: Gate<String>
    let save: Gate<Bool>

    var body: some Reducer<State, Action> {
        Scope(state: \.names, action: Action.names, extract: { if case .names(let action) = $0 { action } else { nil } }) {
            CacheReducer(clock: clock, staleAfter: .seconds(30), collectAfter: .seconds(60)) { [load] _ in
                LoadRequest { () async throws(TestError) in
                    do { return try await load.wait() } catch { throw .offline }
                }
            }
        }
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .rename(let name):
            return state.names.update(7) { $0.edit({ Action.names(.entry(7, $0)) }, Rename(to: name), saving(save)) } ?? .none
        case .undoRename:
            guard let id = state.names[7]?.pendingEdits.keys.first else { return .none }
            return .cancel(load: state.names.update(7) { $0.cancel(edit: id) } ?? nil)
        case .names:
            return body.reduce(into: &state, action: action)
        }
    }
}

@Suite("CacheReducer: an edit in flight keeps its entry", .hangGuard)
@MainActor
struct CacheReducerEditHoldTests {
    @Test("a collection timer that runs out during an edit keeps the entry; it is collected collectAfter after the edit settles")
    func collectedAfterTheEdit() async {
        let (store, clock, save, renaming) = await renamingUnusedEntry()
        #expect(store.names.users(of: 7) == 0)
        // Collected, there is no timer to wait for below.
        guard store.names[7] != nil else { return }
        save.open(with: true)
        await renaming.finish()
        #expect(store.names[7]?.value == "Ada" && store.names[7]?.pendingEdits.isEmpty == true)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(59))
        #expect(store.names.count == 1)
        clock.advance(by: .seconds(1))
        await yieldUntil { store.names.count == 0 }
        #expect(store.names.count == 0, "collected collectAfter after the edit settled")
    }
}

@Suite("CacheReducer: a key not equal to itself", .hangGuard)
@MainActor
struct CacheReducerUnequalKeyTests {
    @Test("its subscribe and prefetch are dropped: nothing is cached, so nothing is left that no action could find")
    func dropped() async {
        let clock = LoadClock(TestClock())
        let store = Store(
            initialState: CacheState<Double, String, TestError>(),
            reducer: CacheReducer(clock: clock, staleAfter: .seconds(30), collectAfter: .zero) { key in
                LoadRequest { () async throws(TestError) in "\(key)" }
            })
        var dropped: [Bool] = []
        store.observeTransitions { dropped.append($0.isDropped) }
        for _ in 0..<3 {
            await store.send(.subscribe(.nan, at: clock.now)).finish()
            await store.send(.prefetch(.nan, at: clock.now)).finish()
            await store.send(.unsubscribe(.nan)).finish()
        }
        #expect(store.state.count == 0)
        #expect(dropped == Array(repeating: true, count: 9))
        #expect(store.runningEffectCount == 0)
    }
}

extension CacheReducerEditHoldTests {
    @Test("an edit rolled back by cancel(edit:) lets its entry go when its stale end arrives, a change not reported as dropped")
    func collectedAfterARollback() async {
        let (store, clock, _, renaming) = await renamingUnusedEntry()
        var ends: [(action: String, isDropped: Bool)] = []
        store.observeTransitions { transition in
            if case .names(.entry(_, .edit(.cancelled))) = transition.action { ends.append(("\(transition.action)", transition.isDropped)) }
        }
        await store.send(.undoRename).finish()
        await renaming.finish()
        #expect(ends.count == 1 && ends.first?.isDropped == false, "\(ends)")
        #expect(store.names[7]?.value == "Lee", "rolled back")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(60))
        await yieldUntil { store.names.count == 0 }
        #expect(store.names.count == 0, "collected collectAfter after the rollback's end")
    }
}

extension CacheReducerEditHoldTests {
    /// Loads key 7 as "Lee", starts renaming it to "Ada" (the save waits on
    /// the returned gate), unsubscribes its only user and runs its
    /// collection timer out: the entry is kept, showing the pending "Ada".
    func renamingUnusedEntry() async -> (
        store: Store<NamesFeature.State, NamesFeature.Action>, clock: TestClock, save: Gate<Bool>, renaming: StoreTask
    ) {
        let clock = TestClock()
        let (load, save) = (Gate<String>(), Gate<Bool>())
        let store = Store(initialState: NamesFeature.State(), reducer: NamesFeature(clock: LoadClock(clock), load: load, save: save))
        let loading = store.send(.names(.subscribe(7, at: LoadClock(clock).now)))
        load.open(with: "Lee")
        await loading.finish()
        let renaming = store.send(.rename("Ada"))
        await save.waitForArrivals()
        let leaving = store.send(.names(.unsubscribe(7)))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(60))
        await leaving.finish()
        #expect(store.names[7]?.value == "Ada", "kept while the rename is in flight")
        return (store, clock, save, renaming)
    }
}

extension EditAction {
    var isConfirmed: Bool {
        if case .confirmed = self { true } else { false }
    }
}
