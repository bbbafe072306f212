import AsyncState
import AsyncStateControls

/// A row that searches as its user types, debounced by one ID that every
/// row uses, and that can load from a gate.
package struct SearchRow: Reducer {
    package struct State: Equatable {
        package var results = Loadable<String, TestError>()

        package init() {}
    }

    package enum Action {
        case typed(String)
        case open(Gate<String>)
        case results(LoadAction<String, TestError>)
    }

    /// The one ID every row debounces by: a child's IDs are its own.
    package struct Search: Hashable, Sendable {
        package init() {}
    }

    package let clock: TestClock

    package init(clock: TestClock) {
        self.clock = clock
    }

    package func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .typed(let query):
            return state.results.load(Action.results, LoadRequest { () async throws(TestError) in query })
                .debounced(id: Search(), for: .milliseconds(300), clock: clock)
        case .open(let gate):
            return state.results.load(
                Action.results,
                LoadRequest { () async throws(TestError) in
                    do { return try await gate.wait() } catch { throw .offline }
                })
        case .results(let load):
            return state.results.reduce(load)
        }
    }
}

/// Rows (`forEach`), a second list keyed the same way, and an optional
/// sheet (`ifLet`) that holds rows of its own.
package struct SearchScreen: Reducer {
    package struct State: Equatable {
        package var rows: KeyedStates<Int, SearchRow.State>
        package var pinned: KeyedStates<Int, SearchRow.State>
        package var sheet: Sheet.State?

        package init(
            rows: KeyedStates<Int, SearchRow.State> = [7: SearchRow.State(), 8: SearchRow.State()],
            pinned: KeyedStates<Int, SearchRow.State> = [7: SearchRow.State()],
            sheet: Sheet.State? = nil
        ) {
            self.rows = rows
            self.pinned = pinned
            self.sheet = sheet
        }
    }

    package enum Action {
        case row(Int, SearchRow.Action)
        case pinned(Int, SearchRow.Action)
        case sheet(Sheet.Action)
        case add(Int)
        case remove(Int)
        /// Puts a row back under its key from a copy (an undo).
        case restore(Int, SearchRow.State)
        /// Removes a row and adds it back under its key, in one action.
        case replace(Int)
        case present
        case dismiss
        /// Cancels by the rows' own ID, from the parent.
        case cancelSearches
        /// Does nothing here; a reducer that marks every effect of the
        /// screen with an ID of its own cancels them by it.
        case leave
    }

    package let clock: TestClock

    package init(clock: TestClock) {
        self.clock = clock
    }

    package var composed: some Reducer<State, Action> {
        forEach(\.rows, action: Action.row, extract: { if case .row(let id, let action) = $0 { (id, action) } else { nil } }) {
            SearchRow(clock: clock)
        }
        .forEach(\.pinned, action: Action.pinned, extract: { if case .pinned(let id, let action) = $0 { (id, action) } else { nil } }) {
            SearchRow(clock: clock)
        }
        .ifLet(\.sheet, action: Action.sheet, extract: { if case .sheet(let action) = $0 { action } else { nil } }) {
            Sheet(clock: clock).composed
        }
    }

    package func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .add(let id):
            state.rows[id] = SearchRow.State()
        case .remove(let id):
            state.rows[id] = nil
        case .restore(let id, let row):
            state.rows[id] = row
        case .replace(let id):
            state.rows[id] = nil
            state.rows[id] = SearchRow.State()
        case .present:
            state.sheet = Sheet.State()
        case .dismiss:
            state.sheet = nil
        case .cancelSearches:
            return .cancel(id: SearchRow.Search())
        case .row, .pinned, .sheet, .leave:
            break
        }
        return .none
    }
}

/// A sheet with rows of its own.
package struct Sheet: Reducer {
    package struct State: Equatable {
        package var rows: KeyedStates<Int, SearchRow.State> = [1: SearchRow.State()]

        package init() {}
    }

    package enum Action {
        case row(Int, SearchRow.Action)
    }

    package let clock: TestClock

    package init(clock: TestClock) {
        self.clock = clock
    }

    package var composed: some Reducer<State, Action> {
        forEach(\.rows, action: Action.row, extract: { if case .row(let id, let action) = $0 { (id, action) } else { nil } }) {
            SearchRow(clock: clock)
        }
    }

    package func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}

extension SearchScreen {
    /// The ID that marks every effect of ``marked(clock:)``.
    package struct Mark: Hashable, Sendable {
        package init() {}
    }

    /// `SearchScreen`, with every effect it returns marked by ``Mark``, which
    /// `.leave` cancels.
    package static func marked(clock: TestClock) -> Reduce<State, Action> {
        let screen = SearchScreen(clock: clock).composed
        return Reduce { state, action in
            if case .leave = action { return .cancel(id: Mark()) }
            return screen.reduce(into: &state, action: action).cancellable(id: Mark())
        }
    }
}
