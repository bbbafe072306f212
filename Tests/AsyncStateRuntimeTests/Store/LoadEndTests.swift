import AsyncStateTestSupport
import AsyncStateTesting
import Testing

@testable import AsyncState

/// Every way of building a load, each of which must end its load exactly
/// once (the work reports its end to the store itself; see `LoadReporter`).
/// Every load is a `LoadRequest` started with `Loadable.load`; the kinds are
/// its sources and its options, and an effect mapped after it is built.
enum LoadKind: String, CaseIterable, CustomTestStringConvertible {
    case typed, untyped, timed, retried, streamed, accumulated, stamped, mapped, mappedTwice

    var testDescription: String { rawValue }

    struct Failure: Error, Equatable {}

    typealias Operation = @MainActor @Sendable () async throws(Failure) -> Int

    /// The load of this kind, whose value comes from `operation`. The
    /// retried load fails its first attempt and calls `operation` on the second.
    func effect(of item: Loadable<Int, Failure>, _ operation: @escaping Operation) -> Effect<LoadEnds.Action> {
        switch self {
        case .typed:
            return item.load(LoadEnds.Action.item, LoadRequest(operation))
        case .untyped:
            return item.load(LoadEnds.Action.item, LoadRequest(mapError: { _ in Failure() }) { try await operation() })
        case .timed:
            return item.load(LoadEnds.Action.item, LoadRequest(operation).timeout(LoadTimeout(.seconds(600), failure: Failure())))
        case .retried:
            let attempts = LockedValue(0)
            let request = LoadRequest { () async throws(Failure) in
                let attempt = attempts.withLock { count in
                    count += 1
                    return count
                }
                if attempt == 1 { throw Failure() }
                return try await operation()
            }
            return item.load(LoadEnds.Action.item, request.retry(RetryPolicy(attempts: 2)))
        case .streamed:
            return item.load(LoadEnds.Action.item, LoadRequest(stream: { OneElement(operation) }, mapError: { _ in Failure() }))
        case .accumulated:
            let request = LoadRequest(stream: { OneElement(operation) }, initial: 0, mapError: { _ in Failure() }) { $0 += $1 }
            return item.load(LoadEnds.Action.item, request)
        case .stamped:
            return item.load(LoadEnds.Action.item, LoadRequest(operation).stamped(by: LoadClock(TestClock())))
        case .mapped:
            return item.load({ $0 }, LoadRequest(operation)).map(LoadEnds.Action.item)
        case .mappedTwice:
            return item.load({ $0 }, LoadRequest(operation)).map(LoadEnds.Wrapped.item).map(LoadEnds.Action.wrapped)
        }
    }

    /// What the load reports between its start and its end: a retried load
    /// says how many attempts it makes right after it starts.
    var plan: [String] { self == .retried ? ["planned(#1, 2 attempts)"] : [] }
}

/// A sequence of the one element `operation` returns.
struct OneElement: AsyncSequence {
    let operation: LoadKind.Operation

    init(_ operation: @escaping LoadKind.Operation) { self.operation = operation }

    struct AsyncIterator: AsyncIteratorProtocol {
        var operation: LoadKind.Operation?

        @MainActor
        mutating func next() async throws(LoadKind.Failure) -> Int? {
            guard let operation else { return nil }
            self.operation = nil
            return try await operation()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(operation: operation) }
}

struct LoadEnds: Reducer {
    struct State: Equatable {
        var item = Loadable<Int, LoadKind.Failure>()
    }

    enum Wrapped {
        case item(LoadAction<Int, LoadKind.Failure>)
    }

    enum Action {
        /// A load of `kind` answering 7, once after a yield if `suspends`.
        case load(LoadKind, suspends: Bool)
        /// A load of `kind` waiting for `gate`.
        case loadGated(LoadKind, Gate<Int>)
        /// A load of `kind` answering 7 at once, cancelled by the same merge
        /// before its task starts.
        case loadCancelledWhilePending(LoadKind)
        case cancel
        case item(LoadAction<Int, LoadKind.Failure>)
        case wrapped(Wrapped)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .load(let kind, let suspends):
            return kind.effect(of: state.item) { () async throws(LoadKind.Failure) in
                if suspends { await Task.yield() }
                return 7
            }
        case .loadGated(let kind, let gate):
            return kind.effect(of: state.item) { () async throws(LoadKind.Failure) in
                do { return try await gate.wait() } catch { throw LoadKind.Failure() }
            }
        case .loadCancelledWhilePending(let kind):
            let load = kind.effect(of: state.item) { () async throws(LoadKind.Failure) in 7 }
            return .merge(load.cancellable(id: "pending"), .cancel(id: "pending"))
        case .cancel:
            return .cancel(load: state.item.cancel())
        case .item(let load), .wrapped(.item(let load)):
            return state.item.reduce(load)
        }
    }
}

