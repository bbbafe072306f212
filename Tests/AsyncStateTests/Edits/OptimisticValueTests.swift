import AsyncState
import AsyncStateTesting
import Testing

/// Runs a mutation that waits on `gate`, failing when it opens with `false`.
@MainActor
func mutation(_ gate: Gate<Bool>) -> @MainActor @Sendable () async throws(TestError) -> Void {
    {
        () async throws(TestError) in
        let succeeded = (try? await gate.wait()) ?? false
        if !succeeded { throw .offline }
    }
}

@Suite("Optimistic in a store: OptimisticValue, OperationTracker, reducers")
@MainActor
struct OptimisticValueTests {
    let rows: RowValues = [1: 0, 2: 0]

    @Test("two mutations in flight; one fails and rolls back only itself while a load lands in between")
    func twoMutationsAndALoad() async throws {
        let value = OptimisticValue<SetRow, TestError>(confirmed: rows)
        let like = Gate<Bool>(), rename = Gate<Bool>(), poll = Gate<RowValues>()
        let liking = Task { try await value.mutate(SetRow(1, to: 5), mutation(like)) }
        let renaming = Task { try await value.mutate(SetRow(2, to: 7), mutation(rename)) }
        await like.waitForArrivals()
        await rename.waitForArrivals()
        #expect(value.value == [1: 5, 2: 7], "both edits show at once")
        let polling = Task { await value.load { () async throws(TestError) in try! await poll.wait() } }
        await poll.waitForArrivals()
        poll.open(with: [1: 1, 2: 2])
        await polling.value
        #expect(value.value == [1: 5, 2: 7], "the poll does not erase the pending edits")
        like.open(with: false)
        await #expect(throws: TestError.offline) { try await liking.value }
        #expect(value.value == [1: 1, 2: 7], "only the failed edit is rolled back, onto the polled value")
        #expect(value.mutationError == .offline)
        rename.open(with: true)
        try await renaming.value
        #expect(value.value == [1: 1, 2: 7] && value.optimistic.confirmed.value == [1: 1, 2: 7] && value.pending.isEmpty)
    }

    @Test("cancelling a mutation rolls its edit back and cancels its work")
    func cancel() async throws {
        let value = OptimisticValue<SetRow, TestError>(confirmed: rows)
        let gate = Gate<Bool>()
        let mutating = Task { try await value.mutate(SetRow(1, to: 5), mutation(gate)) }
        await gate.waitForArrivals()
        let id = try #require(value.pending.keys.first)
        value.cancel(mutation: id)
        #expect(value.value == rows)
        try await mutating.value
        #expect(gate.observedCancellation && value.pending.isEmpty && value.mutationError == nil)
    }

    @Test("cancelling the calling task rolls the edit back; it is not an error")
    func cancelCaller() async throws {
        let value = OptimisticValue<SetRow, TestError>(confirmed: rows)
        let gate = Gate<Bool>()
        let mutating = Task { try await value.mutate(SetRow(1, to: 5), mutation(gate)) }
        await gate.waitForArrivals()
        mutating.cancel()
        try await mutating.value
        #expect(value.value == rows && value.mutationError == nil)
    }

    @Test("OperationTracker runs a mutation with an optimistic edit in one call")
    func tracker() async {
        let tracker = OperationTracker<String, TestError>()
        let value = OptimisticValue<SetRow, TestError>(confirmed: rows)
        let gate = Gate<Bool>()
        let liking = Task { await tracker.run("like", editing: value, SetRow(1, to: 5), mutation(gate)) }
        await gate.waitForArrivals()
        #expect(tracker.isActive("like") && value.value?[1] == 5)
        gate.open(with: true)
        #expect(await liking.value)
        #expect(!tracker.isActive("like") && value.optimistic.confirmed.value?[1] == 5)

        let failing = Gate<Bool>()
        failing.open(with: false)
        #expect(await tracker.run("like", editing: value, SetRow(2, to: 9), mutation(failing)) == false)
        #expect(tracker.error(for: "like") == .offline && value.value?[2] == 0)
    }

    @Test("OperationTracker: a run superseded under latest wins rolls its edit back; first wins shows nothing")
    func trackerOverlap() async {
        let tracker = OperationTracker<String, TestError>()
        let value = OptimisticValue<SetRow, TestError>(confirmed: rows)
        let first = Gate<Bool>(), second = Gate<Bool>()
        let one = Task { await tracker.run("rename", editing: value, SetRow(1, to: 5), mutation(first)) }
        await first.waitForArrivals()
        #expect(await tracker.run("rename", overlap: .firstWins, editing: value, SetRow(2, to: 6), mutation(second)) == false)
        #expect(value.value == [1: 5, 2: 0])
        let two = Task { await tracker.run("rename", editing: value, SetRow(1, to: 8), mutation(second)) }
        await second.waitForArrivals()
        #expect(await one.value == false)
        #expect(value.value == [1: 8, 2: 0], "the superseded edit is rolled back; the newer one shows")
        second.open(with: true)
        #expect(await two.value)
        #expect(value.optimistic.confirmed.value == [1: 8, 2: 0])
    }

    @Test("a reducer runs a mutation with its edit in one effect; Effect.cancel(load:) rolls it back")
    func reducer() async {
        let gate = Gate<Bool>()
        let store = Store(initialState: EditedRows(confirmed: rows), reducer: RowEditor(gate: gate))
        let saving = store.send(.set(SetRow(1, to: 5)))
        await gate.waitForArrivals()
        #expect(store.value == [1: 5, 2: 0])
        store.send(.cancel(store.pending.keys[0]))
        await saving.finish()
        #expect(store.value == rows && gate.observedCancellation)
    }
}

/// Edits rows with mutations that wait on a gate.
struct RowEditor: Reducer {
    enum Action {
        case set(SetRow)
        case cancel(LoadID)
        case rows(EditAction<SetRow, TestError>)
    }

    let gate: Gate<Bool>

    func reduce(into state: inout EditedRows, action: Action) -> Effect<Action> {
        switch action {
        case .set(let edit):
            let gate = gate
            return state.mutate(Action.rows, edit) { () async throws(TestError) in
                let succeeded = (try? await gate.wait()) ?? false
                if !succeeded { throw .offline }
            }
        case .cancel(let id):
            return .cancel(load: state.cancel(mutation: id))
        case .rows(let action):
            return state.reduce(action)
        }
    }
}
