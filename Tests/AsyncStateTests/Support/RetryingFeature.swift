import AsyncState
import AsyncStateTestSupport

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
