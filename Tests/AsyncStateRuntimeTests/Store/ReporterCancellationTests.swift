import AsyncStateControls
import AsyncStateTestSupport
import Testing

@testable import AsyncState

/// A stream attempt that reports after its task is cancelled: only the
/// reporter's own `Task.isCancelled` check stands between it and the state.
struct LateReporter: Reducer {
    struct State: Equatable { var item = Loadable<Int, TestError>() }
    enum Action {
        case load(Gate<Int>)
        case cancel
        case item(LoadAction<Int, TestError>)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .load(let gate):
            let request = LoadRequest<Int, TestError>(
                .stream(
                    { _, report in
                        report(1) // before cancellation: delivered
                        _ = try? await gate.wait() // throws once cancelled
                        report(2) // after cancellation: must be ignored
                        return .cancelled
                    }, .startEmpty))
            return state.item.load(Action.item, request)
        case .cancel:
            return .cancel(load: state.item.cancel())
        case .item(let load):
            return state.item.reduce(load)
        }
    }
}

struct LateReporterHost: Reducer {
    struct State: Equatable { var child = LateReporter.State() }
    enum Action { case child(LateReporter.Action) }
    func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
    static var reducer: some Reducer<State, Action> {
        LateReporterHost().combined(
            with: Scope(state: \.child, action: Action.child, extract: { if case .child(let a) = $0 { a } else { nil } }) {
                LateReporter()
            })
    }
}

@Suite("Loads: a cancelled load's reports are ignored, its end is not")
@MainActor
struct ReporterCancellationTests {
    @Test("in a root store: a stream that reports after its task is cancelled")
    func root() async {
        let store = Store(initialState: LateReporter.State(), reducer: LateReporter())
        var log: [String] = []
        store.observeTransitions { if case .item(let l) = $0.action { log.append("\(l)") } }
        let gate = Gate<Int>()
        let task = store.send(.load(gate))
        await gate.waitForArrivals()
        store.send(.cancel)
        await task.finish()
        #expect(log == ["started(#1)", "progress(#1, 1)", "cancelled(#1)"])
        #expect(store.runningEffectCount == 0)
        #expect(store._loads.isEmpty)
    }

    @Test("through Scope, whose load reports through a mapped reporter")
    func scoped() async {
        let store = Store(initialState: LateReporterHost.State(), reducer: LateReporterHost.reducer)
        var log: [String] = []
        store.observeTransitions { if case .child(.item(let l)) = $0.action { log.append("\(l)") } }
        let gate = Gate<Int>()
        let task = store.send(.child(.load(gate)))
        await gate.waitForArrivals()
        store.send(.child(.cancel))
        await task.finish()
        #expect(log == ["started(#1)", "progress(#1, 1)", "cancelled(#1)"])
        #expect(store.state.child.item.state == .notLoaded)
        #expect(store.runningEffectCount == 0)
        #expect(store._loads.isEmpty)
    }
}
