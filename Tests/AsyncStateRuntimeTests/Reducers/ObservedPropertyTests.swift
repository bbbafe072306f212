import AsyncState
import AsyncStateTestSupport
import Observation
import Testing

/// `forEach` and `ifLet` over properties with observers (`didSet`): they read
/// the property to decide whether a child was removed, and write it only to
/// run the child an action is for. A write they made to read ran the
/// observers on every action, so an action for no child changed the state.
@Suite("Reducers: forEach and ifLet write their property only for their child's actions")
@MainActor
struct ObservedPropertyTests {
    struct Screen: Reducer {
        struct State: Equatable {
            var writes = 0
            var rows: KeyedStates<Int, Int> = [1: 0] { didSet { writes += 1 } }
            var sheet: Int? = 0 { didSet { writes += 1 } }
        }

        enum Action {
            case row(Int, Int)
            case sheet(Int)
            case nothing
        }

        var composed: some Reducer<State, Action> {
            forEach(\.rows, action: Action.row, extract: { if case .row(let key, let action) = $0 { (key, action) } else { nil } }) {
                Reduce<Int, Int> { row, amount in
                    row += amount
                    return .none
                }
            }
            .ifLet(\.sheet, action: Action.sheet, extract: { if case .sheet(let action) = $0 { action } else { nil } }) {
                Reduce<Int, Int> { sheet, amount in
                    sheet += amount
                    return .none
                }
            }
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
    }

    @Test("each action writes only the property of the child it is for: the observers run once, or not at all")
    func writesPerAction() {
        let table: [(action: Screen.Action, writes: Int)] = [(.nothing, 0), (.row(1, 5), 1), (.sheet(2), 1)]
        for (action, writes) in table {
            let store = Store(initialState: Screen.State(), reducer: Screen().composed)
            store.send(action)
            #expect(store.state.writes == writes, "\(action)")
        }
    }

    @Test("an action for no child tells no reader of the state")
    func otherActionTellsNobody() {
        let store = Store(initialState: Screen.State(), reducer: Screen().composed)
        let readers = Readers()
        readers.add("state") { _ = store.state }
        store.send(.nothing)
        #expect(readers.told == [:])
    }
}
