import AsyncState
import AsyncStateControls
import Testing

/// RowValues by ID, each holding a number: the value the edit tests change.
typealias RowValues = [Int: Int]

/// Sets row `row` to `value`; does not apply when the row is gone.
struct SetRow: Edit, Hashable, Sendable, CustomStringConvertible {
    var row: Int
    var value: Int

    init(_ row: Int, to value: Int) {
        self.row = row
        self.value = value
    }

    func apply(to rows: inout RowValues) -> Bool {
        guard rows[row] != nil else { return false }
        rows[row] = value
        return true
    }

    var description: String { "set(\(row): \(value))" }
}

typealias EditedRows = Optimistic<SetRow, TestError>

extension EditedRows {
    /// Starts mutation `id` with `edit`.
    mutating func start(_ id: UInt64, _ edit: SetRow) -> LoadDisposition {
        apply(.mutation(edit, .started(LoadID(id))))
    }
}

@Suite("Optimistic: the rules")
struct OptimisticTests {
    let rows: RowValues = [1: 0, 2: 0, 3: 0]

    @Test("a mutation's edit is shown at once over the confirmed value")
    func shownAtOnce() {
        var value = EditedRows(confirmed: rows)
        #expect(value.start(1, SetRow(1, to: 5)) == .applied)
        #expect(value.value == [1: 5, 2: 0, 3: 0])
        #expect(value.confirmed.value == rows)
        #expect(value.pending.keys == [id(1)] && value.isPending(id(1)))
    }

    @Test("confirming or rolling back removes only that mutation's edit", arguments: ["confirm", "fail", "cancel"])
    func onlyItsOwn(outcome: String) {
        var value = EditedRows(confirmed: rows)
        _ = value.start(1, SetRow(1, to: 5))
        _ = value.start(2, SetRow(2, to: 7))
        let settle: LoadAction<SetRow, TestError> =
            switch outcome {
            case "confirm": .finished(id(1), SetRow(1, to: 5))
            case "fail": .failed(id(1), .offline)
            default: .cancelled(id(1))
            }
        #expect(value.apply(.mutation(SetRow(1, to: 5), settle)) == .applied)
        #expect(value.pending.keys == [id(2)], "the other mutation's edit stays pending")
        #expect(value.value?[2] == 7, "and shown")
        #expect(value.value?[1] == (outcome == "confirm" ? 5 : 0))
        #expect(value.confirmed.value?[1] == (outcome == "confirm" ? 5 : 0))
        #expect(value.mutationError == (outcome == "fail" ? .offline : nil))
    }

    @Test("two edits of the same row show in the order their mutations started; rolling back the first keeps the second")
    func sameRowInOrder() {
        var value = EditedRows(confirmed: rows)
        _ = value.start(1, SetRow(1, to: 5))
        _ = value.start(2, SetRow(1, to: 6))
        #expect(value.value?[1] == 6)
        _ = value.apply(.mutation(SetRow(1, to: 5), .failed(id(1), .offline)))
        #expect(value.value?[1] == 6)
        _ = value.apply(.mutation(SetRow(1, to: 6), .failed(id(2), .offline)))
        #expect(value.value?[1] == 0)
    }

    @Test("a load that settles while edits are pending replaces the confirmed value, and the edits are applied on top")
    func loadKeepsPending() {
        var value = EditedRows(confirmed: rows)
        _ = value.apply(.load(.started(id(1))))
        _ = value.start(2, SetRow(1, to: 5))
        #expect(value.apply(.load(.finished(id(1), [1: 10, 2: 20, 3: 30]))) == .applied)
        #expect(value.confirmed.value == [1: 10, 2: 20, 3: 30])
        #expect(value.value == [1: 5, 2: 20, 3: 30], "a poll never erases a pending edit")
    }

    @Test("a rollback after a newer load keeps the newer value")
    func rollbackAfterLoad() {
        var value = EditedRows(confirmed: rows)
        _ = value.start(1, SetRow(1, to: 5))
        _ = value.apply(.load(.started(id(2))))
        _ = value.apply(.load(.finished(id(2), [1: 10, 2: 20])))
        _ = value.apply(.mutation(SetRow(1, to: 5), .failed(id(1), .offline)))
        #expect(value.value == [1: 10, 2: 20])
    }

    @Test("nothing confirmed is lost: a load that started before a confirm and settles after it keeps the confirmed edit")
    func confirmedNotLost() {
        var value = EditedRows(confirmed: rows)
        _ = value.start(1, SetRow(1, to: 5))
        _ = value.apply(.load(.started(id(2)))) // may read the server before the mutation lands
        _ = value.apply(.mutation(SetRow(1, to: 5), .finished(id(1), SetRow(1, to: 5))))
        _ = value.apply(.load(.finished(id(2), [1: 0, 2: 20, 3: 30])))
        #expect(value.confirmed.value == [1: 5, 2: 20, 3: 30])
        // A load that started after the confirm read the server after it: its value is taken as it is.
        _ = value.apply(.load(.started(id(3))))
        _ = value.apply(.load(.finished(id(3), [1: 8, 2: 20, 3: 30])))
        #expect(value.value == [1: 8, 2: 20, 3: 30])
    }

