import AsyncState
import AsyncStateControls
import Foundation
import Testing

/// Edit layers against a reference model and a simulated server: every
/// sequence of up to four events (exhaustive) and long random interleavings
/// of edits, confirms, rollbacks, loads and changes made by others (randomized).
///
/// Checked after every step: shown = confirmed + pending in order; no
/// confirmed edit lost (while nobody else changed the server, the confirmed
/// value is the server's); no rolled-back edit visible.
@Suite("Reliability: edit layers")
struct EditLayerModelTests {
    /// The reference, written plainly.
    struct Model {
        var confirmed: RowValues?
        var pending: [(id: UInt64, edit: SetRow)] = []
        var load: (id: UInt64, snapshot: RowValues, confirmedSince: [SetRow])?
        var loadNewest: UInt64?
        var mutationNewest: UInt64?
        var mutationError: TestError?

        var shown: RowValues? {
            guard var value = confirmed else { return nil }
            for (_, edit) in pending { _ = edit.apply(to: &value) }
            return value
        }
    }

    enum Event: CaseIterable {
        case startLoad, finishLoad, failLoad, cancelLoad, staleLoad
        case editRow1, editRow3, confirmOldest, confirmNewest, failOldest, cancelNewest, staleConfirm
        case othersRemoveRow3, othersRestoreRow3
    }

    struct Player {
        var value: EditedRows
        var model: Model
        /// The server: mutations change it when confirmed; loads read it.
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
        var log: [EditAction<SetRow, TestError>] = []

        init() {
            value = EditedRows(confirmed: server)
            model = Model(confirmed: server)
        }

        mutating func newID() -> UInt64 {
            defer { nextID += 1 }
            return nextID
        }

        mutating func play(_ event: Event) -> String? {
            let before = value
            var action: EditAction<SetRow, TestError>?
            var expected = true
            let loadID = model.load?.id ?? previousLoad
            switch event {
            case .startLoad:
                let id = newID()
                if let current = model.load { previousLoad = current.id }
                model.load = (id, server, [])
                model.loadNewest = id
                othersAtLoadStart = othersChanges
                action = .load(.started(LoadID(id)))
            case .finishLoad, .failLoad, .cancelLoad, .staleLoad:
                let id = event == .staleLoad ? previousLoad : loadID
                let load = model.load.flatMap { $0.id == id ? $0 : nil }
                expected = load != nil
                switch event {
                case .finishLoad, .staleLoad:
                    let snapshot = load?.snapshot ?? [1: -1]
                    action = .load(.finished(LoadID(id), snapshot))
                    if let load {
                        var confirmed = load.snapshot
                        for edit in load.confirmedSince { _ = edit.apply(to: &confirmed) }
                        model.confirmed = confirmed
                        othersSeen = othersAtLoadStart
                    }
                case .failLoad:
                    action = .load(.failed(LoadID(id), .offline))
                default:
                    action = .load(.cancelled(LoadID(id)))
                }
                if load != nil { model.load = nil }
            case .editRow1, .editRow3:
                let id = newID()
                let edit = SetRow(event == .editRow1 ? 1 : 3, to: 100 + nextToken)
                nextToken += 1
                model.pending.append((id, edit))
                model.mutationNewest = id
                model.mutationError = nil
                action = .mutation(edit, .started(LoadID(id)))
            case .confirmOldest, .confirmNewest, .failOldest, .cancelNewest, .staleConfirm:
                let entry =
                    event == .staleConfirm
                    ? nil : (event == .confirmOldest || event == .failOldest ? model.pending.first : model.pending.last)
                let id = entry?.id ?? 999
                let edit = entry?.edit ?? SetRow(2, to: 99)
                expected = entry != nil
                if entry != nil { model.pending.removeAll { $0.id == id } }
                switch event {
                case .confirmOldest, .confirmNewest, .staleConfirm:
                    action = .mutation(edit, .finished(LoadID(id), edit))
                    if entry != nil {
                        _ = edit.apply(to: &server)
                        if var confirmed = model.confirmed, edit.apply(to: &confirmed) { model.confirmed = confirmed }
                        model.load?.confirmedSince.append(edit)
                    }
                case .failOldest:
                    action = .mutation(edit, .failed(LoadID(id), .timedOut))
                    if entry != nil {
                        model.mutationError = .timedOut
                        rolledBack.insert(edit.value)
                    }
                default:
                    action = .mutation(edit, .cancelled(LoadID(id)))
                    if entry != nil { rolledBack.insert(edit.value) }
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
            guard value.confirmed.value == model.confirmed else {
                return "confirmed \(String(describing: value.confirmed.value)), model \(String(describing: model.confirmed))"
            }
            guard value.value == model.shown else {
                return "shown \(String(describing: value.value)), model \(String(describing: model.shown))"
            }
            guard value.pending.keys.map(\.rawValue) == model.pending.map(\.id) else { return "pending \(value.pending.keys)" }
            guard value.mutationError == model.mutationError else { return "mutation error \(String(describing: value.mutationError))" }
            if othersSeen == othersChanges, value.confirmed.value != server {
                return "a confirmed edit was lost: confirmed \(String(describing: value.confirmed.value)), server \(server)"
            }
            if let shown = value.value, shown.values.contains(where: rolledBack.contains) {
                return "a rolled-back edit is visible: \(shown)"
            }
            return nil
        }
    }

    @Test("every sequence of up to four events agrees with the model")
    func exhaustive() async {
        let events = Event.allCases
        var checked = 0
        var failures = 0
        var slice = TimeSlice()
        func extend(_ player: Player, depth: Int) async {
            for event in events {
                var next = player
                checked += 1
                await slice.yieldIfSpent()
                if let problem = next.play(event) {
                    failures += 1
                    let message = problem + "\n" + next.log.map(\.description).joined(separator: "\n")
                    if failures <= 3 { Issue.record(Comment(rawValue: message)) }
                    continue
                }
                if depth > 1 { await extend(next, depth: depth - 1) }
            }
        }
        await extend(Player(), depth: 4)
        #expect(checked == 14 + 196 + 2_744 + 38_416)
        #expect(failures == 0)
    }

    @Test("random interleavings agree with the model (ASYNCSTATE_SEED, ASYNCSTATE_SEQUENCES)")
    func randomized() async {
        let events = Event.allCases
        await RandomizedRun(defaultCount: 5_000).playSequences { seed in
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
