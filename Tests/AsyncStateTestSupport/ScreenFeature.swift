import AsyncState
import AsyncStateTesting

/// A screen with independent parts — a title, a counter, a loaded profile,
/// keyed rows and a part that is not `Equatable` — for counting which
/// readers an action tells.
package struct ScreenFeature: Reducer {
    package struct State: Equatable {
        package var title = "Home"
        package var count = 0
        package var profile = Loadable<Int, TestError>()
        package var rows: KeyedStates<Int, Int> = [1: 0, 2: 0, 3: 0]
        package var detail = Detail()
        package var note = Note(text: "")

        package init() {}
    }

    /// A nested part, for reads at depth.
    package struct Detail: Equatable {
        package var inner = Inner()
        package var flag = false
    }

    package struct Inner: Equatable {
        package var level = 0
    }

    /// A part that is not `Equatable`: the store cannot tell whether it changed.
    package struct Note {
        package var text: String

        package init(text: String) {
            self.text = text
        }
    }

    package enum Action: Sendable {
        case nothing
        case setTitle(String)
        case increment
        case load(Gate<Int>)
        case profile(LoadAction<Int, TestError>)
        case setRow(Int, Int?)
        case setRows([Int: Int])
        case replaceRows(KeyedStates<Int, Int>)
        case setLevel(Int)
        case setFlag(Bool)
        case setNote(String)
    }

    package init() {}

    package func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .nothing:
            return .none
        case .setTitle(let title):
            state.title = title
        case .increment:
            state.count += 1
        case .load(let gate):
            return state.profile.load(Action.profile, LoadRequest(mapError: { _ in .offline }) { try await gate.wait() })
        case .profile(let load):
            return state.profile.reduce(load)
        case .setRow(let key, let value):
            state.rows[key] = value
        case .setRows(let values):
            for (key, value) in values.sorted(by: { $0.key < $1.key }) { state.rows[key] = value }
        case .replaceRows(let rows):
            state.rows = rows
        case .setLevel(let level):
            state.detail.inner.level = level
        case .setFlag(let flag):
            state.detail.flag = flag
        case .setNote(let text):
            state.note.text = text
        }
        return .none
    }
}

extension ScreenFeature.State {
    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.title == rhs.title && lhs.count == rhs.count && lhs.profile == rhs.profile && lhs.rows == rhs.rows
            && lhs.detail == rhs.detail && lhs.note.text == rhs.note.text
    }
}
