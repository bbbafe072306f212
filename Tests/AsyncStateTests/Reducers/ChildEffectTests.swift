import AsyncState
import AsyncStateControls
import Testing

/// A row (or sheet) that searches as its user types, debounced, with its
/// cancel ID given by whoever composes it.
struct SearchField: Reducer {
    struct State: Equatable {
        var id = 0
        var results = Loadable<String, TestError>()
    }

    enum Action {
        case typed(String)
        case results(LoadAction<String, TestError>)
    }

    /// What a search is debounced by: one ID for every field, one per row, the sheet's.
    enum SearchID: Hashable, Sendable {
        case shared
        case row(Int)
        case sheet
    }

    /// The ID the search is debounced by, from the field's state.
    let searchID: @Sendable (State) -> SearchID
    let clock: TestClock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .typed(let query):
            return state.results.load(Action.results, LoadRequest { () async throws(TestError) in query })
                .debounced(id: searchID(state), for: .milliseconds(300), clock: clock)
        case .results(let load):
            return state.results.reduce(load)
        }
    }
}

/// Two rows of search fields (`forEach`) and an optional sheet with one (`ifLet`).
struct SearchScreen: Reducer {
    struct State: Equatable {
        var rows: KeyedStates<Int, SearchField.State> = [7: SearchField.State(id: 7), 8: SearchField.State(id: 8)]
        var sheet: SearchField.State?
    }

    enum Action {
        case row(Int, SearchField.Action)
        case sheet(SearchField.Action)
        case present
        case dismiss
    }

    let searchID: @Sendable (SearchField.State) -> SearchField.SearchID
    let clock: TestClock
    /// Whether dismissing the sheet cancels its search, as the docs ask.
    let cancelsOnDismiss: Bool

    var composed: some Reducer<State, Action> {
        forEach(\.rows, action: Action.row, extract: { if case .row(let id, let action) = $0 { (id, action) } else { nil } }) {
            SearchField(searchID: searchID, clock: clock)
        }
        .ifLet(\.sheet, action: Action.sheet, extract: { if case .sheet(let action) = $0 { action } else { nil } }) {
            SearchField(searchID: { _ in .sheet }, clock: clock)
        }
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .present:
            state.sheet = SearchField.State()
        case .dismiss:
            state.sheet = nil
            if cancelsOnDismiss { return .cancel(id: SearchField.SearchID.sheet) }
        case .row, .sheet:
            break
        }
        return .none
    }
}

/// A child's effects belong to the store, not to the child: cancel IDs are
/// the store's, and a child's effects outlive it. Written as the docs of
/// `forEach` and `ifLet` ask, children stay independent; written without,
/// the two gaps an outside reading found show (recorded as known issues
/// until children's effects are scoped to them).
@Suite("Reducers: a child's effects", .timeLimit(.minutes(1)))
@MainActor
struct ChildEffectTests {
    /// Types "a" in row 7 and "b" in row 8, one after the other within the
    /// debounce, and returns what each row shows. `sleepers`: how many
    /// debounces wait once both are typed — two if neither cancels the other.
    func searchBothRows(
        searchID: @escaping @Sendable (SearchField.State) -> SearchField.SearchID, sleepers: Int
    ) async -> (String?, String?) {
        let clock = TestClock()
        let store = Store(
            initialState: SearchScreen.State(), reducer: SearchScreen(searchID: searchID, clock: clock, cancelsOnDismiss: false).composed)
        let seven = store.send(.row(7, .typed("a")))
        await clock.waitForSleepers(1)
        let eight = store.send(.row(8, .typed("b")))
        await clock.waitForSleepers(sleepers)
        clock.advance(by: .milliseconds(300))
        await seven.finish()
        await eight.finish()
        return (store.state.rows[7]?.results.value, store.state.rows[8]?.results.value)
    }

    @Test("rows whose cancel IDs hold their key search independently")
    func keyedIDs() async {
        let (seven, eight) = await searchBothRows(searchID: { .row($0.id) }, sleepers: 2)
        #expect(seven == "a" && eight == "b")
    }

    @Test("rows that share a cancel ID cancel each other's search (known: IDs are the store's)")
    func sharedIDs() async {
        let (seven, eight) = await searchBothRows(searchID: { _ in .shared }, sleepers: 1)
        #expect(eight == "b")
        withKnownIssue("cancel IDs are not scoped to a forEach key") {
            #expect(seven == "a")
        }
    }

    /// Types in a sheet, dismisses it within the debounce, presents a new
    /// one, and returns what the new sheet shows once the debounce is over.
    func representSheet(cancelsOnDismiss: Bool) async -> Loadable<String, TestError>? {
        let clock = TestClock()
        let screen = SearchScreen(searchID: { .row($0.id) }, clock: clock, cancelsOnDismiss: cancelsOnDismiss)
        let store = Store(initialState: SearchScreen.State(), reducer: screen.composed)
        store.send(.present)
        let typed = store.send(.sheet(.typed("old query")))
        await clock.waitForSleepers(1)
        store.send(.dismiss)
        store.send(.present)
        clock.advance(by: .milliseconds(300))
        await typed.finish()
        return store.state.sheet?.results
    }

    @Test("a sheet dismissed with its search cancelled: the sheet presented anew shows nothing of it")
    func dismissCancels() async {
        let results = await representSheet(cancelsOnDismiss: true)
        #expect(results == Loadable())
    }

    @Test("a sheet dismissed without cancelling its search: the sheet presented anew shows it (known: effects outlive their child)")
    func dismissWithoutCancelling() async {
        let results = await representSheet(cancelsOnDismiss: false)
        withKnownIssue("a child's deferred effects are not cancelled when it is dismissed") {
            #expect(results?.value == nil)
        }
    }
}
