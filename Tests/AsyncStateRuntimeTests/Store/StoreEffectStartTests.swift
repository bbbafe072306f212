import AsyncStateTestSupport
import AsyncStateTesting
import Testing

@testable import AsyncState

/// A feature whose load operations answer at once, suspend, or call back into
/// the store while they run — to check the ordering contract on both ways of
/// starting an effect.
struct Runner: Reducer {
    struct State: Equatable {
        var item = Loadable<Int, Never>()
        var notes: [String] = []
    }

    enum Action: CustomStringConvertible {
        /// A load whose operation answers `value` without suspending.
        case load(Int)
        /// A load whose operation suspends once, then answers `value`.
        case loadAfterYield(Int)
        /// A load that reports nothing until `gate` opens.
        case loadGated(Gate<Int>)
        /// A load whose operation sends `.note("from the operation")`, then answers.
        case loadSending
        /// A load whose operation sends `.cancel` for itself, then answers.
        case loadCancellingItself
        /// A load whose operation sends `.load(2)`, then answers 1.
        case loadStartingAnother
        /// A load whose operation starts a task of its own that sends
        /// `.cancel` for the load, then notes whether that task was
        /// cancelled; the operation then answers 1.
        case loadCancelledFromTaskItStarted
        /// A cancellable run effect that starts a task of its own that cancels
        /// it, then sends `.note("after its cancellation")`.
        case runCancelledFromTaskItStarted
        case cancelRun
        /// A `.send(.note("sent"))` effect, then a load of 5 — in one merge.
        case sendThenLoad
        /// A cancellable effect waiting on `gate`, cancelled by the same merge.
        case cancelBeforeLaunch(Gate<Int>)
        case note(String)
        case cancel
        case item(LoadAction<Int, Never>)

        var description: String {
            switch self {
            case .load(let value): "load(\(value))"
            case .loadAfterYield(let value): "loadAfterYield(\(value))"
            case .loadGated: "loadGated"
            case .loadSending: "loadSending"
            case .loadCancellingItself: "loadCancellingItself"
            case .loadStartingAnother: "loadStartingAnother"
            case .loadCancelledFromTaskItStarted: "loadCancelledFromTaskItStarted"
            case .runCancelledFromTaskItStarted: "runCancelledFromTaskItStarted"
            case .cancelRun: "cancelRun"
            case .sendThenLoad: "sendThenLoad"
            case .cancelBeforeLaunch: "cancelBeforeLaunch"
            case .note(let text): "note(\(text))"
            case .cancel: "cancel"
            case .item(let load): "\(load)"
            }
        }
    }

    /// The store the operations call back into.
    @MainActor
    final class Link {
        weak var store: Store<State, Action>?
    }

    let link: Link

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        let link = link
        switch action {
        case .load(let value):
            return state.item.load(Action.item, LoadRequest { () async throws(Never) in value })
        case .loadAfterYield(let value):
            return state.item.load(
                Action.item,
                LoadRequest { () async throws(Never) in
                    await Task.yield()
                    return value
                })
        case .loadGated(let gate):
            return state.item.load(Action.item, LoadRequest { () async throws(Never) in await gate.value() ?? -1 })
        case .loadSending:
            return state.item.load(
                Action.item,
                LoadRequest { () async throws(Never) in
                    link.store?.send(.note("from the operation"))
                    return 1
                })
        case .loadCancellingItself:
            return state.item.load(
                Action.item,
                LoadRequest { () async throws(Never) in
                    link.store?.send(.cancel)
                    return 1
                })
        case .loadStartingAnother:
            return state.item.load(
                Action.item,
                LoadRequest { () async throws(Never) in
                    link.store?.send(.load(2))
                    return 1
                })
        case .loadCancelledFromTaskItStarted:
            return state.item.load(
                Action.item,
                LoadRequest { () async throws(Never) in
                    // With `Task.immediate` available this task runs at once, inside
                    // the load's task, while the store is still launching the load.
                    let task = Task.immediate { @MainActor in
                        link.store?.send(.cancel)
                        link.store?.send(.note("its task cancelled: \(Task.isCancelled)"))
                    }
                    await task.value
                    return 1
                })
        case .runCancelledFromTaskItStarted:
            return .run { send in
                let task = Task.immediate { @MainActor in _ = link.store?.send(.cancelRun) }
                await task.value
                send(.note("after its cancellation"))
            }
            .cancellable(id: "run")
        case .cancelRun:
            return .cancel(id: "run")
        case .sendThenLoad:
            return .merge(.send(.note("sent")), state.item.load(Action.item, LoadRequest { () async throws(Never) in 5 }))
        case .cancelBeforeLaunch(let gate):
            return .merge(.run { _ in _ = try await gate.wait() }.cancellable(id: "waiting"), .cancel(id: "waiting"))
        case .note(let text):
            state.notes.append(text)
            return .none
        case .cancel:
            return .cancel(load: state.item.cancel())
        case .item(let load):
            return state.item.reduce(load)
        }
    }
}

