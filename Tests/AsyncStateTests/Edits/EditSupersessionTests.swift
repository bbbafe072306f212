import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

/// An edit's request that ignores cancellation: it returns only when `gate`
/// opens, failing with `false`.
func savingUncancellably(_ gate: Gate<Bool>) -> LoadRequest<Void, TestError> {
    LoadRequest { () async throws(TestError) in
        if await gate.value() != true { throw .offline }
    }
}

/// An edit rolled back — by `cancel(edit:)` or by a newer edit under a
/// latest-wins policy — is over at once: it no longer shows, its caller
/// returns `.cancelled(id)`, and its request's late end is dropped, also
/// when the request ignores cancellation or is let finish (found by an
/// outside reading: the rollback waited for the request, and a newer edit
/// with `cancellingEarlier: false` superseded nothing).
@Suite("Edits: a rolled-back edit is over at once", .hangGuard)
@MainActor
struct EditSupersessionTests {
    let rows: RowValues = [1: 0, 2: 0]

    @Test("cancel(edit:) returns the edit's caller at once with .cancelled, while its request still runs")
    func cancelEdit() async throws {
        let value = AsyncValue<RowValues, TestError>(value: rows)
        let gate = Gate<Bool>()
        let editing = await startCaller { await value.edit(SetRow(1, to: 5), savingUncancellably(gate)) }
        await gate.waitForArrivals()
        let id = try #require(value.pendingEdits.keys.first)
        value.cancel(edit: id)
        #expect(value.value == rows, "rolled back")
        #expect(await editing.value == .cancelled(id), "returned before the request did")
        #expect(value.runningCount == 1, "its request still runs")
        gate.open(with: true)
        await yieldUntil { value.runningCount == 0 }
        #expect(value.value == rows && value.loadable.confirmedValue == rows, "its late end is dropped")
    }

    @Test(
        "a newer edit under latest wins rolls the pending one back at once; its caller returns .cancelled; let finish, its confirmation is dropped",
        arguments: [true, false])
    func latestWins(cancellingEarlier: Bool) async throws {
        let value = AsyncValue<RowValues, TestError>(value: rows)
        let first = Gate<Bool>(), second = Gate<Bool>()
        let one = await startCaller { await value.edit(SetRow(1, to: 5), savingUncancellably(first)) }
        await first.waitForArrivals()
        let firstID = try #require(value.pendingEdits.keys.first)
        let two = await startCaller {
            await value.edit(SetRow(2, to: 6), saving(second), overlap: .latestWins(cancellingEarlier: cancellingEarlier))
        }
        await second.waitForArrivals()
        #expect(value.value == [1: 0, 2: 6], "only the newer edit shows")
        #expect(value.pendingEdits.keys.count == 1)
        #expect(await one.value == .cancelled(firstID), "returned while its request still runs")
        first.open(with: true)
        second.open(with: true)
        let secondID = LoadID(firstID.rawValue + 1)
        #expect(await two.value == .confirmed(secondID))
        await yieldUntil { value.runningCount == 0 }
        #expect(value.loadable.confirmedValue == [1: 0, 2: 6], "the superseded edit's confirmation is dropped")
    }

    /// A reducer's list whose edits supersede each other.
    struct Rows: Reducer {
        struct State: Equatable { var rows = Loadable<RowValues, TestError>(value: [1: 0, 2: 0]) }
        enum Action {
            case set(row: Int, to: Int, Gate<Bool>, OverlapPolicy)
            case rows(LoadAction<RowValues, TestError>)
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .set(let row, let number, let gate, let overlap):
                return state.rows.edit(Action.rows, SetRow(row, to: number), savingUncancellably(gate), overlap: overlap)
            case .rows(let action):
                return state.rows.reduce(action)
            }
        }
    }

    @Test("in a reducer, latest wins rolls the pending edit back in the action that starts the newer one")
    func reducer() async {
        let (first, second) = (Gate<Bool>(), Gate<Bool>())
        let store = Store(initialState: Rows.State(), reducer: Rows())
        let one = store.send(.set(row: 1, to: 5, first, .latestWins))
        await first.waitForArrivals()
        #expect(store.rows.value == [1: 5, 2: 0])
        let two = store.send(.set(row: 2, to: 6, second, .latestWins))
        #expect(store.rows.value == [1: 0, 2: 6], "rolled back before the superseded request returned")
        #expect(store.rows.pendingEdits.keys == [LoadID(2)])
        first.open(with: true)
        second.open(with: true)
        await one.finish()
        await two.finish()
        #expect(store.rows.confirmedValue == [1: 0, 2: 6])
    }
}
