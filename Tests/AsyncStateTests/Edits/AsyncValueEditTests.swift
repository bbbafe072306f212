import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

// Ported from OptimisticValue, now `AsyncValue`'s edits, and from
// `OperationTracker.run(_:editing:_:_:)`, which `AsyncValue.edit(_:_:overlap:)`
// replaces: an edit's last action is what the caller gets back.
@Suite("Edits in a host: AsyncValue.edit and reducers", .hangGuard)
@MainActor
struct AsyncValueEditTests {
    let rows: RowValues = [1: 0, 2: 0]

    @Test("two edits in flight; one fails and rolls back only itself while a load lands in between")
    func twoEditsAndALoad() async throws {
        let value = AsyncValue<RowValues, TestError>(value: rows)
        let like = Gate<Bool>(), rename = Gate<Bool>(), poll = Gate<RowValues>()
        let liking = await startCaller { await value.edit(SetRow(1, to: 5), saving(like)) }
        let renaming = await startCaller { await value.edit(SetRow(2, to: 7), saving(rename)) }
        await like.waitForArrivals()
        await rename.waitForArrivals()
        #expect(value.value == [1: 5, 2: 7], "both edits show at once")
        let likeID = try #require(value.pendingEdits.keys.first)
        let renameID = try #require(value.pendingEdits.keys.last)
        let polling = await startCaller { await value.load { () async throws(TestError) in try! await poll.wait() } }
        await poll.waitForArrivals()
        poll.open(with: [1: 1, 2: 2])
        await polling.value
        #expect(value.value == [1: 5, 2: 7], "the poll does not erase the pending edits")
        like.open(with: false)
        #expect(await liking.value == .failed(likeID, .offline))
        #expect(value.value == [1: 1, 2: 7], "only the failed edit is rolled back, onto the polled value")
        #expect(value.editError == .offline)
        rename.open(with: true)
        #expect(await renaming.value == .confirmed(renameID))
        #expect(value.value == [1: 1, 2: 7] && value.loadable.confirmedValue == [1: 1, 2: 7] && value.pendingEdits.isEmpty)
    }

    @Test("cancelling an edit rolls it back and cancels its work")
    func cancel() async throws {
        let value = AsyncValue<RowValues, TestError>(value: rows)
        let gate = Gate<Bool>()
        let editing = await startCaller { await value.edit(SetRow(1, to: 5), saving(gate)) }
        await gate.waitForArrivals()
        let id = try #require(value.pendingEdits.keys.first)
        value.cancel(edit: id)
        #expect(value.value == rows)
        #expect(await editing.value == .cancelled(id))
        #expect(gate.observedCancellation && value.pendingEdits.isEmpty && value.editError == nil)
    }

