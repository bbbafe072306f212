import AsyncStateTestSupport
import AsyncStateTesting
import Testing

@testable import AsyncState

// Unchecked: only the store's reducer, run on the main actor, touches it.
final class EffectCache: @unchecked Sendable {
    var effect: Effect<LoadEnds.Action>?
}

/// One load effect value scheduled more than once: by `.merge(e, e)`, or
/// returned again by a later reducer call. Every shape of `LoadKind`
/// (typed, untyped, retried, streamed, mapped, ...), each a different
/// `LoadStart` subclass, shares its one start object between the schedules.
struct ReusedLoads: Reducer {
    typealias State = LoadEnds.State
    typealias Action = LoadEnds.Action

    let cache: EffectCache

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .load(let kind, _):
            // The same value twice in one merge.
            let load = kind.effect(of: state.item) { () async throws(LoadKind.Failure) in 7 }
            return .merge(load, load)
        case .loadGated(let kind, let gate):
            // Made once, returned by this call and the next one.
            if let effect = cache.effect { return effect }
            let effect = kind.effect(of: state.item) { () async throws(LoadKind.Failure) in
                do { return try await gate.wait() } catch { throw LoadKind.Failure() }
            }
            .cancellable(id: "reused")
            cache.effect = effect
            return effect
        case .cancel:
            return .cancel(id: "reused")
        case .loadCancelledWhilePending:
            return .none
        case .item(let load), .wrapped(.item(let load)):
            return state.item.reduce(load)
        }
    }
}

/// A child feature that starts its own loads, run by a parent through
/// `Scope`, `forEach` and `ifLet`: the child's load effect is mapped
/// (`mapOperation` → `MappedLoadStart`), and must announce and end through
/// the parent's actions.
struct ChildLoader: Reducer {
    struct State: Equatable { var item = Loadable<Int, TestError>() }
    enum Action {
        case refresh(Gate<Int>, retried: Bool)
        /// The same load, marked `cancellable(id: "child")`: boxed, then mapped.
        case refreshCancellable(Gate<Int>)
        /// `.merge(e, e)` of one load that does not cancel the one it supersedes.
        case refreshTwiceInParallel(Gate<Int>)
        case cancelByID
        case cancelLoad
        case item(LoadAction<Int, TestError>)
    }

    func request(_ gate: Gate<Int>, retried: Bool) -> LoadRequest<Int, TestError> {
        let attempts = LockedValue(0)
        let request = LoadRequest { () async throws(TestError) in
            let attempt = attempts.withLock { count in
                count += 1
                return count
            }
            if retried, attempt == 1 { throw .offline }
            do { return try await gate.wait() } catch { throw .offline }
        }
        return retried ? request.retry(RetryPolicy(attempts: 2)) : request
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .refresh(let gate, let retried):
            return state.item.load(Action.item, request(gate, retried: retried))
        case .refreshCancellable(let gate):
            return state.item.load(Action.item, request(gate, retried: false)).cancellable(id: "child")
        case .refreshTwiceInParallel(let gate):
            let load = state.item.load(Action.item, request(gate, retried: false), overlap: .latestWins(cancellingEarlier: false))
            return .merge(load, load)
        case .cancelByID:
            return .cancel(id: "child")
        case .cancelLoad:
            return .cancel(load: state.item.cancel())
        case .item(let load):
            return state.item.reduce(load)
        }
    }
}

struct ChildHost: Reducer {
    struct State: Equatable {
        var child = ChildLoader.State()
        var rows: KeyedStates<Int, ChildLoader.State> = [5: .init()]
        var optional: ChildLoader.State? = .init()
    }

    enum Action {
        case child(ChildLoader.Action)
        case row(Int, ChildLoader.Action)
        case optional(ChildLoader.Action)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }

    static var reducer: some Reducer<State, Action> {
        ChildHost()
            .combined(
                with: Scope(
                    state: \.child, action: Action.child,
                    extract: { if case .child(let action) = $0 { action } else { nil } }
                ) { ChildLoader() }
            )
            .forEach(
                \.rows, action: Action.row,
                extract: { if case .row(let key, let action) = $0 { (key, action) } else { nil } }
            ) { ChildLoader() }
            .ifLet(
                \.optional, action: Action.optional,
                extract: { if case .optional(let action) = $0 { action } else { nil } }
            ) { ChildLoader() }
    }
}

/// How the parent reaches one of its children.
enum ChildPath: String, CaseIterable, CustomTestStringConvertible {
    case scope, forEach, ifLet

    var testDescription: String { rawValue }

    func embed(_ action: ChildLoader.Action) -> ChildHost.Action {
        switch self {
        case .scope: .child(action)
        case .forEach: .row(5, action)
        case .ifLet: .optional(action)
        }
    }

    func extract(_ action: ChildHost.Action) -> LoadAction<Int, TestError>? {
        switch (self, action) {
        case (.scope, .child(.item(let load))), (.forEach, .row(5, .item(let load))), (.ifLet, .optional(.item(let load))):
            load
        default:
            nil
        }
    }

    func item(_ state: ChildHost.State) -> Loadable<Int, TestError>? {
        switch self {
        case .scope: state.child.item
        case .forEach: state.rows[5]?.item
        case .ifLet: state.optional?.item
        }
    }
}

