import AsyncStateTestSupport
import AsyncStateTesting
import Observation
import Testing

@testable import AsyncState

/// Readers of single rows of a ``KeyedStates``: one row's reader depends on
/// that row alone.
@Suite("Observation: keyed rows")
@MainActor
struct KeyedRowObservationTests {
    /// A list whose rows are loaders of their own, routed with `forEach`,
    /// and a spare copy of the rows, to change a copy apart.
    struct List: Reducer {
        struct State: Equatable {
            var rows = KeyedStates((1...1_000).map { ($0, Loadable<Int, TestError>()) })
            var saved: KeyedStates<Int, Loadable<Int, TestError>>?
        }

        enum Action: Sendable {
            case row(Int, LoadAction<Int, TestError>)
            case save
            case restore
            case setRow(Int, Int)
        }

        var body: some Reducer<State, Action> {
            Reduce<State, Action> { state, action in
                switch action {
                case .row: break
                case .save: state.saved = state.rows
                case .restore: if let saved = state.saved { state.rows = saved }
                case .setRow(let key, let value): state.rows[key]?.setValue(value)
                }
                return .none
            }
            .forEach(\.rows, action: Action.row, extract: { if case .row(let key, let load) = $0 { (key, load) } else { nil } }) {
                LoadReducer<Int, TestError>()
            }
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            body.reduce(into: &state, action: action)
        }
    }

    static func rowReaders(_ store: Store<List.State, List.Action>, keys: ClosedRange<Int>) -> Readers {
        let readers = Readers()
        for key in keys { readers.add("row \(key)", rereads: true) { _ = store[part: \.rows, key: key] } }
        return readers
    }

    @Test("1,000 rows, each with its own reader: an action on one row tells exactly that row's reader", arguments: EffectStart.allCases)
    func oneRowOfAThousand(start: EffectStart) {
        let store = Store(initialState: List.State(), reducer: List())
        store._effectStart = start
        let readers = Self.rowReaders(store, keys: 1...1_000)
        store.send(.row(7, .started(LoadID(1))))
        #expect(readers.told == ["row 7": 1])
        store.send(.row(7, .finished(LoadID(1), 70)))
        store.send(.row(8, .started(LoadID(2))))
        #expect(readers.told == ["row 7": 2, "row 8": 1])
        store.send(.row(7, .finished(LoadID(1), 71)))
        #expect(readers.told == ["row 7": 2, "row 8": 1], "a dropped result tells nobody")
        store.send(.row(1_001, .started(LoadID(3))))
        #expect(readers.told == ["row 7": 2, "row 8": 1], "an action for a key not in the list tells nobody")
    }

    @Test("a copy changed apart and put back is compared row by row: the rows that differ are told, the others not")
    func copyChangedApart() {
        let store = Store(initialState: List.State(), reducer: List())
        store.send(.save)
        let readers = Self.rowReaders(store, keys: 1...5)
        store.send(.setRow(1, 10))
        #expect(readers.told == ["row 1": 1])
        store.send(.restore)
        #expect(readers.told == ["row 1": 2], "row 1 went back to the saved copy; the saved copy's journal is another one")
        store.send(.setRow(2, 20))
        #expect(readers.told == ["row 1": 2, "row 2": 1])
    }

    /// Two collections, to change a copy apart and swap it in.
    struct Two {
        var rows: KeyedStates<Int, Int> = [1: 0, 2: 0, 3: 0]
        var draft: KeyedStates<Int, Int> = [:]

        enum Action { case copy, setDraft(Int, Int), setRows(Int, Int), swap }

        static var reducer: Reduce<Two, Action> {
            Reduce<Two, Action> { state, action in
                switch action {
                case .copy: state.draft = state.rows
                case .setDraft(let key, let value): state.draft[key] = value
                case .setRows(let key, let value): state.rows[key] = value
                case .swap: swap(&state.rows, &state.draft)
                }
                return .none
            }
        }
    }

