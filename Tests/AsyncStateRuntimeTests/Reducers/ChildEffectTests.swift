import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Testing

/// A child's effects are its own: its cancel IDs are scoped to it, and
/// removing it — a key gone from `forEach`'s rows, an `ifLet`'s state set to
/// `nil` — cancels every one of them, so nothing of it reaches a child that
/// takes its place.
@Suite("Reducers: a child's effects", .hangGuard)
@MainActor
struct ChildEffectTests {
    let clock = TestClock()

    func makeStore() -> Store<SearchScreen.State, SearchScreen.Action> {
        Store(initialState: SearchScreen.State(), reducer: SearchScreen(clock: clock).composed)
    }

    @Test("rows that debounce by one ID search independently")
    func sharedIDs() async {
        let store = makeStore()
        let seven = store.send(.row(7, .typed("a")))
        await clock.waitForSleepers(1)
        let eight = store.send(.row(8, .typed("b")))
        await clock.waitForSleepers(2)
        clock.advance(by: .milliseconds(300))
        await seven.finish()
        await eight.finish()
        #expect(store.state.rows[7]?.results.value == "a")
        #expect(store.state.rows[8]?.results.value == "b")
    }

    @Test(
        "within one row, a later keystroke still cancels the earlier one, also with the screen's effects marked by an ID of its own",
        arguments: [false, true])
    func debounceWithinRow(marked: Bool) async {
        let store =
            marked
            ? Store(initialState: SearchScreen.State(), reducer: SearchScreen.marked(clock: clock)) : makeStore()
        let first = store.send(.row(7, .typed("a")))
        await clock.waitForSleepers(1)
        let second = store.send(.row(7, .typed("ab")))
        await first.finish()
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(300))
        await second.finish()
        #expect(store.state.rows[7]?.results == Loadable(expecting: .success(value: "ab"), newestID: LoadID(1)))
    }

    @Test("a parent's cancel by a row's ID does not reach the rows")
    func parentCancelByID() async {
        let store = makeStore()
        let typed = store.send(.row(7, .typed("a")))
        await clock.waitForSleepers(1)
        store.send(.cancelSearches)
        clock.advance(by: .milliseconds(300))
        await typed.finish()
        #expect(store.state.rows[7]?.results.value == "a")
    }

    @Test(
        "a row removed within its debounce: its search never starts, and a row added under its key shows nothing of it",
        arguments: [true, false])
    func removedWithinDebounce(addsBack: Bool) async {
        let store = makeStore()
        let typed = store.send(.row(7, .typed("old query")))
        await clock.waitForSleepers(1)
        store.send(.remove(7))
        if addsBack { store.send(.add(7)) }
        clock.advance(by: .milliseconds(300))
        await typed.finish()
        #expect(store.state.rows[7] == (addsBack ? SearchRow.State() : nil))
        #expect(store.state.rows[8] == SearchRow.State())
    }

    @Test("a row removed while its load runs: the load is cancelled, and the row added back shows nothing of it")
    func removedWhileLoading() async {
        let store = makeStore()
        let gate = Gate<String>()
        let opened = store.send(.row(7, .open(gate)))
        await gate.waitForArrivals(1)
        store.send(.remove(7))
        store.send(.add(7))
        await opened.finish()
        #expect(gate.observedCancellation)
        #expect(store.state.rows[7] == SearchRow.State())
    }

    @Test("a row put back from a copy taken while it loaded, after its load's end was let go, shows that load until the copy is settled")
    func restoredFromCopy() async throws {
        let store = makeStore()
        let gate = Gate<String>()
        let opened = store.send(.row(7, .open(gate)))
        await gate.waitForArrivals(1)
        var copy = try #require(store.state.rows[7])
        store.send(.remove(7))
        await opened.finish()
        store.send(.restore(7, copy))
        #expect(store.state.rows[7]?.results.inFlightID == LoadID(1))
        copy.results.cancel()
        store.send(.restore(7, copy))
        #expect(store.state.rows[7]?.results == Loadable(expecting: .notLoaded, newestID: LoadID(1)))
    }

    @Test("a row removed: the other rows' loads run on")
    func otherRowsRunOn() async {
        let store = makeStore()
        let (seven, eight) = (Gate<String>(), Gate<String>())
        store.send(.row(7, .open(seven)))
        let opened = store.send(.row(8, .open(eight)))
        await seven.waitForArrivals(1)
        await eight.waitForArrivals(1)
        store.send(.remove(7))
        eight.open(with: "eight")
        await opened.finish()
        #expect(seven.observedCancellation && !eight.observedCancellation)
        #expect(store.state.rows[8]?.results.value == "eight")
    }

    @Test("a row removed and added back in one action is the same row: its load runs on")
    func replacedInOneAction() async {
        let store = makeStore()
        let gate = Gate<String>()
        let opened = store.send(.row(7, .open(gate)))
        await gate.waitForArrivals(1)
        store.send(.replace(7))
        gate.open(with: "late")
        await opened.finish()
        #expect(!gate.observedCancellation)
        // The row's new state has no load in flight, so the answer is stale.
        #expect(store.state.rows[7] == SearchRow.State())
    }

    @Test("removing row 7 of one list leaves row 7 of another list of the same parent")
    func sameKeyOtherList() async {
        let store = makeStore()
        let (row, pinned) = (Gate<String>(), Gate<String>())
        store.send(.row(7, .open(row)))
        let opened = store.send(.pinned(7, .open(pinned)))
        await row.waitForArrivals(1)
        await pinned.waitForArrivals(1)
        store.send(.remove(7))
        pinned.open(with: "pinned")
        await opened.finish()
        #expect(row.observedCancellation && !pinned.observedCancellation)
        #expect(store.state.pinned[7]?.results.value == "pinned")
    }

    @Test(
        "a sheet dismissed within its rows' debounce: the sheet presented anew shows nothing of it",
        arguments: [true, false])
    func dismissedWithinDebounce(cancelsByID: Bool) async {
        let store = makeStore()
        store.send(.present)
        let typed = store.send(.sheet(.row(1, .typed("old query"))))
        await clock.waitForSleepers(1)
        if cancelsByID { store.send(.cancelSearches) }
        store.send(.dismiss)
        store.send(.present)
        clock.advance(by: .milliseconds(300))
        await typed.finish()
        #expect(store.state.sheet == Sheet.State())
    }

    @Test("a sheet dismissed while a row of it loads: the load is cancelled; the list behind it runs on")
    func dismissedWhileLoading() async {
        let store = makeStore()
        let (inSheet, behind) = (Gate<String>(), Gate<String>())
        store.send(.present)
        store.send(.sheet(.row(1, .open(inSheet))))
        let opened = store.send(.row(7, .open(behind)))
        await inSheet.waitForArrivals(1)
        await behind.waitForArrivals(1)
        store.send(.dismiss)
        behind.open(with: "behind")
        await opened.finish()
        #expect(inSheet.observedCancellation && !behind.observedCancellation)
        #expect(store.state.rows[7]?.results.value == "behind")
        #expect(store.state.sheet == nil)
    }

    @Test("a sheet dismissed cancels its row 1, not row 1 of the list behind it")
    func nestedKeysApart() async {
        let store = makeStore()
        let (inSheet, behind) = (Gate<String>(), Gate<String>())
        store.send(.present)
        // Row 1 of the sheet and row 1 of the screen: same key, different lists.
        store.send(.add(1))
        store.send(.sheet(.row(1, .open(inSheet))))
        let opened = store.send(.row(1, .open(behind)))
        await inSheet.waitForArrivals(1)
        await behind.waitForArrivals(1)
        store.send(.dismiss)
        behind.open(with: "behind")
        await opened.finish()
        #expect(inSheet.observedCancellation && !behind.observedCancellation)
        #expect(store.state.rows[1]?.results.value == "behind")
    }
}