@Suite("Loads: one effect scheduled twice, marked with a cancel ID, or mapped to a parent")
@MainActor
struct SharedLoadStartTests {
    /// The store, and every action its loads made, unstamped, in order.
    func makeStore(_ start: EffectStart) -> (Store<LoadEnds.State, LoadEnds.Action>, () -> [String]) {
        let (store, actions) = Store.recordingLoads(start, reducer: ReusedLoads(cache: EffectCache()))
        return (store, { actions().map { "\($0.unstamped)" } })
    }

    @Test(".merge(e, e) of one load effect starts two loads with their own IDs", arguments: LoadKind.allCases, EffectStart.allCases)
    func mergeOfTheSameLoad(kind: LoadKind, start: EffectStart) async {
        let (store, actions) = makeStore(start)
        await store.send(.load(kind, suspends: false)).finish()
        let log = actions()
        #expect(log.filter { $0.hasPrefix("started") } == ["started(#1)", "started(#2)"])
        // #2 supersedes #1 under `.latestWins`: #1 ends cancelled, #2 with its value.
        let ends = log.filter { $0.hasPrefix("finished") || $0.hasPrefix("failed") || $0.hasPrefix("cancelled") }
        #expect(ends.sorted() == ["cancelled(#1)", "finished(#2, 7)"])
        #expect(store.item.value == 7)
        store.expectNothingLeft()
    }

    @Test(
        "one cancellable load effect returned by two reducer calls runs two loads, and cancel(id:) stops the second",
        arguments: LoadKind.allCases, EffectStart.allCases)
    func sameEffectFromTwoCalls(kind: LoadKind, start: EffectStart) async {
        let (store, actions) = makeStore(start)
        let gate = Gate<Int>()
        let first = store.send(.loadGated(kind, gate))
        let second = store.send(.loadGated(kind, gate)) // the cached effect, the same start object
        #expect(actions().filter { $0.hasPrefix("started") } == ["started(#1)", "started(#2)"])
        store.send(.cancel) // `.cancel(id: "reused")`
        await first.finish()
        await second.finish()
        gate.open(with: 1)
        // #1 superseded by #2 (`.latestWins`), #2 by its cancel ID.
        #expect(actions().filter { $0.hasPrefix("cancelled") }.sorted() == ["cancelled(#1)", "cancelled(#2)"])
        #expect(!actions().contains { $0.hasPrefix("finished") })
        #expect(store.item.state == .notLoaded)
        store.expectNothingLeft()
    }

    func makeHost() -> (Store<ChildHost.State, ChildHost.Action>, (ChildPath) -> [String]) {
        let store = Store(initialState: ChildHost.State(), reducer: ChildHost.reducer)
        var actions: [ChildHost.Action] = []
        store.observeTransitions { actions.append($0.action) }
        return (
            store,
            { path in
                actions.compactMap(path.extract).map { load in
                    let text = "\(load)"
                    return text.hasPrefix("retrying(#1") ? "retrying(#1)" : text
                }
            }
        )
    }

    @Test("a child's load announces and ends through the parent's actions", arguments: ChildPath.allCases, [false, true])
    func scopedLoad(path: ChildPath, retried: Bool) async {
        let (store, actions) = makeHost()
        let gate = Gate<Int>()
        gate.open(with: 3)
        await store.send(path.embed(.refresh(gate, retried: retried))).finish()
        let plan = retried ? ["planned(#1, 2 attempts)", "retrying(#1)"] : []
        #expect(actions(path) == ["started(#1)"] + plan + ["finished(#1, 3)"])
        #expect(path.item(store.state)?.value == 3)
        #expect(store.runningEffectCount == 0)
        #expect(store._loads.isEmpty)
    }

    @Test(
        "a child's load is cancelled through the parent: by its load ID, and by a cancel ID", arguments: ChildPath.allCases, [false, true])
    func scopedCancel(path: ChildPath, byCancelID: Bool) async {
        let (store, actions) = makeHost()
        let gate = Gate<Int>()
        let task = store.send(path.embed(byCancelID ? .refreshCancellable(gate) : .refresh(gate, retried: false)))
        await gate.waitForArrivals()
        store.send(path.embed(byCancelID ? .cancelByID : .cancelLoad))
        await task.finish()
        #expect(gate.observedCancellation)
        #expect(actions(path) == ["started(#1)", "cancelled(#1)"])
        #expect(path.item(store.state)?.state == .notLoaded)
        #expect(store.runningEffectCount == 0)
        #expect(store._loads.isEmpty)
        #expect(store._effectsByCancelID.isEmpty)
    }

    @Test("one child load effect merged with itself runs both operations at once, each ending its own ID", arguments: ChildPath.allCases)
    func scopedMergeOfTheSameLoad(path: ChildPath) async {
        let (store, actions) = makeHost()
        let gate = Gate<Int>()
        let task = store.send(path.embed(.refreshTwiceInParallel(gate)))
        await gate.waitForArrivals(2)
        #expect(!gate.observedCancellation)
        gate.open(with: 4)
        await task.finish()
        let log = actions(path)
        #expect(Array(log.prefix(2)) == ["started(#1)", "started(#2)"])
        #expect(log.dropFirst(2).sorted() == ["finished(#1, 4)", "finished(#2, 4)"])
        #expect(path.item(store.state)?.value == 4)
        #expect(store.runningEffectCount == 0)
        #expect(store._loads.isEmpty)
    }
}
