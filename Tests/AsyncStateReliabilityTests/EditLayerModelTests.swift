import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Foundation
import Testing

/// A `Loadable`'s edit layer against a reference model and a simulated
/// server: every sequence of up to four events (exhaustive) and long random
/// interleavings of edits, confirms, rollbacks, loads, partial values and
/// changes made by others (randomized).
///
/// Checked after every step: shown = base + pending in order; no confirmed
/// edit lost (while nobody else changed the server, the confirmed value is
/// the server's); no rolled-back edit visible.
@Suite("Reliability: edit layers")
struct EditLayerModelTests {
    /// The reference, written plainly.
    struct Model {
        var confirmed: RowValues?
        var pending: [(id: UInt64, edit: SetRow)] = []
        /// The load in flight: what it read, and the edits confirmed since it started.
        var load: (id: UInt64, snapshot: RowValues, confirmedSince: [SetRow])?
        /// The partial value the load in flight reported, with the edits
        /// confirmed since applied.
        var partial: RowValues?
        var editError: TestError?

        var base: RowValues? { partial ?? confirmed }

        var shown: RowValues? {
            guard var value = base else { return nil }
            for (_, edit) in pending { _ = edit.apply(to: &value) }
            return value
        }
    }

    enum Event: CaseIterable {
        case startLoad, finishLoad, failLoad, cancelLoad, staleLoad
        case editRow1, editRow3, confirmOldest, confirmNewest, failOldest, cancelNewest, staleConfirm
        case othersRemoveRow3, othersRestoreRow3
        /// The load in flight reports what it has read so far.
        case progressLoad

        /// The events of the exhaustive check, as before partial values were
        /// added: its count stays pinned.
        static let exhaustive: [Event] = allCases.filter { $0 != .progressLoad }
    }

    struct Player {
        var value: EditedRows
        var model: Model
        /// The server: edits change it when confirmed; loads read it.
        var server: RowValues = [1: 0, 2: 0, 3: 0]
        /// How many times someone else changed the server, and how many of
        /// those changes the confirmed value has seen (through a load that
        /// started after them).
        var othersChanges = 0
        var othersSeen = 0
        var othersAtLoadStart = 0
        var nextID: UInt64 = 1
        var nextToken = 1
        var rolledBack: Set<Int> = []
        var previousLoad: UInt64 = 0
        var log: [LoadAction<RowValues, TestError>] = []

        init() {
            value = EditedRows(value: server)
            model = Model(confirmed: server)
        }

        mutating func newID() -> UInt64 {
            defer { nextID += 1 }
            return nextID
        }

