import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Observation
import Testing

/// Issue 26's table: after an action, only the readers of the parts that
/// changed are told.
@Suite("Observation: a reader is told only when what it read changed")
@MainActor
struct StoreObservationTests {
    /// One row of the table: the actions that set the scene, the action
    /// measured, and the readers it must tell. The reader of `note`, a part
    /// that is not `Equatable`, is told whenever the reader of `state` is.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let setup: [ScreenFeature.Action]
        let action: ScreenFeature.Action
        let told: Set<String>
        var testDescription: String { name }
        var expected: Set<String> { told.contains("state") ? told.union(["note"]) : told }
    }

    nonisolated static let cases: [Case] = [
        Case(name: "an action whose reducer changes nothing", setup: [], action: .nothing, told: []),
        Case(name: "a field set to the value it already has", setup: [], action: .setTitle("Home"), told: []),
        Case(
            name: "a stale result that is dropped",
            setup: [.profile(.started(LoadID(1))), .profile(.started(LoadID(2))), .profile(.finished(LoadID(2), 5))],
            action: .profile(.finished(LoadID(1), 9)), told: []),
        Case(name: "count changes", setup: [], action: .increment, told: ["count", "state"]),
        Case(name: "a load starts on profile", setup: [], action: .profile(.started(LoadID(1))), told: ["profile", "state"]),
        Case(
            name: "a load settles on profile", setup: [.profile(.started(LoadID(1)))],
            action: .profile(.finished(LoadID(1), 7)), told: ["profile", "profile.value", "state"]),
        Case(name: "a part at depth changes", setup: [], action: .setLevel(3), told: ["detail", "detail.inner.level", "state"]),
        Case(name: "a sibling of a part at depth changes", setup: [], action: .setFlag(true), told: ["detail", "state"]),
        Case(name: "one row changes", setup: [], action: .setRow(2, 5), told: ["rows", "row 2", "state"]),
        Case(name: "a row set to the value it has", setup: [], action: .setRow(2, 0), told: []),
        Case(name: "a row is removed", setup: [], action: .setRow(3, nil), told: ["rows", "row 3", "state"]),
        Case(name: "a row is added", setup: [], action: .setRow(4, 1), told: ["rows", "row 4", "state"]),
        Case(name: "two rows change", setup: [], action: .setRows([1: 1, 3: 1]), told: ["rows", "row 1", "row 3", "state"]),
        Case(
            name: "the rows are replaced, one of them changed", setup: [],
            action: .replaceRows([1: 0, 2: 8, 3: 0]), told: ["rows", "row 2", "state"]),
        Case(name: "a part that is not Equatable is written", setup: [], action: .setNote("hi"), told: ["state"]),
    ]

    /// Every reader of the screen, one per part.
    static func addReaders(_ readers: Readers, of store: Store<ScreenFeature.State, ScreenFeature.Action>) {
        readers.add("title") { _ = store.title }
        readers.add("count") { _ = store.count }
        readers.add("profile") { _ = store.profile }
        readers.add("profile.value") { _ = store[part: \.profile.value] }
        readers.add("detail") { _ = store.detail }
        readers.add("detail.inner.level") { _ = store[part: \.detail.inner.level] }
        readers.add("rows") { _ = store.rows }
        for key in 1...4 { readers.add("row \(key)") { _ = store[part: \.rows, key: key] } }
        readers.add("note") { _ = store.note }
        readers.add("state") { _ = store.state }
    }

    @Test("through Store", arguments: cases, EffectStart.allCases)
    func throughStore(row: Case, start: EffectStart) {
        let store = Store(initialState: ScreenFeature.State(), reducer: ScreenFeature())
        store._effectStart = start
        for action in row.setup { store.send(action) }
        let readers = Readers()
        Self.addReaders(readers, of: store)
        store.send(row.action)
        #expect(readers.toldNames == row.expected)
        #expect(readers.told.values.allSatisfy { $0 == 1 }, "each reader is told once: \(readers.told)")
    }

    @Test("through TestStore", arguments: cases)
    func throughTestStore(row: Case) async {
        let testStore = TestStore(initialState: ScreenFeature.State(), reducer: ScreenFeature())
        testStore.exhaustivity = .off
        for action in row.setup { testStore.send(action) }
        let readers = Readers()
        Self.addReaders(readers, of: testStore.underlyingStore)
        testStore.send(row.action)
        #expect(readers.toldNames == row.expected)
        await testStore.finish()
    }

    @Test("a load that starts and settles tells the readers of its part, on both start paths", arguments: EffectStart.allCases)
    func loadThroughEffects(start: EffectStart) async {
        let store = Store(initialState: ScreenFeature.State(), reducer: ScreenFeature())
        store._effectStart = start
        let readers = Readers()
        readers.add("title", rereads: true) { _ = store.title }
        readers.add("profile", rereads: true) { _ = store.profile }
        readers.add("profile.value", rereads: true) { _ = store[part: \.profile.value] }
        let gate = Gate<Int>()
        let task = store.send(.load(gate))
        #expect(readers.told == ["profile": 1])
        await gate.waitForArrivals()
        gate.open(with: 7)
        await task.finish()
        #expect(readers.told == ["profile": 2, "profile.value": 1])
        #expect(store[part: \.profile.value] == 7)
    }

    @Test("a reader that reads again from its change handler sees the new state and is told of the next change")
    func rereadFromHandler() {
        @MainActor
        final class View {
            let store = Store(initialState: ScreenFeature.State(), reducer: ScreenFeature())
            var seen: [Int] = []
            func render() {
                withObservationTracking {
                    seen.append(store.count)
                } onChange: { [self] in
                    MainActor.assumeIsolated { render() }
                }
            }
        }
        let view = View()
        view.render()
        view.store.send(.increment)
        view.store.send(.setTitle("Other"))
        view.store.send(.increment)
        #expect(view.seen == [0, 1, 2], "read once, then once per change of count, each time the new value")
    }

    @Test("a reader of two parts is told once, at the first change")
    func readerOfTwoParts() {
        let store = Store(initialState: ScreenFeature.State(), reducer: ScreenFeature())
        let readers = Readers()
        readers.add("title and count") {
            _ = store.title
            _ = store.count
        }
        store.send(.increment)
        store.send(.setTitle("Other"))
        #expect(readers.told == ["title and count": 1])
        readers.rearm()
        store.send(.setTitle("Third"))
        #expect(readers.told == ["title and count": 2])
    }

    @Test("a part that changed and changed back within one action tells nobody")
    func changedBack() {
        let reducer = Reduce<ScreenFeature.State, Int> { state, _ in
            state.count += 1
            state.count -= 1
            return .none
        }
        let store = Store(initialState: ScreenFeature.State(), reducer: reducer)
        let readers = Readers()
        readers.add("count") { _ = store.count }
        readers.add("state") { _ = store.state }
        store.send(0)
        #expect(readers.told == [:])
    }

    @Test("actions queued from a change handler are processed, and their changes announced")
    func sendFromHandler() {
        let store = Store(initialState: ScreenFeature.State(), reducer: ScreenFeature())
        let readers = Readers()
        readers.add("title") { _ = store.title }
        withObservationTracking {
            _ = store.count
        } onChange: {
            MainActor.assumeIsolated { _ = store.send(.setTitle("Changed")) }
        }
        store.send(.increment)
        #expect(store.title == "Changed")
        #expect(readers.told == ["title": 1])
    }

    @Test("a store released while observed tells nobody and frees its parts")
    func releasedWhileObserved() {
        let readers = Readers()
        weak var released: Store<ScreenFeature.State, ScreenFeature.Action>?
        do {
            let store = Store(initialState: ScreenFeature.State(), reducer: ScreenFeature())
            released = store
            readers.add("count") { [weak store] in _ = store?.count }
            readers.add("row 1") { [weak store] in _ = store?[part: \.rows, key: 1] }
            readers.add("state") { [weak store] in _ = store?.state }
        }
        #expect(released == nil)
        #expect(readers.told == [:])
    }

    @Test("a store whose state is not Equatable tells readers of the whole state after every action")
    func stateNotEquatable() {
        let store = Store(
            initialState: [ScreenFeature.Note](),
            reducer: Reduce<[ScreenFeature.Note], String> { state, text in
                if !text.isEmpty { state.append(ScreenFeature.Note(text: text)) }
                return .none
            })
        let readers = Readers()
        readers.add("state") { _ = store.state }
        readers.add("count") { _ = store.count }
        store.send("")
        #expect(readers.told == ["state": 1], "an Equatable member is still compared")
        readers.rearm(["state"])
        store.send("a")
        #expect(readers.told == ["state": 2, "count": 1])
    }

    @Test("a state that is not Equatable: an action one combined reducer drops and another acts on still tells readers of the state")
    func droppedByOneChangedByAnother() {
        struct Mixed {
            var note = ScreenFeature.Note(text: "")
            var profile = Loadable<Int, TestError>()
        }
        let reducer = Reduce<Mixed, Int> { state, _ in
            state.note.text += "x"
            return .none
        }
        .combined(with: Reduce<Mixed, Int> { state, _ in state.profile.reduce(.finished(LoadID(9), 1)) })
        let store = Store(initialState: Mixed(), reducer: reducer)
        var dropped: [Bool] = []
        store.observeTransitions { dropped.append($0.isDropped) }
        let readers = Readers()
        readers.add("state") { _ = store.state }
        store.send(0)
        #expect(dropped == [true], "the action is marked dropped: one part dropped its stale result")
        #expect(readers.told == ["state": 1], "but the note changed, and the store cannot compare this state")
    }

    @Test("reads outside any observation cost nothing after the next change")
    func readsOutsideObservation() {
        let store = Store(initialState: ScreenFeature.State(), reducer: ScreenFeature())
        _ = store.count
        _ = store[part: \.rows, key: 1]
        #expect(store.listedPartCount == 2)
        store.send(.increment)
        store.send(.setRow(1, 4))
        #expect(store.listedPartCount == 0, "a part announced has no readers left, so it is no longer compared")
    }
}