    @Test("a copy changed twice, swapped in after the original changed once, is compared row by row (found in review)")
    func copySwappedIn() {
        let store = Store(initialState: Two(), reducer: Two.reducer)
        let readers = Readers()
        for key in [1, 3] { readers.add("row \(key)", rereads: true) { _ = store[part: \.rows, key: key] } }
        store.send(.copy)
        store.send(.setDraft(1, 10))
        store.send(.setDraft(2, 20))
        store.send(.setRows(3, 30))
        #expect(readers.told == ["row 3": 1])
        store.send(.swap)
        #expect(
            readers.told == ["row 1": 1, "row 3": 2],
            "the copy's journal is one change on from the original's stamp now, but it was taken at an earlier one")
    }

    @Test("rows that are not Equatable: a reader is told whenever its row is written")
    func rowsNotEquatable() {
        struct Row { var text = "" }
        let store = Store(
            initialState: KeyedStates<Int, Row>([(1, Row()), (2, Row())]),
            reducer: Reduce<KeyedStates<Int, Row>, Int> { rows, key in
                rows.withMutableValue(forKey: key) { $0.text = "written" }
                return .none
            })
        let readers = Readers()
        readers.add("row 1", rereads: true) { _ = store[part: \.self, key: 1] }
        readers.add("row 2", rereads: true) { _ = store[part: \.self, key: 2] }
        store.send(1)
        store.send(1)
        #expect(readers.told == ["row 1": 2], "the second write stores the same text, but the store cannot tell")
    }

    @Test("a reader of a key not in the list is told when the key is added")
    func absentKey() {
        let store = Store(
            initialState: KeyedStates<Int, Int>(),
            reducer: Reduce<KeyedStates<Int, Int>, Int> { rows, key in
                rows[key] = key
                return .none
            })
        let readers = Readers()
        readers.add("row 5") { _ = store[part: \.self, key: 5] }
        store.send(4)
        #expect(readers.told == [:])
        store.send(5)
        #expect(readers.told == ["row 5": 1])
    }

    @Test("a row of a collection inside an optional, read through optional chaining: told when the optional goes, and no trap")
    func rowInsideOptional() {
        struct Screen: Equatable {
            struct Sheet: Equatable { var items: KeyedStates<Int, Int> = [5: 0, 6: 0] }
            var sheet: Sheet? = Sheet()
        }
        let store = Store(
            initialState: Screen(),
            reducer: Reduce<Screen, Int?> { state, action in
                if let action { state.sheet?.items[6] = action } else { state.sheet = nil }
                return .none
            })
        let readers = Readers()
        readers.add("row 5") { _ = store[part: \.sheet?.items[5]] }
        store.send(1)
        #expect(readers.told == [:], "another row changed")
        store.send(nil)
        #expect(readers.told == ["row 5": 1])
        #expect(store[part: \.sheet?.items[5]] == nil)
        store.send(2)
    }

    @Test("the journal: started by a reader; a change in place keeps it; a change of a copy takes a new one that names it")
    func journal() {
        var rows: KeyedStates<Int, Int> = [1: 0]
        rows[1] = 1
        #expect(rows._changes == nil, "no journal until a store has a reader of a row")
        rows.startJournal()
        rows[1] = 1
        let journal = rows._changes.map(ObjectIdentifier.init)
        rows[1] = 2
        #expect(rows._changes.map(ObjectIdentifier.init) == journal, "changed in place")
        #expect(rows._changes?._changedKey == 1)
        let copy = rows
        rows[1] = 3
        #expect(rows._changes !== copy._changes, "a copy that changes apart takes its own journal")
        #expect(rows._changes?._origin === copy._changes, "which names the one it came from")
        #expect(copy[1] == 2)
        #expect(rows == [1: 3], "the journal is not part of the value")
        rows.removeAll()
        #expect(rows._changes?._changedKey == nil, "removing every key changes many")
    }
}
