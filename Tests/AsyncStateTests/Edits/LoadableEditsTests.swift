import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

@Suite("Edits: the rules of a Loadable's edit layer")
struct LoadableEditsTests {
    let rows: RowValues = [1: 0, 2: 0, 3: 0]

    // Pinned by one sequence each; before, only the randomized model checks
    // caught a change of these rules (mutation testing).
    @Test("a second edit made before anything is confirmed is no conflict either")
    func secondEditBeforeFirstLoad() {
        var value = EditedRows()
        _ = value.start(1, SetRow(1, to: 5))
        _ = value.start(2, SetRow(2, to: 7))
        #expect(value.value == nil && value.conflicts.isEmpty)
        _ = value.apply(.started(id(3)))
        _ = value.apply(.finished(id(3), rows))
        #expect(value.value == [1: 5, 2: 7, 3: 0] && value.conflicts.isEmpty)
    }

    @Test("a load that supersedes the one in flight when an edit was confirmed read the server after it: its value is taken as it is")
    func supersedingLoadAfterConfirm() {
        var value = EditedRows(value: rows)
        _ = value.start(1, SetRow(1, to: 5))
        _ = value.apply(.started(id(2))) // may read the server before the edit lands
        _ = value.apply(.edit(.confirmed(id(1))))
        _ = value.apply(.started(id(3))) // supersedes it, after the confirm
        #expect(value.reappliedEdits.isEmpty)
        _ = value.apply(.finished(id(3), [1: 8, 2: 20, 3: 30]))
        #expect(value.value == [1: 8, 2: 20, 3: 30])
    }

