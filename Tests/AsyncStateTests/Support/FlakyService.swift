import AsyncState
import AsyncStateControls
import AsyncStateTestSupport

/// A service whose every call waits on a gate of its own, so a test decides
/// how each attempt of a retried load ends, and in which order.
@MainActor
final class FlakyService {
    private(set) var gates: [Gate<Int>] = []
    /// How many calls were made.
    var calls: Int { gates.count }

    /// The gate of call `index` (from 0), made ahead of the call if needed.
    subscript(index: Int) -> Gate<Int> {
        while gates.count <= index { gates.append(Gate()) }
        return gates[index]
    }

    private var nextCall = 0

    /// One call: waits on the next gate; a failed gate's `TestError` is the
    /// call's, anything else (cancellation) becomes `.offline`.
    func call() async throws(TestError) -> Int {
        let gate = self[nextCall]
        nextCall += 1
        do {
            return try await gate.wait()
        } catch let error as TestError {
            throw error
        } catch {
            throw .offline
        }
    }
}

/// A feature that loads one number with a retry policy.
struct RetryingFeature: Reducer {
    struct State: Equatable {
        var number = Loadable<Int, TestError>()
    }

    enum Action: Equatable {
        case load
        case cancel
        case number(LoadAction<Int, TestError>)
    }

    let service: FlakyService
    let retry: RetryPolicy<TestError>
    var timeout: LoadTimeout<TestError>?

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .load:
            let service = service
            let request = LoadRequest { () async throws(TestError) in try await service.call() }
            return state.number.load(Action.number, request.retry(retry).timeout(timeout))
        case .cancel:
            return .cancel(load: state.number.cancel())
        case .number(let load):
            return state.number.reduce(load)
        }
    }
}