@MainActor
func makeRunnerStore(
    _ start: EffectStart
) -> (Store<Runner.State, Runner.Action>, TransitionLog<Runner.State, Runner.Action>) {
    let link = Runner.Link()
    let store = Store(initialState: Runner.State(), reducer: Runner(link: link))
    store._effectStart = start
    link.store = store
    return (store, TransitionLog(store) { "\($0.item)" })
}

@Suite("Store: starting effects, on both paths")
@MainActor
struct StoreEffectStartTests {
    @Test("a load's .started is processed before anything the load reports", arguments: EffectStart.allCases)
    func startedFirst(start: EffectStart) async {
        let (store, log) = makeRunnerStore(start)
        await store.send(.load(7)).finish()
        #expect(log.lines == ["load(7) -> notLoaded", "started(#1) -> loading (#1 in flight)", "finished(#1, 7) -> success(value: 7)"])
    }

    @Test(
        "an operation that answers without suspending settles inside send when effects start immediately",
        arguments: [(EffectStart.immediate, true), (.enqueued, false)])
    func settlesInsideSend(start: EffectStart, settlesInside: Bool) async {
        let (store, _) = makeRunnerStore(start)
        let task = store.send(.load(7))
        #expect(store.item.value == (settlesInside ? 7 : nil))
        #expect(store.runningEffectCount == (settlesInside ? 0 : 1))
        #expect(!task.isEmpty, "the task of an effect that has ended still counts as started")
        await task.finish()
        #expect(store.item.state == .success(value: 7))
    }

    @Test("a load that suspends once settles after send on both paths", arguments: EffectStart.allCases)
    func oneSuspension(start: EffectStart) async {
        let (store, log) = makeRunnerStore(start)
        let task = store.send(.loadAfterYield(3))
        #expect(store.item.state == .loading)
        await task.finish()
        #expect(log.lines.last == "finished(#1, 3) -> success(value: 3)")
        #expect(store.runningEffectCount == 0)
    }