extension Store where State == LoadEnds.State, Action == LoadEnds.Action {
    /// A store of `LoadEnds`' state run by `reducer`, starting its effects as
    /// `start` says, and every action its loads made, in order.
    static func recordingLoads(
        _ start: EffectStart, reducer: some Reducer<State, Action> = LoadEnds()
    ) -> (Store, () -> [LoadAction<Int, LoadKind.Failure>]) {
        let store = Store(initialState: State(), reducer: reducer)
        store._effectStart = start
        var actions: [LoadAction<Int, LoadKind.Failure>] = []
        store.observeTransitions { transition in
            switch transition.action {
            case .item(let load), .wrapped(.item(let load)):
                actions.append(load)
            default:
                break
            }
        }
        return (store, { actions })
    }

    /// Expects that the store keeps nothing of its loads: no running effect,
    /// no load or cancel-ID entry, no launch record.
    func expectNothingLeft(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(runningEffectCount == 0, sourceLocation: sourceLocation)
        #expect(_loads.isEmpty, sourceLocation: sourceLocation)
        #expect(_effectsByCancelID.isEmpty, sourceLocation: sourceLocation)
        #expect(_launch._token == nil, sourceLocation: sourceLocation)
        #expect(_launch._task == nil, sourceLocation: sourceLocation)
    }
}

@Suite("Store: every kind of load ends exactly once")
@MainActor
struct LoadEndTests {
    /// The store, and the ending actions its loads made, in order.
    func makeStore(_ start: EffectStart) -> (Store<LoadEnds.State, LoadEnds.Action>, () -> [String]) {
        let (store, actions) = makeRecordingStore(start)
        return (store, { actions().filter(\.isEnd).map { "\($0.unstamped)" } })
    }

    /// The store, and every action its loads made, in order.
    func makeRecordingStore(
        _ start: EffectStart
    ) -> (Store<LoadEnds.State, LoadEnds.Action>, () -> [LoadAction<Int, LoadKind.Failure>]) {
        Store.recordingLoads(start)
    }

    func expectNothingLeft(_ store: Store<LoadEnds.State, LoadEnds.Action>) {
        store.expectNothingLeft()
    }

    @Test(
        "a load ends once, with its value, and leaves no entry behind",
        arguments: LoadKind.allCases, [(EffectStart.immediate, false), (.immediate, true), (.enqueued, false), (.enqueued, true)])
    func endsOnce(kind: LoadKind, path: (start: EffectStart, suspends: Bool)) async {
        let (store, ends) = makeStore(path.start)
        await store.send(.load(kind, suspends: path.suspends)).finish()
        #expect(ends() == ["finished(#1, 7)"])
        #expect(store.item.value == 7)
        expectNothingLeft(store)
    }

    @Test("a cancelled load ends once, as cancelled, and leaves no entry behind", arguments: LoadKind.allCases, EffectStart.allCases)
    func cancelledEndsOnce(kind: LoadKind, start: EffectStart) async {
        let (store, ends) = makeStore(start)
        let gate = Gate<Int>()
        let task = store.send(.loadGated(kind, gate))
        store.send(.cancel)
        await task.finish()
        gate.open(with: 1)
        #expect(ends() == ["cancelled(#1)"])
        #expect(store.item.state == .notLoaded)
        expectNothingLeft(store)
    }

    // Every load's task must begin with `reporter.began()`: with
    // `Task.immediate` that is where a load cancelled while pending cancels
    // its own task, before its work runs — before an operation that answers
    // at once has answered, and before a retried load's first attempt fails
    // and reports a retry.
    @Test(
        "a load cancelled before its task starts runs cancelled and reports only its start, its plan and its cancellation",
        arguments: LoadKind.allCases, EffectStart.allCases)
    func cancelledWhilePendingEndsOnce(kind: LoadKind, start: EffectStart) async {
        let (store, actions) = makeRecordingStore(start)
        await store.send(.loadCancelledWhilePending(kind)).finish()
        #expect(actions().map { "\($0)" } == ["started(#1)"] + kind.plan + ["cancelled(#1)"])
        #expect(store.item.state == .notLoaded)
        expectNothingLeft(store)
    }
}

extension LoadAction {
    /// Whether this action ends its load.
    fileprivate var isEnd: Bool {
        switch self {
        case .finished, .failed, .cancelled, .edit(.confirmed), .edit(.failed), .edit(.cancelled): true
        case .at(_, let action), .more(_, let action): action.isEnd
        case .started, .retrying, .progress, .planned, .queued, .edit: false
        }
    }

    /// This action without the time a stamped load's result carries.
    var unstamped: LoadAction {
        if case .at(_, let action) = self { action } else { self }
    }
}
