import AsyncStateTesting
import Testing

@testable import AsyncState

/// Every way of building a load, each of which must end its load exactly
/// once (the work reports its end to the store itself; see `LoadReporter`).
enum LoadKind: String, CaseIterable, CustomTestStringConvertible {
    case typed, untyped, timed, retried, streamed, mapped

    var testDescription: String { rawValue }

    struct Failure: Error, Equatable {}

    /// The load of `kind`, answering 7 — once after a yield if `suspends`.
    /// The retried load fails its first attempt.
    func effect(of item: Loadable<Int, Failure>, suspends: Bool) -> Effect<LoadEnds.Action> {
        let attempts = LockedValue(0)
        let operation: @MainActor @Sendable () async throws(Failure) -> Int = {
            if suspends { await Task.yield() }
            attempts.withLock { $0 += 1 }
            return 7
        }
        switch self {
        case .typed:
            return .load(LoadEnds.Action.item, operation: operation)
        case .untyped:
            return .load(LoadEnds.Action.item, mapError: { _ in Failure() }) { try await operation() }
        case .timed:
            return .load(LoadEnds.Action.item, timeout: LoadTimeout(.seconds(600), failure: Failure()), operation: operation)
        case .retried:
            return .load(LoadEnds.Action.item, retry: RetryPolicy(attempts: 2)) { () async throws(Failure) in
                let value = try await operation()
                if attempts.current == 1 { throw Failure() }
                return value
            }
        case .streamed:
            return item.load(
                LoadEnds.Action.item,
                stream: {
                    AsyncStream<Int> { continuation in
                        continuation.yield(7)
                        continuation.finish()
                    }
                }, mapError: { _ in Failure() })
        case .mapped:
            return Effect<LoadAction<Int, Failure>>.load({ $0 }, operation: operation).map(LoadEnds.Action.item)
        }
    }
}

struct LoadEnds: Reducer {
    struct State: Equatable {
        var item = Loadable<Int, LoadKind.Failure>()
    }

    enum Action {
        case load(LoadKind, suspends: Bool)
        case item(LoadAction<Int, LoadKind.Failure>)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .load(let kind, let suspends):
            return kind.effect(of: state.item, suspends: suspends)
        case .item(let load):
            return state.item.reduce(load)
        }
    }
}

@Suite("Store: every kind of load ends exactly once")
@MainActor
struct LoadEndTests {
    @Test(
        "a load ends once, with its value, and leaves no entry behind",
        arguments: LoadKind.allCases, [(EffectStart.immediate, false), (.immediate, true), (.enqueued, false)])
    func endsOnce(kind: LoadKind, path: (start: EffectStart, suspends: Bool)) async {
        let store = Store(initialState: LoadEnds.State(), reducer: LoadEnds())
        store._effectStart = path.start
        var ends = 0
        store.observeTransitions { transition in
            if case .item(let load) = transition.action, load.isEnd { ends += 1 }
        }
        await store.send(.load(kind, suspends: path.suspends)).finish()
        #expect(ends == 1)
        #expect(store.item.value == 7)
        #expect(store.runningEffectCount == 0)
        #expect(store._loads.isEmpty)
        #expect(store._launchingToken == nil)
    }
}

extension LoadAction {
    /// Whether this action ends its load.
    fileprivate var isEnd: Bool {
        switch self {
        case .finished, .failed, .cancelled: true
        case .started, .retrying, .progress: false
        }
    }
}