    @Test("a confirm during a load that is then cancelled or fails keeps the confirmed edit", arguments: [false, true])
    func confirmedThenLoadEnds(fails: Bool) {
        var value = EditedRows(confirmed: rows)
        _ = value.start(1, SetRow(1, to: 5))
        _ = value.apply(.load(.started(id(2))))
        _ = value.apply(.mutation(SetRow(1, to: 5), .finished(id(1), SetRow(1, to: 5))))
        _ = value.apply(.load(fails ? .failed(id(2), .offline) : .cancelled(id(2))))
        #expect(value.value?[1] == 5 && value.confirmed.value?[1] == 5)
    }

    @Test("cancelling a mutation rolls its edit back; its late report is dropped")
    func cancelMutation() {
        var value = EditedRows(confirmed: rows)
        _ = value.start(1, SetRow(1, to: 5))
        #expect(value.cancel(mutation: id(1)) == id(1))
        #expect(value.value == rows && value.pending.isEmpty)
        #expect(value.apply(.mutation(SetRow(1, to: 5), .cancelled(id(1)))) == .dropped)
        #expect(value.apply(.mutation(SetRow(1, to: 5), .finished(id(1), SetRow(1, to: 5)))) == .dropped)
        #expect(value.cancel(mutation: id(1)) == nil)
    }

    @Test(
        "a confirm, rollback or cancel of an unknown or settled mutation is dropped and changes nothing",
        arguments: ["confirm", "fail", "cancel"])
    func unknownOrSettled(report: String) {
        var value = EditedRows(confirmed: rows)
        _ = value.start(1, SetRow(1, to: 5))
        _ = value.apply(.mutation(SetRow(1, to: 5), .finished(id(1), SetRow(1, to: 5))))
        let before = value
        for mutation in [id(1), id(9)] {
            let action: LoadAction<SetRow, TestError> =
                switch report {
                case "confirm": .finished(mutation, SetRow(2, to: 9))
                case "fail": .failed(mutation, .offline)
                default: .cancelled(mutation)
                }
            #expect(value.apply(.mutation(SetRow(2, to: 9), action)) == .dropped)
            #expect(value == before)
        }
    }

    @Test("a mutation start that is not new is dropped")
    func staleStart() {
        var value = EditedRows(confirmed: rows)
        _ = value.start(3, SetRow(1, to: 5))
        #expect(value.start(3, SetRow(2, to: 5)) == .dropped)
        #expect(value.start(2, SetRow(2, to: 5)) == .dropped)
        #expect(value.pending.count == 1)
    }

    @Test("an edit that does not apply to a newer confirmed value stays pending, unshown, listed as a conflict")
    func conflict() {
        var value = EditedRows(confirmed: rows)
        _ = value.start(1, SetRow(3, to: 5))
        _ = value.start(2, SetRow(1, to: 6))
        _ = value.apply(.load(.started(id(3))))
        _ = value.apply(.load(.finished(id(3), [1: 10, 2: 20]))) // row 3 is gone
        #expect(value.value == [1: 6, 2: 20])
        #expect(value.conflicts == [id(1)] && value.isPending(id(1)))
        // The row comes back: the edit applies again.
        _ = value.apply(.load(.started(id(4))))
        _ = value.apply(.load(.finished(id(4), [1: 10, 2: 20, 3: 30])))
        #expect(value.value == [1: 6, 2: 20, 3: 5] && value.conflicts.isEmpty)
    }

    @Test("a confirmed edit that does not apply leaves the confirmed value as it is")
    func confirmedConflict() {
        var value = EditedRows(confirmed: [1: 0])
        _ = value.start(1, SetRow(3, to: 5))
        #expect(value.conflicts == [id(1)])
        #expect(value.apply(.mutation(SetRow(3, to: 5), .finished(id(1), SetRow(3, to: 5)))) == .applied)
        #expect(value.value == [1: 0] && value.conflicts.isEmpty && value.pending.isEmpty)
    }

    @Test("edits made before anything is confirmed wait for the first load")
    func beforeFirstLoad() {
        var value = EditedRows()
        _ = value.start(1, SetRow(1, to: 5))
        #expect(value.value == nil && value.conflicts.isEmpty)
        _ = value.apply(.load(.started(id(2))))
        _ = value.apply(.load(.finished(id(2), rows)))
        #expect(value.value == [1: 5, 2: 0, 3: 0])
    }

    @Test("a mutation error stays until another mutation starts")
    func mutationError() {
        var value = EditedRows(confirmed: rows)
        _ = value.start(1, SetRow(1, to: 5))
        _ = value.apply(.mutation(SetRow(1, to: 5), .failed(id(1), .timedOut)))
        #expect(value.mutationError == .timedOut)
        _ = value.start(2, SetRow(1, to: 5))
        #expect(value.mutationError == nil)
    }
}