/// Nested scopes: a parent holding a child feature holding a grandchild.
/// A reader of a part at any depth is told only when that part changes.
@Suite("Observation: nested scopes")
@MainActor
struct NestedScopeObservationTests {
    struct Grandchild: Reducer {
        struct State: Equatable { var count = 0 }
        enum Action: Sendable { case increment }
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            state.count += 1
            return .none
        }
    }

    struct Child: Reducer {
        struct State: Equatable {
            var name = "child"
            var left = Grandchild.State()
            var right = Grandchild.State()
        }
        enum Action: Sendable { case rename(String), left(Grandchild.Action), right(Grandchild.Action) }
        var body: some Reducer<State, Action> {
            Reduce<State, Action> { state, action in
                if case .rename(let name) = action { state.name = name }
                return .none
            }
            .combined(
                with: Scope<State, Action, Grandchild>(
                    state: \.left, action: Action.left, extract: { if case .left(let a) = $0 { a } else { nil } }
                ) { Grandchild() }
            )
            .combined(
                with: Scope<State, Action, Grandchild>(
                    state: \.right, action: Action.right, extract: { if case .right(let a) = $0 { a } else { nil } }
                ) { Grandchild() }
            )
        }
        func reduce(into state: inout State, action: Action) -> Effect<Action> { body.reduce(into: &state, action: action) }
    }

    struct Parent: Reducer {
        struct State: Equatable { var child = Child.State() }
        enum Action: Sendable { case child(Child.Action) }
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            Scope<State, Action, Child>(state: \.child, action: Action.child, extract: { if case .child(let a) = $0 { a } else { nil } }) {
                Child()
            }
            .reduce(into: &state, action: action)
        }
    }

    @Test("an action two scopes down tells the readers of that grandchild, of its parents as wholes, and no one else")
    func twoScopesDown() {
        let store = Store(initialState: Parent.State(), reducer: Parent())
        let readers = Readers()
        readers.add("child", rereads: true) { _ = store.child }
        readers.add("child.name", rereads: true) { _ = store[part: \.child.name] }
        readers.add("child.left", rereads: true) { _ = store[part: \.child.left] }
        readers.add("child.left.count", rereads: true) { _ = store[part: \.child.left.count] }
        readers.add("child.right.count", rereads: true) { _ = store[part: \.child.right.count] }
        store.send(.child(.left(.increment)))
        #expect(readers.told == ["child": 1, "child.left": 1, "child.left.count": 1])
        store.send(.child(.rename("child")))
        #expect(readers.told == ["child": 1, "child.left": 1, "child.left.count": 1], "renamed to the name it had")
        store.send(.child(.right(.increment)))
        #expect(readers.told == ["child": 2, "child.left": 1, "child.left.count": 1, "child.right.count": 1])
    }
}