    @Test("reset cancels the pending and the queued edits: their requests stop, and their callers are told so")
    func resetCancelsEdits() async throws {
        let value = AsyncValue<RowValues, TestError>(value: rows)
        let like = Gate<Bool>()
        let renameStarted = LockedValue(false)
        let rename = LoadRequest<Void, TestError> { () async throws(TestError) in renameStarted.withLock { $0 = true } }
        let liking = await startCaller { await value.edit(SetRow(1, to: 5), saving(like)) }
        await like.waitForArrivals()
        let renaming = await startCaller { await value.edit(SetRow(2, to: 7), rename, overlap: .queue) }
        let (likeID, renameID) = (try #require(value.pendingEdits.keys.first), try #require(value.pendingEdits.keys.last))
        value.reset()
        #expect(await liking.value == .cancelled(likeID))
        #expect(await renaming.value == .cancelled(renameID))
        #expect(like.observedCancellation, "the edit's request was cancelled")
        #expect(!renameStarted.current, "the queued edit's request never started")
        // Its callers returned at once; the work's own end comes when it returns.
        await yieldUntil { value.runningCount == 0 }
        #expect(value.state == .notLoaded && value.pendingEdits.isEmpty && value.runningCount == 0)
    }

    @Test("cancelling the calling task rolls the edit back; it is not an error")
    func cancelCaller() async throws {
        let value = AsyncValue<RowValues, TestError>(value: rows)
        let gate = Gate<Bool>()
        let editing = await startCaller { await value.edit(SetRow(1, to: 5), saving(gate)) }
        await gate.waitForArrivals()
        let id = try #require(value.pendingEdits.keys.first)
        editing.cancel()
        let ended = await editing.value
        #expect(ended == .cancelled(id), "ended \(String(describing: ended))")
        #expect(value.value == rows && value.editError == nil && value.pendingEdits.isEmpty)
        #expect(gate.observedCancellation)
    }

    @Test("cancelling the starter's task while a joined caller waits: the starter learns nothing, the edit goes on and confirms")
    func cancelStarterOfJoinedEdit() async throws {
        let value = AsyncValue<RowValues, TestError>(value: rows)
        let gate = Gate<Bool>()
        let starter = await startCaller { await value.edit(SetRow(1, to: 5), saving(gate)) }
        await gate.waitForArrivals()
        let joiner = await startCaller { await value.edit(SetRow(2, to: 6), saving(Gate()), overlap: .join) }
        starter.cancel()
        #expect(await starter.value == nil, "not .cancelled: the edit was not withdrawn")
        #expect(value.value == [1: 5, 2: 0] && !gate.observedCancellation)
        gate.open(with: true)
        #expect(await joiner.value == nil)
        #expect(value.loadable.confirmedValue == [1: 5, 2: 0] && value.pendingEdits.isEmpty)
    }

    @Test("an edit runs its request with the edit shown, counts as running work, and says how it ended")
    func editRunsItsRequest() async throws {
        let value = AsyncValue<RowValues, TestError>(value: rows)
        let gate = Gate<Bool>()
        let liking = await startCaller { await value.edit(SetRow(1, to: 5), saving(gate)) }
        await gate.waitForArrivals()
        #expect(value.runningCount == 1 && value.value?[1] == 5)
        let id = try #require(value.pendingEdits.keys.first)
        gate.open(with: true)
        #expect(await liking.value == .confirmed(id))
        #expect(value.runningCount == 0 && value.loadable.confirmedValue?[1] == 5)

        let failing = Gate<Bool>()
        failing.open(with: false)
        let failed = await value.edit(SetRow(2, to: 9), saving(failing))
        guard case .failed(_, .offline) = failed else {
            Issue.record("the failing edit ended \(String(describing: failed))")
            return
        }
        #expect(value.editError == .offline && value.value?[2] == 0)
    }

    @Test("latest wins cancels the pending edit, rolling it back; first wins starts nothing and shows nothing")
    func overlap() async throws {
        let value = AsyncValue<RowValues, TestError>(value: rows)
        let first = Gate<Bool>(), second = Gate<Bool>()
        let one = await startCaller { await value.edit(SetRow(1, to: 5), saving(first), overlap: .latestWins) }
        await first.waitForArrivals()
        let firstID = try #require(value.pendingEdits.keys.first)
        #expect(await value.edit(SetRow(2, to: 6), saving(second), overlap: .firstWins) == nil)
        #expect(value.value == [1: 5, 2: 0])
        let two = await startCaller { await value.edit(SetRow(1, to: 8), saving(second), overlap: .latestWins) }
        await second.waitForArrivals()
        #expect(await one.value == .cancelled(firstID))
        #expect(first.observedCancellation)
        #expect(value.value == [1: 8, 2: 0], "the superseded edit is rolled back; the newer one shows")
        let secondID = try #require(value.pendingEdits.keys.first)
        second.open(with: true)
        #expect(await two.value == .confirmed(secondID))
        #expect(value.loadable.confirmedValue == [1: 8, 2: 0])
    }

    @Test("queued edits all show at once and their requests run one after another, in order")
    func queued() async throws {
        let value = AsyncValue<RowValues, TestError>(value: rows)
        let first = Gate<Bool>(), second = Gate<Bool>()
        let one = await startCaller { await value.edit(SetRow(1, to: 5), saving(first), overlap: .queue) }
        await first.waitForArrivals()
        let two = await startCaller { await value.edit(SetRow(1, to: 6), saving(second), overlap: .queue) }
        #expect(value.value == [1: 6, 2: 0], "the queued edit shows at once, on top")
        #expect(value.pendingEdits.count == 2)
        first.open(with: true)
        await second.waitForArrivals()
        second.open(with: true)
        let ids = [await one.value, await two.value]
        guard case .confirmed = ids[0], case .confirmed = ids[1] else {
            Issue.record("the queued edits ended \(ids)")
            return
        }
        #expect(value.loadable.confirmedValue == [1: 6, 2: 0])
    }

    @Test("a join waits for the pending edit instead of starting another")
    func join() async throws {
        let value = AsyncValue<RowValues, TestError>(value: rows)
        let gate = Gate<Bool>()
        let one = await startCaller { await value.edit(SetRow(1, to: 5), saving(gate), overlap: .join) }
        await gate.waitForArrivals()
        let two = await startCaller { await value.edit(SetRow(2, to: 6), saving(Gate()), overlap: .join) }
        #expect(value.value == [1: 5, 2: 0], "the joining edit shows nothing")
        let id = try #require(value.pendingEdits.keys.first)
        gate.open(with: true)
        #expect(await one.value == .confirmed(id))
        #expect(await two.value == nil)
        #expect(value.loadable.confirmedValue == [1: 5, 2: 0])
    }

    @Test("a reducer runs an edit with its request in one effect; Effect.cancel(load:) rolls it back")
    func reducer() async {
        let gate = Gate<Bool>()
        let store = Store(initialState: EditedRows(value: rows), reducer: RowEditor(gate: gate))
        let editing = store.send(.set(SetRow(1, to: 5)))
        await gate.waitForArrivals()
        #expect(store.value == [1: 5, 2: 0])
        store.send(.cancel(store.pendingEdits.keys[0]))
        await editing.finish()
        #expect(store.value == rows && gate.observedCancellation)
        #expect(store.state == Loadable(expecting: .success(value: rows), newestEditID: LoadID(1)))
    }

    @Test("in a reducer, a confirmed edit joins the confirmed value")
    func reducerConfirms() async {
        let gate = Gate<Bool>()
        gate.open(with: true)
        let store = TestStore(initialState: EditedRows(value: rows), reducer: RowEditor(gate: gate))
        store.send(.set(SetRow(1, to: 5)))
        await store.receive(.rows(.edit(.started(LoadID(1), AnyEdit(SetRow(1, to: 5)))))) {
            $0 = Loadable(
                expecting: .success(value: [1: 5, 2: 0]), settledState: .success(value: rows),
                pendingEdits: [LoadID(1): AnyEdit(SetRow(1, to: 5))])
        }
        await store.receive(.rows(.edit(.confirmed(LoadID(1))))) {
            $0 = Loadable(expecting: .success(value: [1: 5, 2: 0]), newestEditID: LoadID(1))
        }
        await store.finish()
    }
}

/// Edits rows with requests that wait on a gate.
struct RowEditor: Reducer {
    enum Action: Equatable {
        case set(SetRow)
        case cancel(LoadID)
        case rows(LoadAction<RowValues, TestError>)
    }

    let gate: Gate<Bool>

    func reduce(into state: inout EditedRows, action: Action) -> Effect<Action> {
        switch action {
        case .set(let edit):
            return state.edit(Action.rows, edit, saving(gate))
        case .cancel(let id):
            return .cancel(load: state.cancel(edit: id))
        case .rows(let action):
            return state.reduce(action)
        }
    }
}