/// Two copies of one feature, each scoped into the parent, each with a
/// sheet at the same key path of its own state.
struct TwinScreens: Reducer {
    struct State: Equatable {
        var left = SearchScreen.State(rows: [:], pinned: [:])
        var right = SearchScreen.State(rows: [:], pinned: [:])
    }

    enum Action {
        case left(SearchScreen.Action)
        case right(SearchScreen.Action)
    }

    let clock: TestClock

    var composed: some Reducer<State, Action> {
        Scope(state: \.left, action: Action.left, extract: { if case .left(let action) = $0 { action } else { nil } }) {
            SearchScreen(clock: clock).composed
        }
        .combined(
            with: Scope(state: \.right, action: Action.right, extract: { if case .right(let action) = $0 { action } else { nil } }) {
                SearchScreen(clock: clock).composed
            })
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}

@Suite("Reducers: a child's effects under a Scope", .hangGuard)
@MainActor
struct ScopedChildEffectTests {
    @Test("two scopes of one feature: dismissing one's sheet cancels its load, not the other's")
    func twinSheets() async {
        let store = Store(initialState: TwinScreens.State(), reducer: TwinScreens(clock: TestClock()).composed)
        let (left, right) = (Gate<String>(), Gate<String>())
        store.send(.left(.present))
        store.send(.right(.present))
        store.send(.left(.sheet(.row(1, .open(left)))))
        let opened = store.send(.right(.sheet(.row(1, .open(right)))))
        await left.waitForArrivals(1)
        await right.waitForArrivals(1)
        store.send(.left(.dismiss))
        right.open(with: "right")
        await opened.finish()
        #expect(left.observedCancellation && !right.observedCancellation)
        #expect(store.state.right.sheet?.rows[1]?.results.value == "right")
    }

    @Test("a scoped child's cancel IDs are the parent's: the parent's cancel reaches them")
    func scopedIDsShared() async {
        struct Parent: Reducer {
            enum Action { case child(SearchRow.Action), cancel }
            let clock: TestClock
            var composed: some Reducer<SearchRow.State, Action> {
                Scope(
                    state: \SearchRow.State.self, action: Action.child, extract: { if case .child(let action) = $0 { action } else { nil } }
                ) {
                    SearchRow(clock: clock)
                }
                .combined(with: self)
            }
            func reduce(into state: inout SearchRow.State, action: Action) -> Effect<Action> {
                if case .cancel = action { return .cancel(id: SearchRow.Search()) }
                return .none
            }
        }
        let clock = TestClock()
        let store = Store(initialState: SearchRow.State(), reducer: Parent(clock: clock).composed)
        let typed = store.send(.child(.typed("a")))
        await clock.waitForSleepers(1)
        store.send(.cancel)
        await typed.finish()
        #expect(store.state == SearchRow.State())
    }
}

/// A row that counts the load actions it receives.
struct CountingRow: Reducer {
    struct State: Equatable {
        var results = Loadable<String, TestError>()
        var received = 0
    }