    @Test("effects start once the queue is empty, so actions keep one order on both paths", arguments: EffectStart.allCases)
    func queueBeforeEffects(start: EffectStart) async {
        let (store, log) = makeRunnerStore(start)
        await store.send(.sendThenLoad).finish()
        #expect(
            log.lines == [
                "sendThenLoad -> notLoaded", "started(#1) -> loading (#1 in flight)", "note(sent) -> loading (#1 in flight)",
                "finished(#1, 5) -> success(value: 5)",
            ])
    }

    @Test("an effect that ends before its task is registered leaves no entry behind", arguments: EffectStart.allCases)
    func noEntryLeftBehind(start: EffectStart) async {
        let (store, _) = makeRunnerStore(start)
        await store.send(.load(1)).finish()
        await store.send(.sendThenLoad).finish()
        #expect(store._runningEffects.isEmpty)
        #expect(store._loads.isEmpty)
        #expect(store._effectsByCancelID.isEmpty)
        #expect(store._pending.isEmpty)
        #expect(store._launch._token == nil)
        #expect(store._launch._task == nil)
    }

    @Test("an operation that sends while it runs has its action processed before the load's result", arguments: EffectStart.allCases)
    func operationSends(start: EffectStart) async {
        let (store, log) = makeRunnerStore(start)
        await store.send(.loadSending).finish()
        #expect(
            log.lines == [
                "loadSending -> notLoaded", "started(#1) -> loading (#1 in flight)",
                "note(from the operation) -> loading (#1 in flight)", "finished(#1, 1) -> success(value: 1)",
            ])
    }

    @Test("an operation that cancels its own load while it runs is cancelled at once", arguments: EffectStart.allCases)
    func operationCancelsItself(start: EffectStart) async {
        let (store, log) = makeRunnerStore(start)
        await store.send(.loadCancellingItself).finish()
        #expect(
            log.lines == [
                "loadCancellingItself -> notLoaded", "started(#1) -> loading (#1 in flight)", "cancel -> notLoaded",
                "cancelled(#1) -> notLoaded [dropped]",
            ])
        #expect(store._loads.isEmpty)
    }

    @Test("an operation that starts another load while it runs is superseded by it", arguments: EffectStart.allCases)
    func operationStartsAnother(start: EffectStart) async {
        let (store, log) = makeRunnerStore(start)
        await store.send(.loadStartingAnother).finish()
        await store.runningEffectsTask.finish()
        #expect(
            log.lines == [
                "loadStartingAnother -> notLoaded", "started(#1) -> loading (#1 in flight)", "load(2) -> loading (#1 in flight)",
                "started(#2) -> loading (#2 in flight)", "cancelled(#1) -> loading (#2 in flight) [dropped]",
                "finished(#2, 2) -> success(value: 2)",
            ])
        #expect(store.runningEffectCount == 0)
    }

    @Test(
        "an operation whose own task cancels its load cancels the load, not that task",
        arguments: EffectStart.allCases)
    func operationsTaskCancelsLoad(start: EffectStart) async {
        let (store, log) = makeRunnerStore(start)
        await store.send(.loadCancelledFromTaskItStarted).finish()
        #expect(
            log.lines == [
                "loadCancelledFromTaskItStarted -> notLoaded", "started(#1) -> loading (#1 in flight)", "cancel -> notLoaded",
                "note(its task cancelled: false) -> notLoaded", "cancelled(#1) -> notLoaded [dropped]",
            ])
        #expect(store._loads.isEmpty)
        #expect(store.runningEffectCount == 0)
        #expect(store._launch._task == nil)
    }

    @Test("a run effect cancelled from a task it started sends nothing more", arguments: EffectStart.allCases)
    func runsTaskCancelsRun(start: EffectStart) async {
        let (store, log) = makeRunnerStore(start)
        await store.send(.runCancelledFromTaskItStarted).finish()
        #expect(log.lines == ["runCancelledFromTaskItStarted -> notLoaded", "cancelRun -> notLoaded"])
        #expect(store.runningEffectCount == 0)
        #expect(store._effectsByCancelID.isEmpty)
    }

    @Test("an effect cancelled before its task starts runs cancelled", arguments: EffectStart.allCases)
    func cancelledBeforeLaunch(start: EffectStart) async {
        let (store, _) = makeRunnerStore(start)
        let gate = Gate<Int>()
        await store.send(.cancelBeforeLaunch(gate)).finish()
        #expect(gate.cancellationCount == 1)
        #expect(store.runningEffectCount == 0)
        #expect(store._effectsByCancelID.isEmpty)
    }

    @Test("cancelling a load in flight reaches its task on both paths", arguments: EffectStart.allCases)
    func cancelInFlight(start: EffectStart) async {
        let (store, log) = makeRunnerStore(start)
        let gate = Gate<Int>()
        let task = store.send(.loadGated(gate))
        store.send(.cancel)
        gate.open(with: 9)
        await task.finish()
        #expect(log.lines.last == "cancelled(#1) -> notLoaded [dropped]")
        #expect(store.runningEffectCount == 0)
    }
}