    @Test("an edit is shown at once over the confirmed value")
    func shownAtOnce() {
        var value = EditedRows(value: rows)
        #expect(value.start(1, SetRow(1, to: 5)) == .applied)
        #expect(value.value == [1: 5, 2: 0, 3: 0])
        #expect(value.confirmedValue == rows)
        #expect(value.pendingEdits.keys == [id(1)] && value.isPending(edit: id(1)))
        #expect(
            value
                == Loadable(
                    expecting: .success(value: [1: 5, 2: 0, 3: 0]), settledState: .success(value: rows),
                    pendingEdits: [id(1): AnyEdit(SetRow(1, to: 5))]))
        #expect(value.state == .success(value: [1: 5, 2: 0, 3: 0]))
    }

    @Test("confirming or rolling back removes only that edit", arguments: ["confirm", "fail", "cancel"])
    func onlyItsOwn(outcome: String) {
        var value = EditedRows(value: rows)
        _ = value.start(1, SetRow(1, to: 5))
        _ = value.start(2, SetRow(2, to: 7))
        let settle: EditAction<RowValues, TestError> =
            switch outcome {
            case "confirm": .confirmed(id(1))
            case "fail": .failed(id(1), .offline)
            default: .cancelled(id(1))
            }
        #expect(value.apply(.edit(settle)) == .applied)
        #expect(value.pendingEdits.keys == [id(2)], "the other edit stays pending")
        #expect(value.value?[2] == 7, "and shown")
        #expect(value.value?[1] == (outcome == "confirm" ? 5 : 0))
        #expect(value.confirmedValue?[1] == (outcome == "confirm" ? 5 : 0))
        #expect(value.editError == (outcome == "fail" ? .offline : nil))
        let confirmed: RowValues = outcome == "confirm" ? [1: 5, 2: 0, 3: 0] : rows
        var shown = confirmed
        shown[2] = 7
        #expect(
            value
                == Loadable(
                    expecting: .success(value: shown), settledState: .success(value: confirmed),
                    pendingEdits: [id(2): AnyEdit(SetRow(2, to: 7))], editError: outcome == "fail" ? .offline : nil))
    }

    @Test("two edits of the same row show in the order they started; rolling back the first keeps the second")
    func sameRowInOrder() {
        var value = EditedRows(value: rows)
        _ = value.start(1, SetRow(1, to: 5))
        _ = value.start(2, SetRow(1, to: 6))
        #expect(value.value?[1] == 6)
        _ = value.apply(.edit(.failed(id(1), .offline)))
        #expect(value.value?[1] == 6)
        _ = value.apply(.edit(.failed(id(2), .offline)))
        #expect(value.value?[1] == 0)
    }

    @Test("a load that settles while edits are pending replaces the confirmed value, and the edits are applied on top")
    func loadKeepsPending() {
        var value = EditedRows(value: rows)
        _ = value.apply(.started(id(1)))
        _ = value.start(2, SetRow(1, to: 5))
        #expect(value.state == .refreshing(value: [1: 5, 2: 0, 3: 0]))
        #expect(value.apply(.finished(id(1), [1: 10, 2: 20, 3: 30])) == .applied)
        #expect(value.confirmedValue == [1: 10, 2: 20, 3: 30])
        #expect(value.value == [1: 5, 2: 20, 3: 30], "a poll never erases a pending edit")
    }

    @Test("a partial value streamed while an edit is pending shows the edit on top")
    func progressKeepsPending() {
        var value = EditedRows(value: rows)
        _ = value.apply(.started(id(1)))
        _ = value.start(2, SetRow(1, to: 5))
        _ = value.apply(.progress(id(1), [1: 10, 2: 20]))
        #expect(value.value == [1: 5, 2: 20])
        #expect(value.partialValue == [1: 10, 2: 20])
    }

    @Test("a newer load drops the partial value of the one it supersedes: pending edits show on the confirmed value again")
    func supersededPartialUnderEdits() {
        var value = EditedRows(value: rows)
        _ = value.apply(.started(id(1)))
        _ = value.start(2, SetRow(1, to: 5))
        _ = value.apply(.progress(id(1), [1: 10, 2: 20]))
        #expect(value.value == [1: 5, 2: 20])
        _ = value.apply(.started(id(3)))
        #expect(value.partialValue == nil)
        #expect(value.value == [1: 5, 2: 0, 3: 0], "the superseded load's partial value is gone")
        #expect(
            value
                == Loadable(
                    expecting: .refreshing(value: [1: 5, 2: 0, 3: 0]), settledState: .success(value: rows), inFlightID: id(3),
                    pendingEdits: [id(2): AnyEdit(SetRow(1, to: 5))]))
    }

    @Test("a rollback after a newer load keeps the newer value")
    func rollbackAfterLoad() {
        var value = EditedRows(value: rows)
        _ = value.start(1, SetRow(1, to: 5))
        _ = value.apply(.started(id(2)))
        _ = value.apply(.finished(id(2), [1: 10, 2: 20]))
        _ = value.apply(.edit(.failed(id(1), .offline)))
        #expect(value.value == [1: 10, 2: 20])
    }

    @Test("nothing confirmed is lost: a load that started before a confirm and settles after it keeps the confirmed edit")
    func confirmedNotLost() {
        var value = EditedRows(value: rows)
        _ = value.start(1, SetRow(1, to: 5))
        _ = value.apply(.started(id(2))) // may read the server before the edit lands
        _ = value.apply(.edit(.confirmed(id(1))))
        #expect(
            value
                == Loadable(
                    expecting: .refreshing(value: [1: 5, 2: 0, 3: 0]), settledState: .success(value: [1: 5, 2: 0, 3: 0]),
                    inFlightID: id(2), reappliedEdits: [AnyEdit(SetRow(1, to: 5))], newestEditID: id(1)))
        _ = value.apply(.finished(id(2), [1: 0, 2: 20, 3: 30]))
        #expect(value.confirmedValue == [1: 5, 2: 20, 3: 30])
        #expect(value.reappliedEdits.isEmpty)
        // A load that started after the confirm read the server after it: its value is taken as it is.
        _ = value.apply(.started(id(3)))
        _ = value.apply(.finished(id(3), [1: 8, 2: 20, 3: 30]))
        #expect(value.value == [1: 8, 2: 20, 3: 30])
    }

    @Test("a confirm during a load that is then cancelled or fails keeps the confirmed edit", arguments: [false, true])
    func confirmedThenLoadEnds(fails: Bool) {
        var value = EditedRows(value: rows)
        _ = value.start(1, SetRow(1, to: 5))
        _ = value.apply(.started(id(2)))
        _ = value.apply(.edit(.confirmed(id(1))))
        _ = value.apply(fails ? .failed(id(2), .offline) : .cancelled(id(2)))
        #expect(value.value?[1] == 5 && value.confirmedValue?[1] == 5)
        #expect(value.reappliedEdits.isEmpty, "no load in flight can predate the edit now")
    }

    @Test("cancelling an edit rolls it back; its late report is dropped")
    func cancelEdit() {
        var value = EditedRows(value: rows)
        _ = value.start(1, SetRow(1, to: 5))
        #expect(value.cancel(edit: id(1)) == id(1))
        #expect(value.value == rows && value.pendingEdits.isEmpty)
        #expect(value.apply(.edit(.cancelled(id(1)))) == .dropped)
        #expect(value.apply(.edit(.confirmed(id(1)))) == .dropped)
        #expect(value.cancel(edit: id(1)) == nil)
        #expect(value.editError == nil, "cancellation is not failure")
    }

    @Test("cancel(load:) rolls an edit back too")
    func cancelLoadOfEdit() {
        var value = EditedRows(value: rows)
        _ = value.start(1, SetRow(1, to: 5))
        #expect(value.cancel(load: id(1)) == id(1))
        #expect(value.value == rows && value.pendingEdits.isEmpty)
    }

    @Test(
        "a confirm, rollback, cancel or retry of an unknown or settled edit is dropped and changes nothing",
        arguments: ["confirm", "fail", "cancel", "retry"])
    func unknownOrSettled(report: String) {
        var value = EditedRows(value: rows)
        _ = value.start(1, SetRow(1, to: 5))
        _ = value.apply(.edit(.confirmed(id(1))))
        let before = value
        for edit in [id(1), id(9)] {
            let action: EditAction<RowValues, TestError> =
                switch report {
                case "confirm": .confirmed(edit)
                case "fail": .failed(edit, .offline)
                case "retry": .retrying(edit, LoadRetry(attempt: 1, of: 2, failure: .offline, wait: .seconds(1)))
                default: .cancelled(edit)
                }
            #expect(value.apply(.edit(action)) == .dropped)
            #expect(value == before)
        }
    }

    @Test("a retried edit stays pending and shown")
    func retriedEdit() {
        var value = EditedRows(value: rows)
        _ = value.start(1, SetRow(1, to: 5))
        let before = value
        #expect(value.apply(.edit(.retrying(id(1), LoadRetry(attempt: 1, of: 3, failure: .offline, wait: .seconds(1))))) == .applied)
        #expect(value == before)
        #expect(value.value?[1] == 5)
    }

    @Test("an edit start that is not new is dropped")
    func staleStart() {
        var value = EditedRows(value: rows)
        _ = value.start(3, SetRow(1, to: 5))
        let before = value
        #expect(value.start(3, SetRow(2, to: 5)) == .dropped)
        #expect(value.start(2, SetRow(2, to: 5)) == .dropped)
        #expect(value == before)
        #expect(value.pendingEdits.count == 1)
    }

    @Test("an edit that does not apply to a newer confirmed value stays pending, unshown, listed as a conflict")
    func conflict() {
        var value = EditedRows(value: rows)
        _ = value.start(1, SetRow(3, to: 5))
        _ = value.start(2, SetRow(1, to: 6))
        _ = value.apply(.started(id(3)))
        _ = value.apply(.finished(id(3), [1: 10, 2: 20])) // row 3 is gone
        #expect(value.value == [1: 6, 2: 20])
        #expect(value.conflicts == [id(1)] && value.isPending(edit: id(1)))
        // The row comes back: the edit applies again.
        _ = value.apply(.started(id(4)))
        _ = value.apply(.finished(id(4), [1: 10, 2: 20, 3: 30]))
        #expect(value.value == [1: 6, 2: 20, 3: 5] && value.conflicts.isEmpty)
    }

    @Test("a confirmed edit that does not apply leaves the confirmed value as it is")
    func confirmedConflict() {
        var value = EditedRows(value: [1: 0])
        _ = value.start(1, SetRow(3, to: 5))
        #expect(value.conflicts == [id(1)])
        #expect(value.apply(.edit(.confirmed(id(1)))) == .applied)
        #expect(value.value == [1: 0] && value.conflicts.isEmpty && value.pendingEdits.isEmpty)
    }

    @Test("edits made before anything is confirmed wait for the first load")
    func beforeFirstLoad() {
        var value = EditedRows()
        _ = value.start(1, SetRow(1, to: 5))
        #expect(value.value == nil && value.conflicts.isEmpty)
        _ = value.apply(.started(id(2)))
        _ = value.apply(.finished(id(2), rows))
        #expect(value.value == [1: 5, 2: 0, 3: 0])
    }

    @Test("an edit error stays until another edit starts")
    func editError() {
        var value = EditedRows(value: rows)
        _ = value.start(1, SetRow(1, to: 5))
        _ = value.apply(.edit(.failed(id(1), .timedOut)))
        #expect(value.editError == .timedOut)
        #expect(value.error == nil, "an edit's failure is not the value's")
        _ = value.start(2, SetRow(1, to: 5))
        #expect(value.editError == nil)
    }

    @Test("reset forgets the pending edits")
    func resetForgetsEdits() {
        var value = EditedRows(value: rows)
        _ = value.start(1, SetRow(1, to: 5))
        value.reset()
        #expect(value.value == nil && value.pendingEdits.isEmpty)
    }
}