        mutating func play(_ event: Event) -> String? {
            let before = value
            var action: LoadAction<RowValues, TestError>?
            var expected = true
            let loadID = model.load?.id ?? previousLoad
            switch event {
            case .startLoad:
                let id = newID()
                if let current = model.load { previousLoad = current.id }
                model.load = (id, server, [])
                model.partial = nil
                othersAtLoadStart = othersChanges
                action = .started(LoadID(id))
            case .progressLoad:
                let load = model.load
                expected = load != nil
                // What the load has read so far: the server as it started.
                action = .progress(LoadID(loadID), load?.snapshot ?? [2: -1])
                if let load {
                    var partial = load.snapshot
                    for edit in load.confirmedSince { _ = edit.apply(to: &partial) }
                    model.partial = partial
                }
            case .finishLoad, .failLoad, .cancelLoad, .staleLoad:
                let id = event == .staleLoad ? previousLoad : loadID
                let load = model.load.flatMap { $0.id == id ? $0 : nil }
                expected = load != nil
                switch event {
                case .finishLoad, .staleLoad:
                    let snapshot = load?.snapshot ?? [1: -1]
                    action = .finished(LoadID(id), snapshot)
                    if let load {
                        var confirmed = load.snapshot
                        for edit in load.confirmedSince { _ = edit.apply(to: &confirmed) }
                        model.confirmed = confirmed
                        othersSeen = othersAtLoadStart
                    }
                case .failLoad:
                    action = .failed(LoadID(id), .offline)
                default:
                    action = .cancelled(LoadID(id))
                }
                if load != nil {
                    model.load = nil
                    model.partial = nil
                }
            case .editRow1, .editRow3:
                let id = newID()
                let edit = SetRow(event == .editRow1 ? 1 : 3, to: 100 + nextToken)
                nextToken += 1
                model.pending.append((id, edit))
                model.editError = nil
                action = .edit(.started(LoadID(id), AnyEdit(edit)))
            case .confirmOldest, .confirmNewest, .failOldest, .cancelNewest, .staleConfirm:
                let entry =
                    event == .staleConfirm
                    ? nil : (event == .confirmOldest || event == .failOldest ? model.pending.first : model.pending.last)
                let id = entry?.id ?? 999
                expected = entry != nil
                if entry != nil { model.pending.removeAll { $0.id == id } }
                switch event {
                case .confirmOldest, .confirmNewest, .staleConfirm:
                    action = .edit(.confirmed(LoadID(id)))
                    if let edit = entry?.edit {
                        _ = edit.apply(to: &server)
                        if var confirmed = model.confirmed, edit.apply(to: &confirmed) { model.confirmed = confirmed }
                        if var partial = model.partial, edit.apply(to: &partial) { model.partial = partial }
                        model.load?.confirmedSince.append(edit)
                    }
                case .failOldest:
                    action = .edit(.failed(LoadID(id), .timedOut))
                    if let edit = entry?.edit {
                        model.editError = .timedOut
                        rolledBack.insert(edit.value)
                    }
                default:
                    action = .edit(.cancelled(LoadID(id)))
                    if let edit = entry?.edit { rolledBack.insert(edit.value) }
                }
            case .othersRemoveRow3:
                server[3] = nil
                othersChanges += 1
            case .othersRestoreRow3:
                server[3] = server[3] ?? 0
                othersChanges += 1
            }
            guard let action else { return nil }
            log.append(action)
            let applied = value.apply(action) == .applied
            if applied != expected { return "\(action) applied: \(applied), model says \(expected)" }
            if !applied, value != before { return "dropped \(action) changed the state" }
            return check()
        }

        func check() -> String? {
            guard value.confirmedValue == model.confirmed else {
                return "confirmed \(String(describing: value.confirmedValue)), model \(String(describing: model.confirmed))"
            }
            guard value.partialValue == model.partial else {
                return "partial \(String(describing: value.partialValue)), model \(String(describing: model.partial))"
            }
            guard value.value == model.shown else {
                return "shown \(String(describing: value.value)), model \(String(describing: model.shown))"
            }
            guard value.pendingEdits.keys.map(\.rawValue) == model.pending.map(\.id) else { return "pending \(value.pendingEdits.keys)" }
            guard value.editError == model.editError else { return "edit error \(String(describing: value.editError))" }
            if othersSeen == othersChanges, value.confirmedValue != server {
                return "a confirmed edit was lost: confirmed \(String(describing: value.confirmedValue)), server \(server)"
            }
            if let shown = value.value, shown.values.contains(where: rolledBack.contains) {
                return "a rolled-back edit is visible: \(shown)"
            }
            return nil
        }
    }

    @Test("every sequence of up to four events agrees with the model")
    func exhaustive() async {
        let events = Event.exhaustive
        var tally = ExhaustiveTally()
        func extend(_ player: Player, depth: Int) async {
            for event in events {
                var next = player
                // The log is joined only for a failure: most cases pass.
                let problem = next.play(event).map { "\($0)\n" + next.log.map(\.description).joined(separator: "\n") }
                guard await tally.count(problem, "after \(next.log.count) events") else { continue }
                if depth > 1 { await extend(next, depth: depth - 1) }
            }
        }
        await extend(Player(), depth: 4)
        tally.expect("exhaustive edit-layer sequences", checked: 14 + 196 + 2_744 + 38_416)
    }

    @Test("random interleavings, partial values included, agree with the model (ASYNCSTATE_SEED, ASYNCSTATE_SEQUENCES)")
    func randomized() async {
        let events = Event.allCases
        await RandomizedRun(defaultCount: 5_000, sanitizedMaximum: 1_000).playSequences { seed in
            var random = SplitMix64(seed: seed)
            var player = Player()
            for _ in 0..<Int.random(in: 1...40, using: &random) {
                if let problem = player.play(events.randomElement(using: &random)!) {
                    return problem + "\n" + player.log.map(\.description).joined(separator: "\n")
                }
            }
            return nil
        }
    }
}