    enum Action {
        case open(Gate<String>)
        case queue(Gate<String>)
        case results(LoadAction<String, TestError>)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        let request = { (gate: Gate<String>) in
            LoadRequest { () async throws(TestError) in
                do { return try await gate.wait() } catch { throw .offline }
            }
        }
        switch action {
        case .open(let gate):
            return state.results.load(Action.results, request(gate))
        case .queue(let gate):
            return state.results.load(Action.results, request(gate), overlap: .queue)
        case .results(let load):
            state.received += 1
            return state.results.reduce(load)
        }
    }
}

/// Rows of `CountingRow`, added and removed by a parent that counts the
/// loads of its rows in flight: one more at each start, one fewer at each end.
struct CountingRows: Reducer {
    struct State: Equatable {
        var rows: KeyedStates<Int, CountingRow.State> = [7: CountingRow.State()]
        var inFlight = 0
    }

    enum Action {
        case row(Int, CountingRow.Action)
        case add(Int)
        case remove(Int)
    }

    var composed: some Reducer<State, Action> {
        forEach(\.rows, action: Action.row, extract: { if case .row(let id, let action) = $0 { (id, action) } else { nil } }) {
            CountingRow()
        }
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .add(let id): state.rows[id] = CountingRow.State()
        case .remove(let id): state.rows[id] = nil
        case .row(_, .results(let load)):
            switch load {
            case .started, .queued: state.inFlight += 1
            case .finished, .failed, .cancelled: state.inFlight -= 1
            default: break
            }
        case .row: break
        }
        return .none
    }
}

/// Every load ends exactly once, a removed child's too: the parent hears
/// the end, and a child added back under the key drops it as stale.
@Suite("Reducers: a removed child's load still ends", .hangGuard)
@MainActor
struct RemovedChildEndTests {
    @Test(
        "a row removed while a load of it runs or waits in a queue: the parent hears every load end; the row added back drops the ends as stale",
        arguments: [false, true])
    func removedAndAddedBack(queues: Bool) async {
        let store = Store(initialState: CountingRows.State(), reducer: CountingRows().composed)
        let (first, second) = (Gate<String>(), Gate<String>())
        let opened = store.send(.row(7, .open(first)))
        let queued = queues ? store.send(.row(7, .queue(second))) : nil
        await first.waitForArrivals(1)
        #expect(store.state.inFlight == (queues ? 2 : 1))
        store.send(.remove(7))
        store.send(.add(7))
        await opened.finish()
        await queued?.finish()
        #expect(first.observedCancellation)
        #expect(store.state.inFlight == 0)
        // The new row heard each end, and its state shows nothing of them.
        #expect(store.state.rows[7]?.results == Loadable())
        #expect(store.state.rows[7]?.received == (queues ? 2 : 1))
    }
}

/// A host that keeps `SearchScreen` under a `Scope` and can close its sheet
/// two ways: by sending the screen its own `.dismiss`, or by writing `nil`
/// into the screen's state itself.
struct ScreenHost: Reducer {
    struct State: Equatable {
        var screen = SearchScreen.State(rows: [:], pinned: [:])
    }

    enum Action {
        case screen(SearchScreen.Action)
        case closeSheetByWriting
    }

    let clock: TestClock

    var composed: some Reducer<State, Action> {
        Scope(state: \.screen, action: Action.screen, extract: { if case .screen(let action) = $0 { action } else { nil } }) {
            SearchScreen(clock: clock).composed
        }
        .combined(with: self)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        if case .closeSheetByWriting = action { state.screen.sheet = nil }
        return .none
    }
}

@Suite("Reducers: where a child's removal is seen", .hangGuard)
@MainActor
struct RemovalBoundaryTests {
    @Test(
        "a sheet closed through its screen's own action cancels its load; closed by writing from above, the load runs on and its answer is dropped in the next sheet",
        arguments: [false, true])
    func closedFromAbove(byWriting: Bool) async {
        let store = Store(initialState: ScreenHost.State(), reducer: ScreenHost(clock: TestClock()).composed)
        let gate = Gate<String>()
        store.send(.screen(.present))
        let opened = store.send(.screen(.sheet(.row(1, .open(gate)))))
        await gate.waitForArrivals(1)
        store.send(byWriting ? .closeSheetByWriting : .screen(.dismiss))
        store.send(.screen(.present))
        let cancelled = gate.observedCancellation
        gate.open(with: "old sheet")
        await opened.finish()
        #expect(cancelled == !byWriting)
        #expect(store.state.screen.sheet == Sheet.State())
    }
}
