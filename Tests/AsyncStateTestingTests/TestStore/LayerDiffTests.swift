import AsyncState
import AsyncStateTesting
import Testing

/// A failed step shows what differs: every field `Loadable(expecting:)` takes
/// must appear in the field diff when it is the one that differs, or the
/// failure says "differs" and shows nothing.
@Suite("TestStore diffs of a loadable's layers")
@MainActor
struct LayerDiffTests {
    typealias Failure = ProfileScreen.LoadFailure
    typealias Numbers = Loadable<[Int], Failure>
    typealias Rows = Loadable<Pages<Int, Int>, Failure>

    /// Sets the first number.
    struct SetFirst: Edit {
        var to: Int
        func apply(to numbers: inout [Int]) -> Bool {
            guard !numbers.isEmpty else { return false }
            numbers[0] = to
            return true
        }
    }

    /// A test store whose state is one loadable that takes each action as it is.
    func store<Value>(_ initial: Loadable<Value, Failure>) -> TestStore<Loadable<Value, Failure>, LoadAction<Value, Failure>> {
        TestStore(
            initialState: initial,
            reducer: Reduce { state, action in
                _ = state.apply(action)
                return .none
            })
    }

    /// Sends `action`, expecting `wrong`, and checks the failure's diff names `field`.
    func expectDiff<Value>(
        naming field: String, in store: TestStore<Loadable<Value, Failure>, LoadAction<Value, Failure>>,
        after action: LoadAction<Value, Failure>, expecting wrong: Loadable<Value, Failure>
    ) {
        withKnownIssue {
            store.send(action) { $0 = wrong }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            let lines = text.split(separator: "\n").map { $0.drop { $0 == " " } }
            return text.contains("differs from the expected state")
                && lines.contains { $0.hasPrefix(field) }
        }
    }

    // From an outside reading: a refresh needed `settledState:` though it
    // is what a plain refresh has — "name only what differs".
    @Test("a refresh is expected by its state alone: it settles back to the value it shows")
    func refreshByStateAlone() async {
        let store = store(Numbers(value: [1]))
        store.send(.started(LoadID(1))) { $0 = Numbers(expecting: .refreshing(value: [1]), inFlightID: LoadID(1)) }
        store.send(.cancelled(LoadID(1))) { $0 = Numbers(expecting: .success(value: [1]), newestID: LoadID(1)) }
        await store.finish()
    }

    @Test("the newest edit")
    func newestEditID() {
        let store = store(Numbers(value: [0]))
        let edit = AnyEdit(SetFirst(to: 1))
        store.send(.edit(.started(LoadID(1), edit))) {
            $0 = Numbers(expecting: .success(value: [1]), value: [0], pendingEdits: [LoadID(1): edit])
        }
        expectDiff(
            naming: "newestEditID", in: store, after: .edit(.confirmed(LoadID(1))),
            expecting: Numbers(expecting: .success(value: [1]), newestEditID: LoadID(7)))
    }

    @Test("the edits a load in flight gets again")
    func reappliedEdits() {
        let store = store(Numbers(value: [0]))
        let edit = AnyEdit(SetFirst(to: 1))
        store.send(.started(LoadID(1))) {
            $0 = Numbers(expecting: .refreshing(value: [0]), settledState: .success(value: [0]), inFlightID: LoadID(1))
        }
        store.send(.edit(.started(LoadID(2), edit))) {
            $0 = Numbers(
                expecting: .refreshing(value: [1]), value: [0], settledState: .success(value: [0]), inFlightID: LoadID(1),
                pendingEdits: [LoadID(2): edit])
        }
        expectDiff(
            naming: "reappliedEdits", in: store, after: .edit(.confirmed(LoadID(2))),
            expecting: Numbers(
                expecting: .refreshing(value: [1]), settledState: .success(value: [1]), inFlightID: LoadID(1), newestEditID: LoadID(2)))
    }

    @Test("the newest load more")
    func newestMoreID() {
        let first = Pages([1, 2], next: 2)
        let store = store(Rows(expecting: .success(value: first), newestID: LoadID(1)))
        let more = PageRequest(page: 2, list: LoadID(1))
        store.send(.more(more, .started(LoadID(2)))) {
            $0 = Rows(expecting: .success(value: first), newestID: LoadID(1), loadingMore: (LoadID(2), more))
        }
        expectDiff(
            naming: "newestMoreID", in: store, after: .more(more, .cancelled(LoadID(2))),
            expecting: Rows(expecting: .success(value: first), newestID: LoadID(1), newestMoreID: LoadID(7)))
    }

    @Test("the window of a paged list")
    func window() {
        let store = store(Rows(window: 2))
        expectDiff(
            naming: "window", in: store, after: .started(LoadID(1)),
            expecting: Rows(expecting: .loading, inFlightID: LoadID(1), window: 3))
    }

    @Test("which loads an invalidation overtook")
    func invalidatedBefore() {
        var invalidated = Numbers(value: [0])
        invalidated.invalidate()
        let store = store(invalidated)
        expectDiff(
            naming: "invalidatedBefore", in: store, after: .started(LoadID(1)),
            expecting: Numbers(
                expecting: .refreshing(value: [0]), settledState: .success(value: [0]), inFlightID: LoadID(1),
                invalidatedBefore: .some(LoadID(1))))
    }
}
