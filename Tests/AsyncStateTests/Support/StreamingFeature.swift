import AsyncState
import AsyncStateTestSupport

/// A feature that loads a list of numbers over a stream.
struct StreamingFeature: Reducer {
    struct State: Equatable {
        var numbers = Loadable<[Int], TestError>()
    }

    enum Action: Equatable {
        /// Streams from source `index`.
        case load(Int)
        case cancel
        case keepPartialAndCancel
        case numbers(LoadAction<[Int], TestError>)
    }

    let sources: [StreamSource]
    var mode: StreamMode = .startEmpty
    var overlap: OverlapPolicy = .latestWins
    var ignoresCancellation = false
    var retry: RetryPolicy<TestError>?
    var timeout: LoadTimeout<TestError>?

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .load(let index):
            let source = sources[index], ignoresCancellation = ignoresCancellation
            let request = LoadRequest(
                stream: { GatedSequence(source: source, ignoresCancellation: ignoresCancellation) },
                mode: mode, initial: [], mapError: { $0 as? TestError ?? .offline }
            ) { $0.append($1) }
            return state.numbers.load(Action.numbers, request.retry(retry).timeout(timeout), overlap: overlap)
        case .cancel:
            return .cancel(load: state.numbers.cancel())
        case .keepPartialAndCancel:
            if let partial = state.numbers.partialValue { state.numbers.setValue(partial) }
            return .cancel(load: state.numbers.cancel())
        case .numbers(let load):
            return state.numbers.reduce(load)
        }
    }
}
